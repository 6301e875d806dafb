import { Errors } from '../../lib/errors.js';
import type { Executor } from '../../lib/db.js';
import { firstProvidedPrices } from '../../lib/price-providers.js';
import type { CalculatedPrice, PriceProvider, ProductRecord, StoreContext } from '../../contract/index.js';
import { tierPricesOf, tierPricesReadWith, type TierPrices } from './product-repository.js';

export function priceOf(
  unitNet: number,
  quantity: number,
  taxRateBp: number,
  source: string,
  listPriceNet?: number | null,
): CalculatedPrice {
  const totalNet = unitNet * quantity;
  const totalTax = Math.round((totalNet * taxRateBp) / 10000);
  const price: CalculatedPrice = {
    unitNet,
    quantity,
    totalNet,
    taxRateBp,
    totalTax,
    totalGross: totalNet + totalTax,
    source,
  };
  if (listPriceNet !== undefined && listPriceNet !== null) price.listPriceNet = listPriceNet;
  return price;
}

function checkQuantity(quantity: number): void {
  if (!Number.isSafeInteger(quantity) || quantity < 1)
    throw Errors.badRequest('SUITE__INVALID_QUANTITY', 'The quantity must be a positive whole number.', {
      pointer: '/quantity',
    });
}

function tierOrList(
  product: ProductRecord,
  quantity: number,
  productTiers: Array<{ minQuantity: number; priceNet: number }>,
): CalculatedPrice {
  let tier: { minQuantity: number; priceNet: number } | null = null;
  for (const candidate of productTiers)
    if (candidate.minQuantity <= quantity && (!tier || candidate.minQuantity > tier.minQuantity)) tier = candidate;
  if (tier) return priceOf(tier.priceNet, quantity, product.taxRateBp, 'tier');
  return priceOf(product.priceNet, quantity, product.taxRateBp, 'list');
}

/**
 * The first registered price provider that answers wins; else the tier price for the quantity
 * (the highest minimum quantity not above it); else the list price. `tiers` may be preloaded for a listing;
 * a record from `catalog.visibleProducts` brings those read with it (tierPricesReadWith).
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
    const provided = await provider(executor, ctx, product, quantity);
    if (provided) return priceOf(provided.unitNet, quantity, product.taxRateBp, provided.source, provided.listPriceNet);
  }
  const productTiers = tiers
    ? tiers.get(product.id)
    : (tierPricesReadWith(product) ?? (await tierPricesOf(executor, [product.id])).get(product.id));
  return tierOrList(product, quantity, productTiers ?? []);
}

/**
 * `calculatePrice` for many lines, in the order given: each provider is asked once for the lines no
 * earlier provider answered (its `many` form, else once per line), and the tier prices are read once,
 * only for the lines no provider answered (unless preloaded in `tiers`, or read with the record).
 */
export async function calculatePrices(
  providers: PriceProvider[],
  ctx: StoreContext,
  items: ReadonlyArray<{ product: ProductRecord; quantity: number }>,
  executor: Executor,
  tiers?: TierPrices,
): Promise<CalculatedPrice[]> {
  for (const item of items) checkQuantity(item.quantity);
  const provided = await firstProvidedPrices(providers, executor, ctx, items);
  const prices: CalculatedPrice[] = [];
  const open: number[] = [];
  for (const [index, answer] of provided.entries()) {
    const { product, quantity } = items[index]!;
    if (answer)
      prices[index] = priceOf(answer.unitNet, quantity, product.taxRateBp, answer.source, answer.listPriceNet);
    else open.push(index);
  }
  if (open.length > 0) {
    const unread = tiers
      ? []
      : open.map((index) => items[index]!.product).filter((product) => !tierPricesReadWith(product));
    const read =
      unread.length > 0 ? await tierPricesOf(executor, [...new Set(unread.map((product) => product.id))]) : undefined;
    for (const index of open) {
      const { product, quantity } = items[index]!;
      const productTiers = tiers ? tiers.get(product.id) : (tierPricesReadWith(product) ?? read?.get(product.id));
      prices[index] = tierOrList(product, quantity, productTiers ?? []);
    }
  }
  return prices;
}
