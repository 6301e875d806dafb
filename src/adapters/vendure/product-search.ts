import type { Knex } from 'knex';
import {
  Collection,
  Product,
  ProductOption,
  ProductOptionGroup,
  ProductOptionGroupTranslation,
  ProductOptionTranslation,
  ProductTranslation,
  ProductVariant,
  ProductVariantPrice,
  ProductVariantTranslation,
  StockLevel,
  TaxRate,
} from '@vendure/core';
import type {
  ProductIdQuery,
  ProductRecord,
  ProductSearchOptions,
  ResultPage,
  PropertyValue,
  StoreContext,
  VariantFamily,
  VariantRecord,
} from '../../contract/index.js';
import { moneyFiltersToMinor, numberFirstMatch, orderProducts } from '../../host-kit/catalog-search.js';
import {
  applyCriteriaFilters,
  resolveFiltersToIds,
  searchByCriteria,
  sortColumnOf,
  type Criteria,
  type CriteriaSpec,
  type Filter,
} from '../../lib/criteria.js';
import { dialectOf, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { isId } from '../../lib/ids.js';
import { visibilityPredicate } from './catalog.js';
import type { AdapterState } from './state.js';
import { defaultChannel, liveVariants, variantsByIds, type ChannelRow } from './vendure-tables.js';
import { column, columns, junction, selectAs, table } from './vendure-schema.js';

/**
 * `catalog.searchProducts` / `productIds` / `variants` on Vendure's tables. A product of the plugin
 * is a ProductVariant (vendure-tables.ts); the search reads them as a derived table `products` with
 * the reference host's column names and the plugin's id form (`id`), so lib/criteria and the
 * hosts' shared number-first term match and sort keys (host-kit/catalog-search.ts) apply
 * unchanged. Visibility is the plugin's filters as one predicate on `products.id`. Categories are
 * Vendure collections (the junction table of `Collection.productVariants`): a `categoryId` filter is
 * resolved to variant ids first (lib/criteria resolveFiltersToIds).
 */
const PRODUCT_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: 'products.id', type: 'id' },
    productNumber: { column: 'products.product_number', type: 'string' },
    name: { column: 'products.name', type: 'string' },
    description: { column: 'products.description', type: 'string' },
    active: { column: 'products.active', type: 'boolean' },
    stock: { column: 'products.stock', type: 'number' },
    price: { column: 'products.price_net', type: 'number' },
    createdAt: { column: 'products.created_at', type: 'date' },
  },
  termColumns: ['products.name', 'products.product_number'],
  defaultSort: [{ column: 'products.id', order: 'asc' }],
  idColumn: 'products.id',
};

const CATEGORY_FIELD = 'categoryId';

/** The product fields criteria may name on Vendure (no manufacturer or EAN: Vendure has none). */
export const VENDURE_PRODUCT_CRITERIA_FIELDS: readonly string[] = Object.freeze([
  ...Object.keys(PRODUCT_CRITERIA.fields),
  CATEGORY_FIELD,
]);

const MEMBERSHIP_CRITERIA: CriteriaSpec = {
  fields: { [CATEGORY_FIELD]: { column: 'memberships.category_id', type: 'id' } },
  defaultSort: [],
  idColumn: 'memberships.product_id',
};

const DEFAULT_SORT = [{ field: 'productNumber', order: 'asc' as const }];

interface IdRow {
  id: string;
}

interface VendureIdRow {
  vendure_id: string | number;
}

interface OptionRow {
  productVariantId: string | number;
  optionId: string | number;
  groupId: string | number;
  optionName: string | null;
  optionCode: string;
  groupName: string | null;
  groupCode: string;
}

/**
 * The net price column: the channel's price, or on a channel whose prices include tax (decision
 * 0032) its net at the variant's tax rate in the channel's default tax zone, as toProductRecords
 * answers it (vendure-tables.ts), so `price` criteria compare net prices.
 */
function priceNetColumn(executor: Executor, channel: ChannelRow): Knex.Raw {
  const price = column(ProductVariantPrice, 'price', 'pr');
  if (!channel.pricesIncludeTax || channel.defaultTaxZoneId == null) return executor.raw('coalesce(??, 0)', [price]);
  const tr = columns(TaxRate, 'tr');
  return executor.raw(
    'round(coalesce(??, 0) * 10000.0 / (10000.0 + coalesce((select max(case when ?? then ?? * 100 end) from ?? tr where ?? = ?? and ?? = ?), 0)))',
    [
      price,
      tr('enabled'),
      tr('value'),
      table(TaxRate),
      tr('categoryId'),
      column(ProductVariant, 'taxCategoryId', 'v'),
      tr('zoneId'),
      channel.defaultTaxZoneId,
    ],
  );
}

