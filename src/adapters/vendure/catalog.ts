import { VISIBILITY_ID_MARKER, type CalculatedPrice, type HostRuntime, type ProductRecord, type StoreContext, type VisibilityConstraint } from '../../host/contract.js';
import type { Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { toVendureIds, versionId } from './ids.js';
import type { AdapterState } from './state.js';
import { notSupported, unsupported } from './unsupported.js';
import { defaultChannel, variantsByIds, variantsBySkus } from './vendure-tables.js';

/** What the plugin's visibility filters leave a context of Vendure's catalog (Vendure ids). */
export interface CatalogVisibility {
  hiddenVariantIds: Set<string>;
  /** Products all of whose variants are hidden. */
  hiddenProductIds: Set<string>;
}

/**
 * The plugin's "product" is Vendure's ProductVariant (see vendure-tables.ts). The filters answer
 * for variants; a Vendure Product is hidden when every one of its variants is. All constraint forms
 * become one CASE over `product_variant` (plugin `sql` predicates with the variant id column in the
 * plugin's id form), evaluated per request on the given executor: a cost linear in the number of
 * variants (docs/vendure.md, limits). null: nothing is hidden.
 */
export async function catalogVisibility(state: AdapterState, ctx: StoreContext, executor: Executor = state.db, onlyVariantIds?: string[]): Promise<CatalogVisibility | null> {
  const constraints: VisibilityConstraint[] = [];
  for (const filter of state.registries.visibilityFilters) {
    const constraint = await filter(ctx, 'product', executor);
    if (constraint.kind !== 'all') constraints.push(constraint);
  }
  if (constraints.length === 0) return null;
  const column = state.ids.columnAsPluginId('v.id', state.dialect);
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
  const query = executor('product_variant as v')
    .whereNull('v.deletedAt')
    .select('v.id', 'v.productId', executor.raw(`case when ${parts.join(' and ')} then 1 else 0 end as visible`, bindings as never[]));
  if (onlyVariantIds) query.whereIn('v.id', toVendureIds(state.ids, onlyVariantIds));
  const rows: Array<{ id: unknown; productId: unknown; visible: unknown }> = await query;
  const hiddenVariantIds = new Set<string>();
  const productHasVisible = new Map<string, boolean>();
  for (const row of rows) {
    const visible = Number(row.visible) === 1;
    if (!visible) hiddenVariantIds.add(String(row.id));
    const productId = String(row.productId);
    productHasVisible.set(productId, (productHasVisible.get(productId) ?? false) || visible);
  }
  const hiddenProductIds = new Set(onlyVariantIds ? [] : [...productHasVisible].filter(([, visible]) => !visible).map(([id]) => id));
  return { hiddenVariantIds, hiddenProductIds };
}

function priceOf(unitNet: number, quantity: number, taxRateBp: number, source: string): CalculatedPrice {
  const totalNet = unitNet * quantity;
  const totalTax = Math.round((totalNet * taxRateBp) / 10000);
  return { unitNet, quantity, totalNet, taxRateBp, totalTax, totalGross: totalNet + totalTax, source };
}

export function catalogContract(state: AdapterState): Pick<HostRuntime, 'catalog' | 'prices'> {
  const { ids } = state;
  const channel = (executor: Executor) => defaultChannel(executor);

  async function visibleOf(ctx: StoreContext, records: ProductRecord[], executor: Executor): Promise<ProductRecord[]> {
    const active = records.filter((r) => r.active);
    if (active.length === 0) return [];
    const visibility = await catalogVisibility(state, ctx, executor, active.map((r) => r.id));
    if (!visibility) return active;
    return active.filter((r) => !visibility.hiddenVariantIds.has(ids.toVendure(r.id) ?? ''));
  }

  async function calculate(ctx: StoreContext, product: ProductRecord, quantity: number, executor: Executor): Promise<CalculatedPrice> {
    if (!Number.isSafeInteger(quantity) || quantity < 1)
      throw Errors.badRequest('SUITE__INVALID_QUANTITY', 'The quantity must be a positive whole number.', { pointer: '/quantity' });
    for (const provider of state.registries.priceProviders) {
      const provided = await provider(ctx, product, quantity, executor);
      if (provided) return priceOf(provided.unitNet, quantity, product.taxRateBp, provided.source);
    }
    // Vendure has no tier prices: the variant's price is the list price.
    return priceOf(product.priceNet, quantity, product.taxRateBp, 'list');
  }

  return {
    catalog: {
      addVisibilityFilter: (filter) => void state.registries.visibilityFilters.push(filter),
      async visibleProducts(ctx, wanted, executor = state.db) {
        return visibleOf(ctx, await variantsByIds(ids, executor, wanted, await channel(executor)), executor);
      },
      async visibleProductsByNumber(ctx, numbers, executor = state.db) {
        return visibleOf(ctx, await variantsBySkus(ids, executor, numbers, await channel(executor)), executor);
      },
      productCriteriaFields: ['id', 'productNumber', 'name', 'priceNet', 'stock'],
      searchProducts: unsupported('catalog.searchProducts'),
      productIds: unsupported('catalog.productIds'),
      // (2.2) Vendure's products with their variants and options: to do (docs/vendure.md).
      variants: () => Promise.reject(notSupported('catalog.variants')),
      propertySimilarProducts: () => Promise.reject(notSupported('catalog.propertySimilarProducts')),
      // Vendure has no tier prices.
      tierQuantities: async () => new Map(),
      async products(executor, wanted) {
        return variantsByIds(ids, executor, wanted, await channel(executor));
      },
      async entityVersionId(executor, entity, id) {
        if (entity === 'landing_page') return null; // Vendure has no landing pages.
        const vendureId = ids.toVendure(id);
        if (!vendureId) return null;
        // category = Vendure Collection, product = ProductVariant.
        const query = executor(entity === 'category' ? 'collection' : 'product_variant').where({ id: vendureId });
        if (entity === 'product') query.whereNull('deletedAt');
        const row = await query.first('updatedAt');
        return row ? versionId(row.updatedAt) : null;
      },
      async visibleEntityIds(ctx, entity, wanted, executor = state.db) {
        if (entity === 'landing_page') return [];
        if (entity === 'category') throw notSupported('catalog.visibleEntityIds(category)');
        return (await this.visibleProducts(ctx, wanted, executor)).map((p) => p.id);
      },
      async productIdsByNumbers(executor, numbers) {
        return (await variantsBySkus(ids, executor, numbers, await channel(executor))).map((p) => ({ id: p.id, productNumber: p.productNumber }));
      },
      async visibilityChanged(executor) {
        const updated = await executor('suite_host_visibility_version').where({ name: 'catalog' }).increment('version', 1);
        if (updated === 0) await executor('suite_host_visibility_version').insert({ name: 'catalog', version: 1 }).onConflict('name').merge({ version: executor.raw('version + 1') });
      },
      async visibilityVersion(executor) {
        const row = await executor('suite_host_visibility_version').where({ name: 'catalog' }).first('version');
        return Number(row?.version ?? 0);
      },
    },
    prices: {
      addPriceProvider: (provider) => void state.registries.priceProviders.push(provider),
      calculate: (ctx, product, quantity, executor = state.db) => calculate(ctx, product, quantity, executor),
      async calculateMany(ctx, items, executor = state.db) {
        const out: CalculatedPrice[] = [];
        for (const item of items) out.push(await calculate(ctx, item.product, item.quantity, executor));
        return out;
      },
    },
  };
}
