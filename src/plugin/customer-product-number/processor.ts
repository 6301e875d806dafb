import type { LineItemProcessor } from '../../host/contract.js';
import { numbersOf } from './repository.js';

/** Puts the customer's number for the product on each product line (payload.customerProductNumber), so orders carry it. */
export const customerProductNumberProcessor: LineItemProcessor = {
  name: 'customer-product-number',
  async process(ctx, item, _phase, executor) {
    if (!item.productId || !ctx.customer) return item;
    const number = (await numbersOf(executor, ctx.customer.id, [item.productId])).get(item.productId);
    const { customerProductNumber: _previous, ...payload } = item.payload;
    return { ...item, payload: number ? { ...payload, customerProductNumber: number } : payload };
  },
};
