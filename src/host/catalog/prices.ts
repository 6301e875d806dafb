import { Errors } from '../../lib/errors.js';
import type { Executor } from '../../lib/db.js';
import type { CalculatedPrice, PriceProvider, ProductRecord, ProvidedPrice, StoreContext } from '../contract.js';
import { tierPricesOf } from './product-repository.js';

export type TierPrices = Map<string, Array<{ minQuantity: number; priceNet: number }>>;

export function priceOf(unitNet: number, quantity: number, taxRateBp: number, source: string, listPriceNet?: number | null): CalculatedPrice {
  const totalNet = unitNet * quantity;
  const totalTax = Math.round((totalNet * taxRateBp) / 10000);
  const price: CalculatedPrice = { unitNet, quantity, totalNet, taxRateBp, totalTax, totalGross: totalNet + totalTax, source };
  if (listPriceNet !== undefined && listPriceNet !== null) price.listPriceNet = listPriceNet;
  return price;
}

function checkQuantity(quantity: number): void {
  if (!Number.isSafeInteger(quantity) || quantity < 1)
    throw Errors.badRequest('SUITE__INVALID_QUANTITY', 'The quantity must be a positive whole number.', { pointer: '/quantity' });
}

function tierOrList(product: ProductRecord, quantity: number, productTiers: Array<{ minQuantity: number; priceNet: number }>): CalculatedPrice {
  let tier: { minQuantity: number; priceNet: number } | null = null;
  for (const candidate of productTiers) if (candidate.minQuantity <= quantity && (!tier || candidate.minQuantity > tier.minQuantity)) tier = candidate;
  if (tier) return priceOf(tier.priceNet, quantity, product.taxRateBp, 'tier');
  return priceOf(product.priceNet, quantity, product.taxRateBp, 'list');
}

/**
 * The first registered price provider that answers wins; else the tier price for the quantity
 * (the highest minimum quantity not above it); else the list price. `tiers` may be preloaded for a listing.
 */
export async function calculatePrice(
  providers: PriceProvider[],
  ctx: StoreContext,
  product: ProductRecord,
  quantity: number,
  executor: Executor,
  tiers?: TierPrices,
): Promise<CalculatedPrice> {
  checkQuantity(quantity);
  for (const provider of providers) {
    const provided = await provider(ctx, product, quantity, executor);
    if (provided) return priceOf(provided.unitNet, quantity, product.taxRateBp, provided.source, provided.listPriceNet);
  }
  return tierOrList(product, quantity, (tiers ?? (await tierPricesOf(executor, [product.id]))).get(product.id) ?? []);
}

/**
 * `calculatePrice` for many lines, in the order given: each provider is asked once for the lines no
 * earlier provider answered (its `many` form, else once per line), and the tier prices are read once,
 * only for the lines no provider answered (unless preloaded in `tiers`).
 */
export async function calculatePrices(
  providers: PriceProvider[],
  ctx: StoreContext,
  items: ReadonlyArray<{ product: ProductRecord; quantity: number }>,
  executor: Executor,
  tiers?: TierPrices,
): Promise<CalculatedPrice[]> {
  for (const item of items) checkQuantity(item.quantity);
  const prices: Array<CalculatedPrice | undefined> = new Array<CalculatedPrice | undefined>(items.length);
  let open: number[] = items.map((_, index) => index);
  for (const provider of providers) {
    if (open.length === 0) break;
    let answers: Array<ProvidedPrice | null>;
    if (provider.many) {
      answers = await provider.many(ctx, open.map((index) => items[index]!), executor);
      if (answers.length !== open.length) throw new Error(`A price provider answered ${answers.length} prices for ${open.length} lines.`);
    } else {
      answers = [];
      for (const index of open) answers.push(await provider(ctx, items[index]!.product, items[index]!.quantity, executor));
    }
    const next: number[] = [];
    for (const [k, index] of open.entries()) {
      const provided = answers[k];
      const { product, quantity } = items[index]!;
      if (provided) prices[index] = priceOf(provided.unitNet, quantity, product.taxRateBp, provided.source, provided.listPriceNet);
      else next.push(index);
    }
    open = next;
  }
  if (open.length > 0) {
    const known = tiers ?? (await tierPricesOf(executor, [...new Set(open.map((index) => items[index]!.product.id))]));
    for (const index of open) {
      const { product, quantity } = items[index]!;
      prices[index] = tierOrList(product, quantity, known.get(product.id) ?? []);
    }
  }
  return prices as CalculatedPrice[];
}
