import type { Knex } from 'knex';
import type { HostRuntime, ProductRecord, StoreContext } from '../../host/contract.js';
import { escapeLike } from '../../lib/criteria.js';
import { readInt } from '../../lib/db.js';
import { fromMinor } from '../../lib/money.js';
import { priceView } from '../../lib/price-view.js';
import { priceBreakpoints } from '../customer-price/repository.js';
import { CUSTOMER_PRODUCT_NUMBERS } from '../customer-product-number/index.js';

export const PRODUCT_SELECT = [
  'products.id',
  'products.product_number',
  'products.name',
  'products.description',
  'products.manufacturer',
  'products.ean',
  'products.stock',
  'cpn.product_number as customer_product_number',
];

/**
 * Active products the context may see, with the customer's own number joined (cpn). Wrapped in an
 * object: a query builder is thenable, so returning it from an async function would run it.
 */
export async function visibleProducts(host: HostRuntime, ctx: StoreContext, from: Knex.QueryBuilder = host.db('products')): Promise<{ query: Knex.QueryBuilder }> {
  const customerId = ctx.customer?.id ?? '';
  const query = from
    .leftJoin(`${CUSTOMER_PRODUCT_NUMBERS} as cpn`, (join) => join.on('cpn.product_id', '=', 'products.id').andOnVal('cpn.customer_id', '=', customerId))
    .where('products.active', true);
  await host.catalog.applyVisibility(ctx, 'product', query, 'products.id');
  return { query };
}

/** The exclusive upper bound of a prefix range: the prefix with its last character incremented. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/**
 * `column` starts with one of `prefixes`, written so the column's index serves it: LIKE 'x%' on
 * MySQL/MariaDB (case-insensitive collation), a range per prefix on SQLite (whose LIKE cannot use
 * a BINARY index), which therefore matches the term as typed, upper- and lower-cased.
 */
function wherePrefix(qb: Knex.QueryBuilder, dialect: HostRuntime['dialect'], column: string, prefixes: string[]): void {
  qb.where((q) => {
    if (dialect === 'mysql') q.whereRaw(`?? LIKE ? ESCAPE '!'`, [column, `${escapeLike(prefixes[0]!)}%`]);
    else for (const prefix of new Set(prefixes)) q.orWhere((r) => r.where(column, '>=', prefix).andWhere(column, '<', prefixEnd(prefix)));
  });
}

export interface TermMatch {
  /** Narrows the query to products matching the term. */
  where(qb: Knex.QueryBuilder): void;
  /** Orders exact and prefix number matches first (unless the criteria sort). */
  rank(qb: Knex.QueryBuilder): void;
}

/**
 * The fast-order match of a term: product number prefix, customer product number prefix, or name
 * contains. The number matches are index look-ups; only the name needs a scan, and a term without
 * LIKE wildcards is matched without an ESCAPE clause, which SQLite evaluates twice as fast.
 */
export function termMatch(host: HostRuntime, ctx: StoreContext, term: string | undefined): TermMatch | null {
  const text = term?.trim();
  if (!text) return null;
  const lower = text.toLowerCase();
  const customerId = ctx.customer?.id ?? '';
  return {
    where(qb) {
      qb.where((match) => {
        match.orWhere((q) => wherePrefix(q, host.dialect, 'products.product_number', [text, text.toUpperCase(), lower]));
        match.orWhereIn('products.id', (sub) => {
          sub.select('own.product_id').from(`${CUSTOMER_PRODUCT_NUMBERS} as own`).where('own.customer_id', customerId);
          wherePrefix(sub, host.dialect, 'own.number_key', [lower]);
        });
        if (/[!%_]/.test(text)) match.orWhereRaw(`products.name LIKE ? ESCAPE '!'`, [`%${escapeLike(text)}%`]);
        else match.orWhere('products.name', 'like', `%${text}%`);
      });
    },
    rank(qb) {
      qb.orderByRaw(
        'CASE WHEN LOWER(products.product_number) = ? THEN 0 WHEN LOWER(cpn.product_number) = ? THEN 1 WHEN LOWER(SUBSTR(products.product_number, 1, ?)) = ? THEN 2 WHEN LOWER(SUBSTR(cpn.product_number, 1, ?)) = ? THEN 3 ELSE 4 END',
        [lower, lower, text.length, lower, text.length, lower],
      );
    },
  };
}

