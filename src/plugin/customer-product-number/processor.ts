import type { LineItemProcessor, StoreContext } from '../../host/contract.js';
import type { Executor } from '../../lib/db.js';
import { numbersOf } from './repository.js';

/**
 * Per request and executor (a cart write's transaction), the numbers already read: an add that
 * merges into an existing line runs the processors twice for the same product (the new line, then
 * the merged one), and the second run reads nothing.
 */
const known = new WeakMap<StoreContext, WeakMap<Executor, Map<string, string | null>>>();

async function numberOf(ctx: StoreContext, customerId: string, productId: string, executor: Executor): Promise<string | null> {
  let byExecutor = known.get(ctx);
  if (!byExecutor) known.set(ctx, (byExecutor = new WeakMap<Executor, Map<string, string | null>>()));
  let numbers = byExecutor.get(executor);
  if (!numbers) byExecutor.set(executor, (numbers = new Map<string, string | null>()));
  const key = `${customerId}\u0000${productId}`;
  if (!numbers.has(key)) numbers.set(key, (await numbersOf(executor, customerId, [productId])).get(productId) ?? null);
  return numbers.get(key) ?? null;
}

/** Puts the customer's number for the product on each product line (payload.customerProductNumber), so orders carry it. */
export const customerProductNumberProcessor: LineItemProcessor = {
  name: 'customer-product-number',
  async process(ctx, item, _phase, executor) {
    if (!item.productId || !ctx.customer) return item;
    const number = await numberOf(ctx, ctx.customer.id, item.productId, executor);
    const { customerProductNumber: _previous, ...payload } = item.payload;
    return { ...item, payload: number ? { ...payload, customerProductNumber: number } : payload };
  },
};
