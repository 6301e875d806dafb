import type { CustomerRef, HostRuntime, PriceProvider, ProvidedPrice, StoreContext } from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { nowDb, nowMs } from '../../lib/time.js';
import { applicablePrices, pickPrice, pricesPresent, type ApplicablePrice } from './repository.js';
import { CustomerPriceCache } from './price-cache.js';

type Presence = { customer: boolean; group: boolean };

/**
 * Per request (context): how many single lookups it made, and from the second one on whether the
 * customer (or its group) has prices at all. A request that prices one product pays one statement;
 * one that prices products one by one (a host without `many`) pays one probe more and nothing per
 * product when the customer has no prices.
 */
const perContext = new WeakMap<StoreContext, { lookups: number; presence?: Promise<Presence> }>();

function presenceOf(ctx: StoreContext, executor: Executor): Promise<Presence> | undefined {
  let state = perContext.get(ctx);
  if (!state) perContext.set(ctx, (state = { lookups: 0 }));
  state.lookups++;
  if (state.lookups < 2) return undefined;
  if (!state.presence) {
    const known = pricesPresent(executor, ctx.customer!.id, ctx.customer!.groupId);
    state.presence = known;
    known.catch(() => {
      if (state.presence === known) delete state.presence;
    });
  }
  return state.presence;
}

function answer(price: ApplicablePrice | null): ProvidedPrice | null {
  if (!price) return null;
  return {
    unitNet: price.priceNet,
    source: price.scope === 'customer' ? 'customer-price' : 'customer-group-price',
    listPriceNet: price.listPriceNet,
  };
}

/**
 * Only prices that apply now (validity period) in the sales channel's currency (or naming none) count.
 * The customer's own price for the quantity wins; else its group's; else null, so the host's tier
 * and list prices apply. A customer price replaces the list price even when a host tier is lower.
 * Rows are kept per process at the customer prices version the request's context brought
 * (price-cache.ts); without it (a transaction, a host that does not read it), one statement per call
 * (both the customer's and the group's rows), and `many` reads a whole page's in one.
 */
export function customerPriceProvider(host: HostRuntime): PriceProvider {
  const cache = new CustomerPriceCache(host);

  /** The applicable rows of some products for quantities up to `maxQuantity`, kept or read. */
  const rowsFor = (
    ctx: StoreContext,
    executor: Executor,
    customer: CustomerRef,
    groupId: string | null,
    productIds: string[],
    maxQuantity: number,
  ): Promise<ApplicablePrice[]> => {
    const version = cache.version(ctx, executor);
    if (version !== undefined)
      return cache.applicable(
        executor,
        version,
        customer.id,
        customer.groupId,
        productIds,
        maxQuantity,
        nowMs(),
        ctx.salesChannel.currencyIso,
      );
    return applicablePrices(executor, customer.id, groupId, productIds, maxQuantity, {
      at: nowDb(),
      currencyIso: ctx.salesChannel.currencyIso,
    });
  };

  const provider: PriceProvider = async (executor, ctx, product, quantity) => {
    const customer = ctx.customer;
    if (!customer) return null;
    let groupId = customer.groupId;
    if (cache.version(ctx, executor) === undefined) {
      const present = presenceOf(ctx, executor);
      if (present) {
        const known = await present;
        if (!known.customer && !(groupId && known.group)) return null;
        if (!known.group) groupId = null;
      }
    }
    return answer(pickPrice(await rowsFor(ctx, executor, customer, groupId, [product.id], quantity), quantity));
  };

  provider.many = async (executor, ctx, items) => {
    const customer = ctx.customer;
    if (!customer || items.length === 0) return items.map(() => null);
    const productIds = [...new Set(items.map((item) => item.product.id))];
    let maxQuantity = 0;
    for (const item of items) if (item.quantity > maxQuantity) maxQuantity = item.quantity;
    const rows = await rowsFor(ctx, executor, customer, customer.groupId, productIds, maxQuantity);
    const byProduct = new Map<string, ApplicablePrice[]>();
    for (const row of rows) {
      const list = byProduct.get(row.productId);
      if (list) list.push(row);
      else byProduct.set(row.productId, [row]);
    }
    return items.map((item) => answer(pickPrice(byProduct.get(item.product.id) ?? [], item.quantity)));
  };
  return provider;
}