export interface ViewOptions {
  withTiers?: boolean;
  quantity?: number;
}

/** Tier breakpoints the caller's price changes at: 1, the host's tier quantities and the customer's (and group's) price quantities. */
async function breakpointsOf(host: HostRuntime, ctx: StoreContext, productIds: string[]): Promise<Map<string, number[]>> {
  const result = new Map<string, Set<number>>(productIds.map((id) => [id, new Set([1])]));
  const tiers = await host.db('product_tier_prices').whereIn('product_id', productIds).select('product_id', 'min_quantity');
  for (const row of tiers) result.get(row.product_id)?.add(readInt(row.min_quantity));
  if (ctx.customer) {
    for (const [productId, quantities] of await priceBreakpoints(host.db, ctx.customer.id, ctx.customer.groupId, productIds))
      for (const quantity of quantities) result.get(productId)?.add(quantity);
  }
  return new Map([...result].map(([id, set]) => [id, [...set].sort((a, b) => a - b)]));
}

async function tierTable(host: HostRuntime, ctx: StoreContext, product: ProductRecord, breakpoints: number[]) {
  const precision = ctx.salesChannel.currencyPrecision;
  const tiers: Array<{ minQuantity: number; maxQuantity: number | null; unitPrice: number; source: string; unitNet: number }> = [];
  const prices = await host.prices.calculateMany(ctx, breakpoints.map((quantity) => ({ product, quantity })));
  for (const [index, quantity] of breakpoints.entries()) {
    const price = prices[index]!;
    const last = tiers[tiers.length - 1];
    if (last && last.unitNet === price.unitNet && last.source === price.source) continue;
    if (last) last.maxQuantity = quantity - 1;
    tiers.push({ minQuantity: quantity, maxQuantity: null, unitPrice: fromMinor(price.unitNet, precision), source: price.source, unitNet: price.unitNet });
  }
  return tiers.map(({ unitNet: _unitNet, ...tier }) => tier);
}

/** Rows of a visibleProducts query → product views priced for the context, in the rows' order. */
export async function productViews(host: HostRuntime, ctx: StoreContext, rows: Array<Record<string, any>>, options: ViewOptions = {}) {
  const ids = rows.map((row) => String(row.id));
  const records = new Map((await host.catalog.products(host.db, ids)).map((p) => [p.id, p]));
  const breakpoints = options.withTiers ? await breakpointsOf(host, ctx, ids) : null;
  const precision = ctx.salesChannel.currencyPrecision;
  const found = rows.filter((row) => records.has(String(row.id)));
  const prices = await host.prices.calculateMany(ctx, found.map((row) => ({ product: records.get(String(row.id))!, quantity: options.quantity ?? 1 })));
  const views = [];
  for (const [index, row] of found.entries()) {
    const product = records.get(String(row.id))!;
    const price = prices[index]!;
    views.push({
      id: product.id,
      productNumber: product.productNumber,
      name: product.name,
      description: product.description,
      manufacturer: (row.manufacturer as string | null) ?? null,
      ean: (row.ean as string | null) ?? null,
      stock: product.stock,
      available: product.stock > 0,
      customerProductNumber: (row.customer_product_number as string | null) ?? null,
      calculatedPrice: priceView(price, precision),
      ...(breakpoints ? { tierPrices: await tierTable(host, ctx, product, breakpoints.get(product.id) ?? [1]) } : {}),
    });
  }
  return views;
}
