import type { LineItemProcessor, StoreContext } from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { customerNumberRead } from './repository.js';
import type { CustomerNumberCache } from './number-cache.js';

/**
 * Per request and executor (a cart write's transaction), the numbers already read: an add that
 * merges into an existing line runs the processors twice for the same product (the new line, then
 * the merged one), and the second run reads nothing. Keyed by the executor, with the request's
 * context beside it (one small map per write instead of a map of maps per request).
 */
const known = new WeakMap<Executor, { ctx: StoreContext; numbers: Map<string, string | null> }>();

async function numberOf(
  ctx: StoreContext,
  customerId: string,
  productId: string,
  executor: Executor,
): Promise<string | null> {
  let entry = known.get(executor);
  if (entry?.ctx !== ctx) known.set(executor, (entry = { ctx, numbers: new Map<string, string | null>() }));
  const { numbers } = entry;
  const key = `${customerId}\u0000${productId}`;
  if (!numbers.has(key))
    numbers.set(
      key,
      (await customerNumberRead<{ product_number: string }>(executor, customerId, productId))[0]?.product_number ??
        null,
    );
  return numbers.get(key) ?? null;
}

/**
 * Puts the customer's number for the product on each product line (payload.customerProductNumber),
 * so orders carry it: kept per customer products numbers version (number-cache.ts), else read once
 * per request and product.
 */
export function customerProductNumberProcessor(cache: CustomerNumberCache): LineItemProcessor {
  return {
    name: 'customer-product-number',
    async process(executor, ctx, item, _phase) {
      if (!item.productId || !ctx.customer) return item;
      const kept = await cache.keptNumberOf(ctx, executor, ctx.customer.id, item.productId);
      const number = kept !== undefined ? kept : await numberOf(ctx, ctx.customer.id, item.productId, executor);
      const { customerProductNumber: _previous, ...payload } = item.payload;
      return { ...item, payload: number ? { ...payload, customerProductNumber: number } : payload };
    },
  };
}
