import type { Knex } from 'knex';
import { readInt, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { isId } from '../../lib/ids.js';
import type { PropertyValue, SimilarProduct, StoreContext, VariantFamily } from '../../contract/index.js';
import { categoryIdsColumn, PRODUCT_COLUMNS, toProductRecords, type ProductRow } from './product-repository.js';

type VisibleOnly = (ctx: StoreContext, query: Knex.QueryBuilder, executor: Executor) => Promise<void>;

/** The association tables of property values: a variant's defining options, a product's describing properties. */
export type PropertyLink = 'product_options' | 'product_properties';

/** Per product, its property values of one kind, by group position, group name, option position, option name. */
export async function propertyValuesOf(
  executor: Executor,
  link: PropertyLink,
  productIds: string[],
): Promise<Map<string, PropertyValue[]>> {
  const byProduct = new Map<string, PropertyValue[]>(productIds.map((id) => [id, []]));
  for (let i = 0; i < productIds.length; i += 500) {
    const rows = await selectRows<{
      product_id: string;
      group_id: string;
      group_name: string;
      option_id: string;
      option_name: string;
    }>(
      executor(link)
        .join('property_group_options as o', 'o.id', `${link}.option_id`)
        .join('property_groups as g', 'g.id', 'o.group_id')
        .whereIn(`${link}.product_id`, productIds.slice(i, i + 500))
        .orderBy([
          { column: 'g.position' },
          { column: 'g.name' },
          { column: 'o.position' },
          { column: 'o.name' },
          { column: 'o.id' },
        ])
        .select(
          `${link}.product_id as product_id`,
          'g.id as group_id',
          'g.name as group_name',
          'o.id as option_id',
          'o.name as option_name',
        ),
    );
    for (const row of rows)
      byProduct.get(row.product_id)?.push({
        groupId: row.group_id,
        groupName: row.group_name,
        optionId: row.option_id,
        optionName: row.option_name,
      });
  }
  return byProduct;
}

/** catalog.variants and catalog.propertySimilarProducts of the contract (2.2). */
export function createVariantCatalog(defaultExecutor: Executor, visibleOnly: VisibleOnly) {
  /** The ids of `ids` that are active and visible to the context. */
  async function visibleIds(ctx: StoreContext, ids: string[], executor: Executor): Promise<Set<string>> {
    const query = executor('products').whereIn('products.id', ids).where('products.active', true);
    await visibleOnly(ctx, query, executor);
    return new Set((await query.pluck('products.id')) as string[]);
  }

  /** The product, and its main product: both must be visible, else null (hidden answers as unknown). */
  async function visibleFamilyRoot(
    ctx: StoreContext,
    productId: string,
    executor: Executor,
  ): Promise<{ mainId: string } | null> {
    if (!isId(productId)) return null;
    const row = await selectRow<{ id: string; parent_id: string | null }>(
      executor('products').where('products.id', productId).first('products.id', 'products.parent_id'),
    );
    if (!row) return null;
    const mainId = row.parent_id ?? productId;
    const visible = await visibleIds(ctx, [productId, mainId], executor);
    return visible.has(productId) && visible.has(mainId) ? { mainId } : null;
  }

  async function variants(executor: Executor, ctx: StoreContext, productId: string): Promise<VariantFamily | null> {
    const root = await visibleFamilyRoot(ctx, productId, executor);
    if (!root) return null;
    const [main] = await toProductRecords(
      executor,
      await selectRows<ProductRow>(
        executor('products')
          .where('products.id', root.mainId)
          .select([...PRODUCT_COLUMNS, categoryIdsColumn(executor)]),
      ),
    );
    const query = executor('products')
      .where('products.parent_id', root.mainId)
      .where('products.active', true)
      .orderBy([{ column: 'products.product_number' }, { column: 'products.id' }])
      .select([...PRODUCT_COLUMNS, categoryIdsColumn(executor)]);
    await visibleOnly(ctx, query, executor);
    const records = await toProductRecords(executor, await selectRows<ProductRow>(query));
    const options = await propertyValuesOf(
      executor,
      'product_options',
      records.map((r) => r.id),
    );
    return { main: main!, variants: records.map((record) => ({ ...record, options: options.get(record.id) ?? [] })) };
  }

  async function propertySimilarProducts(
    executor: Executor,
    ctx: StoreContext,
    productId: string,
    options: { limit: number },
  ): Promise<{ properties: PropertyValue[]; products: SimilarProduct[] } | null> {
    const root = await visibleFamilyRoot(ctx, productId, executor);
    if (!root) return null;
    const properties = (await propertyValuesOf(executor, 'product_properties', [productId])).get(productId) ?? [];
    const limit = Math.max(0, Math.min(Math.trunc(options.limit), 500));
    if (properties.length === 0 || limit === 0) return { properties, products: [] };
    const family = [
      root.mainId,
      productId,
      ...((await executor('products').where('parent_id', root.mainId).pluck('id')) as string[]),
    ];
    const optionIds = properties.map((p) => p.optionId);
    const query = executor('products')
      .join('product_properties', 'product_properties.product_id', 'products.id')
      .whereIn('product_properties.option_id', optionIds)
      .whereNotIn('products.id', family)
      .where('products.active', true)
      .groupBy('products.id', 'products.product_number')
      .select('products.id')
      .count({ shared: '*' })
      .orderBy([{ column: 'shared', order: 'desc' }, { column: 'products.product_number' }, { column: 'products.id' }])
      .limit(limit);
    await visibleOnly(ctx, query, executor);
    const ranked = (await query) as Array<{ id: string; shared: unknown }>;
    if (ranked.length === 0) return { properties, products: [] };
    const ids = ranked.map((r) => r.id);
    const records = await toProductRecords(
      executor,
      await selectRows<ProductRow>(
        executor('products')
          .whereIn('products.id', ids)
          .select([...PRODUCT_COLUMNS, categoryIdsColumn(executor)]),
      ),
    );
    const byId = new Map(records.map((r) => [r.id, r]));
    const theirs = await propertyValuesOf(executor, 'product_properties', ids);
    const own = new Set(optionIds);
    return {
      properties,
      products: ranked
        .filter((r) => byId.has(r.id) && readInt(r.shared) > 0)
        .map((r) => ({
          product: byId.get(r.id)!,
          shared: (theirs.get(r.id) ?? []).filter((value) => own.has(value.optionId)),
        })),
    };
  }

  return { variants, propertySimilarProducts };
}
