import type { PriceProvider, StoreContext } from '../../host/contract.js';
import type { Executor } from '../../lib/db.js';
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
 * The customer's own price for the quantity wins; else its group's; else null, so the host's tier
 * and list prices apply. A customer price replaces the list price even when a host tier is lower.
 */
export const customerPriceProvider: PriceProvider = async (ctx, product, quantity, executor) => {
  const customer = ctx.customer;
  if (!customer) return null;
  const present = await presenceOf(ctx, executor);
  if (present.customer) {
    const unitNet = await priceFor(executor, 'customer', customer.id, product.id, quantity);
    if (unitNet !== null) return { unitNet, source: 'customer-price' };
  }
  if (customer.groupId && present.group) {
    const unitNet = await priceFor(executor, 'customerGroup', customer.groupId, product.id, quantity);
    if (unitNet !== null) return { unitNet, source: 'customer-group-price' };
  }
  return null;
};
