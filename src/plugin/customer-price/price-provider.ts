import type { PriceProvider, StoreContext } from '../../host/contract.js';
import type { Executor } from '../../lib/db.js';
import { nowDb } from '../../lib/time.js';
import { priceFor, pricesPresent } from './repository.js';

/** Per request: does the caller's customer (or its group) have prices at all? */
const presence = new WeakMap<StoreContext, Promise<{ customer: boolean; group: boolean }>>();

function presenceOf(ctx: StoreContext, executor: Executor) {
  let known = presence.get(ctx);
  if (!known) {
    known = pricesPresent(executor, ctx.customer!.id, ctx.customer!.groupId);
    presence.set(ctx, known);
    known.catch(() => presence.delete(ctx));
  }
  return known;
}

/**
 * Only prices that apply now (validity period) in the sales channel's currency (or naming none) count.
 * The customer's own price for the quantity wins; else its group's; else null, so the host's tier
 * and list prices apply. A customer price replaces the list price even when a host tier is lower.
 */
export const customerPriceProvider: PriceProvider = async (ctx, product, quantity, executor) => {
  const customer = ctx.customer;
  if (!customer) return null;
  const present = await presenceOf(ctx, executor);
  const when = { at: nowDb(), currencyIso: ctx.salesChannel.currencyIso };
  if (present.customer) {
    const price = await priceFor(executor, 'customer', customer.id, product.id, quantity, when);
    if (price) return { unitNet: price.priceNet, source: 'customer-price', listPriceNet: price.listPriceNet };
  }
  if (customer.groupId && present.group) {
    const price = await priceFor(executor, 'customerGroup', customer.groupId, product.id, quantity, when);
    if (price) return { unitNet: price.priceNet, source: 'customer-group-price', listPriceNet: price.listPriceNet };
  }
  return null;
};
