import { Errors } from '../../lib/errors.js';
import type { Executor } from '../../lib/db.js';
import type { CalculatedPrice, PriceProvider, ProductRecord, StoreContext } from '../contract.js';
import { tierPricesOf } from './product-repository.js';

export type TierPrices = Map<string, Array<{ minQuantity: number; priceNet: number }>>;

export function priceOf(unitNet: number, quantity: number, taxRateBp: number, source: string, listPriceNet?: number | null): CalculatedPrice {
  const totalNet = unitNet * quantity;
  const totalTax = Math.round((totalNet * taxRateBp) / 10000);
  const price: CalculatedPrice = { unitNet, quantity, totalNet, taxRateBp, totalTax, totalGross: totalNet + totalTax, source };
  if (listPriceNet !== undefined && listPriceNet !== null) price.listPriceNet = listPriceNet;
  return price;
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
  if (!Number.isSafeInteger(quantity) || quantity < 1)
    throw Errors.badRequest('SUITE__INVALID_QUANTITY', 'The quantity must be a positive whole number.', { pointer: '/quantity' });
  for (const provider of providers) {
    const provided = await provider(ctx, product, quantity, executor);
    if (provided) return priceOf(provided.unitNet, quantity, product.taxRateBp, provided.source, provided.listPriceNet);
  }
  const productTiers = (tiers ?? (await tierPricesOf(executor, [product.id]))).get(product.id) ?? [];
  let tier: { minQuantity: number; priceNet: number } | null = null;
  for (const candidate of productTiers) if (candidate.minQuantity <= quantity && (!tier || candidate.minQuantity > tier.minQuantity)) tier = candidate;
  if (tier) return priceOf(tier.priceNet, quantity, product.taxRateBp, 'tier');
  return priceOf(product.priceNet, quantity, product.taxRateBp, 'list');
}
