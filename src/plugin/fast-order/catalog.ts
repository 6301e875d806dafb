import type { HostRuntime, ProductRecord, ProductSearchOptions, StoreContext } from '../../contract/index.js';
import { applyCriteriaFilters, resolveFiltersToIds, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import { fromMinor } from '../../lib/money.js';
import { productViewFields } from '../../lib/product-view.js';
import { nowDb } from '../../lib/time.js';
import { priceBreakpoints } from '../customer-price/index.js';
import {
  customerNumberCache,
  numberedProductIds,
  numberKey,
  numbersInNumberOrder,
  productIdsByNumberPrefix,
} from '../customer-product-number/index.js';

/**
 * At most this many of the customer's own numbers match a term's prefix (in number order): the
 * host receives them as a list of ids.
 */
export const OWN_NUMBER_MATCHES_MAX = 1000;
const OWN_NUMBER_FIELD = 'customerProductNumber';

/** The customer's own numbers as a criteria spec over the plugin's table, for filters on customerProductNumber. */
const ownNumberSpec: CriteriaSpec = {
  fields: { [OWN_NUMBER_FIELD]: { column: 'product_number', type: 'string' } },
  defaultSort: [],
  idColumn: 'product_id',
};

export interface SearchOptions extends Pick<ProductSearchOptions, 'within' | 'orderings' | 'defaultSort'> {
  withTiers?: boolean;
}

/** Sort keys of the customer's products by their own number (equal numbers share a key). */
async function ownNumberOrder(host: HostRuntime, customerId: string): Promise<Map<string, number>> {
  const rows = await numbersInNumberOrder(host.db, customerId);
  const keys = new Map<string, number>();
  let rank = -1;
  let previous: string | null = null;
  for (const row of rows) {
    if (row.product_number !== previous) rank++;
    previous = row.product_number;
    keys.set(row.product_id, rank);
  }
  return keys;
}

/**
 * The fast-order search: the host searches the catalog (visibility, active, filters, sort, page,
 * total; the term matches a number prefix or part of the name); the plugin adds what only it knows,
 * the customer's own numbers: products whose own number the term starts with, filters and sorts on
 * customerProductNumber.
 */
export async function searchProducts(
  host: HostRuntime,
  ctx: StoreContext,
  criteria: Criteria,
  options: SearchOptions = {},
) {
  const customerId = ctx.customer?.id ?? '';
  const term = criteria.term?.trim();
  const alsoMatch = term
    ? await productIdsByNumberPrefix(host.db, customerId, numberKey(term), OWN_NUMBER_MATCHES_MAX)
    : undefined;
  const filter = await resolveFiltersToIds(criteria.filter, new Set([OWN_NUMBER_FIELD]), 'id', async (leaf) => {
    if (leaf.type === 'equals' && leaf.value === null) return { notIn: await numberedProductIds(host.db, customerId) };
    return {
      in: await numberedProductIds(host.db, customerId, (numbered) =>
        applyCriteriaFilters(numbered, { filter: [leaf] }, ownNumberSpec),
      ),
    };
  });
  const orderings = { ...options.orderings };
  if (criteria.sort?.some((s) => s.field === OWN_NUMBER_FIELD))
    orderings[OWN_NUMBER_FIELD] = await ownNumberOrder(host, customerId);
  return host.catalog.searchProducts(
    host.db,
    ctx,
    { ...criteria, filter },
    {
      within: options.within,
      alsoMatch: alsoMatch ?? { exact: [], prefix: [] },
      orderings,
      defaultSort: options.defaultSort,
    },
  );
}

/** Tier breakpoints the caller's price changes at: 1, the host's tier quantities and the customer's (and group's) price quantities. */
async function breakpointsOf(
  host: HostRuntime,
  ctx: StoreContext,
  productIds: string[],
): Promise<Map<string, number[]>> {
  const result = new Map<string, Set<number>>(productIds.map((id) => [id, new Set([1])]));
  for (const [productId, quantities] of await host.catalog.tierQuantities(host.db, productIds))
    for (const quantity of quantities) result.get(productId)?.add(quantity);
  if (ctx.customer) {
    for (const [productId, quantities] of await priceBreakpoints(
      host.db,
      ctx.customer.id,
      ctx.customer.groupId,
      productIds,
      { at: nowDb(), currencyIso: ctx.salesChannel.currencyIso },
    ))
      for (const quantity of quantities) result.get(productId)?.add(quantity);
  }
  return new Map([...result].map(([id, set]) => [id, [...set].sort((a, b) => a - b)]));
}

async function tierTable(host: HostRuntime, ctx: StoreContext, product: ProductRecord, breakpoints: number[]) {
  const precision = ctx.salesChannel.currencyPrecision;
  const tiers: Array<{
    minQuantity: number;
    maxQuantity: number | null;
    unitPrice: number;
    source: string;
    unitNet: number;
  }> = [];
  const prices = await host.prices.calculateMany(
    host.db,
    ctx,
    breakpoints.map((quantity) => ({ product, quantity })),
  );
  for (const [index, quantity] of breakpoints.entries()) {
    const price = prices[index]!;
    const last = tiers[tiers.length - 1];
    if (last && last.unitNet === price.unitNet && last.source === price.source) continue;
    if (last) last.maxQuantity = quantity - 1;
    tiers.push({
      minQuantity: quantity,
      maxQuantity: null,
      unitPrice: fromMinor(price.unitNet, precision),
      source: price.source,
      unitNet: price.unitNet,
    });
  }
  return tiers.map(({ unitNet: _unitNet, ...tier }) => tier);
}

/** Products → product views priced for the context (quantity 1), with the customer's own numbers, in the given order. */
export async function productViews(
  host: HostRuntime,
  ctx: StoreContext,
  products: ProductRecord[],
  options: { withTiers?: boolean } = {},
) {
  const ids = products.map((product) => product.id);
  const ownNumbers = ctx.customer
    ? await customerNumberCache(host).numbersOf(ctx, host.db, ctx.customer.id, ids)
    : new Map<string, string>();
  const breakpoints = options.withTiers ? await breakpointsOf(host, ctx, ids) : null;
  const precision = ctx.salesChannel.currencyPrecision;
  const prices = await host.prices.calculateMany(
    host.db,
    ctx,
    products.map((product) => ({ product, quantity: 1 })),
  );
  const views = [];
  for (const [index, product] of products.entries()) {
    views.push({
      ...productViewFields(product, prices[index]!, precision),
      customerProductNumber: ownNumbers.get(product.id) ?? null,
      ...(breakpoints ? { tierPrices: await tierTable(host, ctx, product, breakpoints.get(product.id) ?? [1]) } : {}),
    });
  }
  return views;
}