// eslint-disable-next-line max-lines-per-function -- longer than 150 lines before the 150-line rule covered all of src; split it when it next changes
export function productSearch(state: AdapterState) {
  const { ids } = state;

  /** Vendure's variants in the reference host's product columns (plugin ids in `id`, Vendure's in `vendure_id`). */
  function products(executor: Executor, channel: ChannelRow): Knex.QueryBuilder {
    const asPlugin = (name: string) => executor.raw(ids.columnAsPluginId(name, dialectOf(executor)));
    const v = columns(ProductVariant, 'v');
    const pt = columns(ProductTranslation, 'pt');
    const sl = columns(StockLevel, 'sl');
    const inner = liveVariants(executor, channel).select({
      id: asPlugin(v('id')),
      vendure_id: v('id'),
      product_number: v('sku'),
      name: executor.raw('coalesce(??, ??, ??)', [
        column(ProductVariantTranslation, 'name', 'vt'),
        pt('name'),
        v('sku'),
      ]),
      description: pt('description'),
      // (booleans: integers on SQLite and MariaDB, booleans on PostgreSQL)
      active: executor.raw('case when ?? and ?? then 1 else 0 end', [v('enabled'), column(Product, 'enabled', 'p')]),
      stock: executor.raw('(select coalesce(sum(?? - ??), 0) from ?? sl where ?? = ??)', [
        sl('stockOnHand'),
        sl('stockAllocated'),
        table(StockLevel),
        sl('productVariantId'),
        v('id'),
      ]),
      price_net: priceNetColumn(executor, channel),
      created_at: v('createdAt'),
    });
    return executor.from(inner.as('products'));
  }

  async function visibleTo(ctx: StoreContext, query: Knex.QueryBuilder, executor: Executor): Promise<void> {
    const predicate = await visibilityPredicate(state, ctx, 'product', 'products.id', executor);
    if (predicate) query.whereRaw(predicate.sql, predicate.bindings as Knex.Value[]);
  }

  /** `categoryId` leaves (Vendure collections) → the variant ids they match. */
  function resolveCategories(executor: Executor, filters: Filter[] | undefined): Promise<Filter[] | undefined> {
    return resolveFiltersToIds(filters, new Set([CATEGORY_FIELD]), 'id', async (leaf) => {
      const asPlugin = (name: string) => executor.raw(ids.columnAsPluginId(name, dialectOf(executor)));
      const cv = junction(Collection, 'productVariants', 'cv');
      const memberships = executor.from(
        executor(cv.table)
          .select({ product_id: asPlugin(cv.inverse), category_id: asPlugin(cv.owner) })
          .as('memberships'),
      );
      if (leaf.type === 'equals' && leaf.value === null) {
        const all = await selectRows<{ product_id: string }>(memberships.distinct('memberships.product_id'));
        return { notIn: all.map((r) => r.product_id) };
      }
      const matched = await selectRows<{ product_id: string }>(
        applyCriteriaFilters(memberships, { filter: [leaf] }, MEMBERSHIP_CRITERIA).distinct('memberships.product_id'),
      );
      return { in: matched.map((r) => r.product_id) };
    });
  }

  async function filtersOf(
    executor: Executor,
    ctx: StoreContext | null,
    filter: Filter[] | undefined,
  ): Promise<Filter[] | undefined> {
    return resolveCategories(
      executor,
      moneyFiltersToMinor(filter, ['price'], ctx?.salesChannel.currencyPrecision ?? 2),
    );
  }

  async function searchProducts(
    executor: Executor,
    ctx: StoreContext | null,
    criteria: Criteria,
    options: ProductSearchOptions = {},
  ): Promise<ResultPage<ProductRecord>> {
    const channel = await defaultChannel(executor);
    const query = products(executor, channel).where('products.active', 1);
    if (ctx) await visibleTo(ctx, query, executor);
    if (options.within) query.whereIn('products.id', [...new Set(options.within.filter(isId))]);
    const { term, sort, ...rest } = criteria;
    const text = term?.trim();
    const match = text && options.alsoMatch ? numberFirstMatch(state.dialect, text, options.alsoMatch) : null;
    match?.where(query);
    const order = (qb: Knex.QueryBuilder, entries: Array<{ field: string; order?: string }>) =>
      orderProducts(qb, entries, options.orderings ?? {}, PRODUCT_CRITERIA);
    const filter = await filtersOf(executor, ctx, rest.filter);
    const spec: CriteriaSpec = { ...PRODUCT_CRITERIA, termColumns: match ? [] : PRODUCT_CRITERIA.termColumns };
    const page = await searchByCriteria<VendureIdRow>(
      query,
      { ...rest, filter, ...(match ? {} : { term }) },
      spec,
      (qb) => {
        if (sort?.length) order(qb, sort);
        else {
          match?.rank(qb);
          order(qb, options.defaultSort ?? DEFAULT_SORT);
        }
        return qb.select('products.vendure_id');
      },
    );
    const records = await variantsByIds(
      ids,
      executor,
      page.rows.map((row) => ids.toPlugin(row.vendure_id)),
      channel,
    );
    return { total: page.total, page: page.page, limit: page.limit, elements: records };
  }

  async function productIds(executor: Executor, ctx: StoreContext | null, request: ProductIdQuery): Promise<string[]> {
    const within = [...new Set(request.within.filter(isId))];
    if (within.length === 0) return [];
    const query = products(executor, await defaultChannel(executor)).whereIn('products.id', within);
    if (ctx) {
      query.where('products.active', 1);
      await visibleTo(ctx, query, executor);
    }
    applyCriteriaFilters(
      query,
      { filter: await filtersOf(executor, ctx, request.filter), term: request.term },
      PRODUCT_CRITERIA,
    );
    for (const entry of request.sort ?? [])
      query.orderBy(
        sortColumnOf(PRODUCT_CRITERIA, entry.field),
        (entry.order ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc',
      );
    if (request.sort?.length) query.orderBy('products.id');
    return (await selectRows<IdRow>(query.select('products.id'))).map((row) => row.id);
  }

  /**
   * A Vendure Product is a variant family: its variants are the plugin's products. The main product
   * is the family's first variant (lowest id) the context may see; a Product with one variant and no
   * option groups has no variants (as a product without variants on the reference host).
   */
  async function variants(
    ctx: StoreContext,
    productId: string,
    visibleOf: (records: ProductRecord[]) => Promise<ProductRecord[]>,
    executor: Executor = state.db,
  ): Promise<VariantFamily | null> {
    const vendureId = ids.toVendure(productId);
    if (!vendureId) return null;
    const variant = columns(ProductVariant);
    const named = await selectRow<{ productId: string | number }>(
      executor(table(ProductVariant))
        .where(variant('id'), vendureId)
        .whereNull(variant('deletedAt'))
        .first(selectAs(ProductVariant, undefined, 'productId')),
    );
    if (!named) return null;
    const channel = await defaultChannel(executor);
    const family = await selectRows<{ id: string | number }>(
      executor(table(ProductVariant))
        .where(variant('productId'), named.productId)
        .whereNull(variant('deletedAt'))
        .orderBy(variant('id'))
        .select(selectAs(ProductVariant, undefined, 'id')),
    );
    const visible = await visibleOf(
      await variantsByIds(
        ids,
        executor,
        family.map((row) => ids.toPlugin(row.id)),
        channel,
      ),
    );
    if (!visible.some((record) => record.id === productId)) return null;
    const main = visible[0]!;
    // Option groups and products are many-to-many in Vendure 3.7 (a join table).
    const g = columns(ProductOptionGroup, 'g');
    const pg = junction(Product, 'optionGroups', 'pg');
    const groups = await selectRow<{ n: unknown }>(
      executor(pg.table)
        .join(table(ProductOptionGroup, 'g'), g('id'), pg.inverse)
        .where(pg.owner, named.productId)
        .whereNull(g('deletedAt'))
        .count({ n: '*' })
        .first(),
    );
    if (family.length === 1 && Number(groups?.n ?? 0) === 0) return { main, variants: [] };
    const vo = junction(ProductVariant, 'options', 'vo');
    const o = columns(ProductOption, 'o');
    const ot = columns(ProductOptionTranslation, 'ot');
    const gt = columns(ProductOptionGroupTranslation, 'gt');
    const options = await selectRows<OptionRow>(
      executor(vo.table)
        .join(table(ProductOption, 'o'), o('id'), vo.inverse)
        .leftJoin(table(ProductOptionTranslation, 'ot'), function () {
          this.on(ot('base'), o('id')).andOnVal(ot('languageCode'), channel.defaultLanguageCode);
        })
        .join(table(ProductOptionGroup, 'g'), g('id'), o('groupId'))
        .leftJoin(table(ProductOptionGroupTranslation, 'gt'), function () {
          this.on(gt('base'), g('id')).andOnVal(gt('languageCode'), channel.defaultLanguageCode);
        })
        .whereIn(
          vo.owner,
          family.map((row) => row.id),
        )
        .orderBy(g('id'))
        .orderBy(o('id'))
        .select({
          productVariantId: vo.owner,
          optionId: o('id'),
          groupId: g('id'),
          optionName: ot('name'),
          optionCode: o('code'),
          groupName: gt('name'),
          groupCode: g('code'),
        }),
    );
    const byVariant = new Map<string, PropertyValue[]>();
    for (const row of options) {
      const key = ids.toPlugin(row.productVariantId);
      const list = byVariant.get(key) ?? [];
      list.push({
        groupId: ids.toPlugin(row.groupId),
        groupName: row.groupName ?? row.groupCode,
        optionId: ids.toPlugin(row.optionId),
        optionName: row.optionName ?? row.optionCode,
      });
      byVariant.set(key, list);
    }
    const records: VariantRecord[] = visible.map((record) => ({ ...record, options: byVariant.get(record.id) ?? [] }));
    records.sort((a, b) => (a.productNumber < b.productNumber ? -1 : a.productNumber > b.productNumber ? 1 : 0));
    return { main, variants: records };
  }

  return { searchProducts, productIds, variants };
}
