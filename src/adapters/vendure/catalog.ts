import { Collection, ProductVariant } from '@vendure/core';
import {
  VISIBILITY_ID_MARKER,
  type CalculatedPrice,
  type CatalogEntity,
  type HostRuntime,
  type ProductRecord,
  type StoreContext,
  type VisibilityConstraint,
} from '../../contract/index.js';
import type { Knex } from 'knex';
import { selectRow, selectRows, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { firstProvidedPrices } from '../../lib/price-providers.js';
import { toVendureIds, versionId } from './ids.js';
import type { AdapterState } from './state.js';
import { notSupported } from './unsupported.js';
import { productSearch, VENDURE_PRODUCT_CRITERIA_FIELDS } from './product-search.js';
import { defaultChannel, netOfChannelPrice, variantsByIds, variantsBySkus } from './vendure-tables.js';
import { column, columns, selectAs, table } from './vendure-schema.js';

/** What the plugin's visibility filters leave a context of Vendure's catalog (Vendure ids). */
export interface CatalogVisibility {
  hiddenVariantIds: Set<string>;
  /** Products all of whose variants are hidden. */
  hiddenProductIds: Set<string>;
}

/**
 * The plugin's visibility filters for one entity as one SQL predicate on `column` (an SQL
 * expression of the entity's id in the plugin's form): the `sql` constraints with their marker
 * replaced, `exclude` / `only` id lists. null: nothing is hidden.
 */
export async function visibilityPredicate(
  state: AdapterState,
  ctx: StoreContext,
  entity: CatalogEntity,
  column: string,
  executor: Executor = state.db,
): Promise<{ sql: string; bindings: unknown[] } | null> {
  const constraints: VisibilityConstraint[] = [];
  for (const filter of state.registries.visibilityFilters) {
    const constraint = await filter(executor, ctx, entity);
    if (constraint.kind !== 'all') constraints.push(constraint);
  }
  if (constraints.length === 0) return null;
  const parts: string[] = [];
  const bindings: unknown[] = [];
  for (const c of constraints) {
    if (c.kind === 'sql') {
      parts.push(`(${c.sql.split(VISIBILITY_ID_MARKER).join(column)})`);
      bindings.push(...c.bindings);
    } else if (c.kind === 'exclude' || c.kind === 'only') {
      if (c.ids.length === 0) {
        parts.push(c.kind === 'exclude' ? '(1 = 1)' : '(1 = 0)');
        continue;
      }
      parts.push(`(${column} ${c.kind === 'exclude' ? 'not in' : 'in'} (${c.ids.map(() => '?').join(', ')}))`);
      bindings.push(...c.ids);
    }
  }
  return { sql: parts.join(' and '), bindings };
}

/**
 * The plugin's "product" is Vendure's ProductVariant (see vendure-tables.ts). The filters answer
 * for variants; a Vendure Product is hidden when every one of its variants is. All constraint forms
 * become one CASE over Vendure's variants (plugin `sql` predicates with the variant id column in the
 * plugin's id form), evaluated per request on the given executor: a cost linear in the number of
 * variants (docs/vendure.md, limits). null: nothing is hidden.
 */
export async function catalogVisibility(
  state: AdapterState,
  ctx: StoreContext,
  executor: Executor = state.db,
  onlyVariantIds?: string[],
): Promise<CatalogVisibility | null> {
  const predicate = await visibilityPredicate(
    state,
    ctx,
    'product',
    state.ids.columnAsPluginId(column(ProductVariant, 'id', 'v'), state.dialect),
    executor,
  );
  if (!predicate) return null;
  const v = columns(ProductVariant, 'v');
  const query = executor(table(ProductVariant, 'v'))
    .whereNull(v('deletedAt'))
    .select(
      ...selectAs(ProductVariant, 'v', 'id', 'productId'),
      executor.raw(`case when ${predicate.sql} then 1 else 0 end as visible`, predicate.bindings as never[]),
    );
  if (onlyVariantIds) query.whereIn(v('id'), toVendureIds(state.ids, onlyVariantIds));
  const rows = await selectRows<{ id: unknown; productId: unknown; visible: unknown }>(query);
  const hiddenVariantIds = new Set<string>();
  const productHasVisible = new Map<string, boolean>();
  for (const row of rows) {
    const visible = Number(row.visible) === 1;
    if (!visible) hiddenVariantIds.add(String(row.id));
    const productId = String(row.productId);
    productHasVisible.set(productId, (productHasVisible.get(productId) ?? false) || visible);
  }
  const hiddenProductIds = new Set(
    onlyVariantIds ? [] : [...productHasVisible].filter(([, visible]) => !visible).map(([id]) => id),
  );
  return { hiddenVariantIds, hiddenProductIds };
}

function checkQuantity(quantity: number): void {
  if (!Number.isSafeInteger(quantity) || quantity < 1)
    throw Errors.badRequest('SUITE__INVALID_QUANTITY', 'The quantity must be a positive whole number.', {
      pointer: '/quantity',
    });
}

function priceOf(unitNet: number, quantity: number, taxRateBp: number, source: string): CalculatedPrice {
  const totalNet = unitNet * quantity;
  const totalTax = Math.round((totalNet * taxRateBp) / 10000);
  return { unitNet, quantity, totalNet, taxRateBp, totalTax, totalGross: totalNet + totalTax, source };
}

/**
 * A price provider's answer in the channel's terms (decision 0032): on a channel whose prices include
 * tax a customer price is entered gross, as Vendure's variant prices are; the contract's answer is
 * net, the gross total the entered price times the quantity.
 */
function providedPriceOf(
  unit: number,
  quantity: number,
  taxRateBp: number,
  source: string,
  pricesIncludeTax: boolean,
): CalculatedPrice {
  if (!pricesIncludeTax) return priceOf(unit, quantity, taxRateBp, source);
  const totalGross = unit * quantity;
  const totalNet = netOfChannelPrice(totalGross, true, taxRateBp);
  return {
    unitNet: netOfChannelPrice(unit, true, taxRateBp),
    quantity,
    totalNet,
    taxRateBp,
    totalTax: totalGross - totalNet,
    totalGross,
    source,
  };
}

export function catalogContract(state: AdapterState): Pick<HostRuntime, 'catalog' | 'prices'> {
  const { ids } = state;
  const channel = (executor: Executor) => defaultChannel(executor);
  const search = productSearch(state);

  /**
   * Categories are Vendure collections: active = not private and not the root collection; the
   * plugin's category filters (partial assortments of categories) decide the rest.
   */
  async function visibleCollections(ctx: StoreContext, wanted: string[], executor: Executor): Promise<string[]> {
    const vendureIds = toVendureIds(ids, wanted);
    if (vendureIds.length === 0) return [];
    const c = columns(Collection, 'c');
    const query = executor(table(Collection, 'c'))
      .whereIn(c('id'), vendureIds)
      .where(c('isPrivate'), false)
      .where(c('isRoot'), false);
    const predicate = await visibilityPredicate(
      state,
      ctx,
      'category',
      ids.columnAsPluginId(c('id'), state.dialect),
      executor,
    );
    if (predicate) query.whereRaw(predicate.sql, predicate.bindings as Knex.Value[]);
    const found = new Set(
      (await selectRows<{ id: string | number }>(query.select(selectAs(Collection, 'c', 'id')))).map((row) =>
        ids.toPlugin(row.id),
      ),
    );
    return wanted.filter((id, index) => found.has(id) && wanted.indexOf(id) === index);
  }

  async function visibleOf(ctx: StoreContext, records: ProductRecord[], executor: Executor): Promise<ProductRecord[]> {
    const active = records.filter((r) => r.active);
    if (active.length === 0) return [];
    const visibility = await catalogVisibility(
      state,
      ctx,
      executor,
      active.map((r) => r.id),
    );
    if (!visibility) return active;
    return active.filter((r) => !visibility.hiddenVariantIds.has(ids.toVendure(r.id) ?? ''));
  }

  async function calculate(
    ctx: StoreContext,
    product: ProductRecord,
    quantity: number,
    executor: Executor,
  ): Promise<CalculatedPrice> {
    checkQuantity(quantity);
    for (const provider of state.registries.priceProviders) {
      const provided = await provider(executor, ctx, product, quantity);
      if (provided)
        return providedPriceOf(
          provided.unitNet,
          quantity,
          product.taxRateBp,
          provided.source,
          (await channel(executor)).pricesIncludeTax,
        );
    }
    // Vendure has no tier prices: the variant's price is the list price.
    return priceOf(product.priceNet, quantity, product.taxRateBp, 'list');
  }

  return {
    catalog: {
      addVisibilityFilter: (filter) => void state.registries.visibilityFilters.push(filter),
      addProductExtension: (extension) => void state.registries.productExtensions.push(extension),
      async visibleProducts(executor, ctx, wanted) {
        return visibleOf(ctx, await variantsByIds(ids, executor, wanted, await channel(executor)), executor);
      },
      async visibleProductsByNumber(executor, ctx, numbers) {
        return visibleOf(ctx, await variantsBySkus(ids, executor, numbers, await channel(executor)), executor);
      },
      productCriteriaFields: VENDURE_PRODUCT_CRITERIA_FIELDS,
      searchProducts: search.searchProducts,
      productIds: search.productIds,
      // (2.2) A Vendure Product is the variant family of its variants (product-search.ts).
      variants: (executor, ctx, productId) =>
        search.variants(ctx, productId, (records) => visibleOf(ctx, records, executor), executor),
      propertySimilarProducts: () => Promise.reject(notSupported('catalog.propertySimilarProducts')),
      // Vendure has no tier prices.
      tierQuantities: () => Promise.resolve(new Map<string, number[]>()),
      async products(executor, wanted) {
        return variantsByIds(ids, executor, wanted, await channel(executor));
      },
      async entityVersionId(executor, entity, id) {
        if (entity === 'landing_page') return null; // Vendure has no landing pages.
        const vendureId = ids.toVendure(id);
        if (!vendureId) return null;
        // category = Vendure Collection, product = ProductVariant.
        const target = entity === 'category' ? Collection : ProductVariant;
        const query = executor(table(target)).where(column(target, 'id'), vendureId);
        if (entity === 'product') query.whereNull(column(ProductVariant, 'deletedAt'));
        const row = await selectRow<{ updatedAt: unknown }>(query.first(selectAs(target, undefined, 'updatedAt')));
        return row ? versionId(row.updatedAt) : null;
      },
      async visibleEntityIds(executor, ctx, entity, wanted) {
        if (entity === 'landing_page') return [];
        if (entity === 'category') return visibleCollections(ctx, wanted, executor);
        return (await this.visibleProducts(executor, ctx, wanted)).map((p) => p.id);
      },
      async productIdsByNumbers(executor, numbers) {
        return (await variantsBySkus(ids, executor, numbers, await channel(executor))).map((p) => ({
          id: p.id,
          productNumber: p.productNumber,
        }));
      },
      async visibilityChanged(executor) {
        const updated = await executor('suite_host_visibility_version')
          .where({ name: 'catalog' })
          .increment('version', 1);
        if (updated === 0)
          await executor('suite_host_visibility_version')
            .insert({ name: 'catalog', version: 1 })
            .onConflict('name')
            .merge({ version: executor.raw('?? + 1', ['suite_host_visibility_version.version']) });
      },
      async visibilityVersion(executor) {
        const row = await selectRow<{ version: unknown }>(
          executor('suite_host_visibility_version').where({ name: 'catalog' }).first('version'),
        );
        return Number(row?.version ?? 0);
      },
    },
    prices: {
      addPriceProvider: (provider) => void state.registries.priceProviders.push(provider),
      addPriceGate: (gate) => void state.registries.priceGates.push(gate),
      calculate: (executor, ctx, product, quantity) => calculate(ctx, product, quantity, executor),
      async calculateMany(executor, ctx, items) {
        for (const item of items) checkQuantity(item.quantity);
        // Each provider once for all lines (its `many`, contract 3.1); the rest at their list price.
        const provided = await firstProvidedPrices(state.registries.priceProviders, executor, ctx, items);
        const includesTax = provided.some(Boolean) && (await channel(executor)).pricesIncludeTax;
        return items.map(({ product, quantity }, index) => {
          const answer = provided[index];
          return answer
            ? providedPriceOf(answer.unitNet, quantity, product.taxRateBp, answer.source, includesTax)
            : priceOf(product.priceNet, quantity, product.taxRateBp, 'list');
        });
      },
    },
  };
}
