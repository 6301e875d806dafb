import type { HostRuntime, StoreContext } from '../../contract/index.js';
import { AppError } from '../../lib/errors.js';
import type { SchemaInput } from '../../lib/routes.js';
import type { addToCartBody } from './schemas.js';
import { customerNumberCache, numberKey, visibleProductsByNumber } from '../customer-product-number/index.js';
import { declaredCustomer } from '../declared.js';

/** An item to add: what the add-to-cart body admits (its schema's type). */
type RequestedItem = SchemaInput<typeof addToCartBody>['items'][number];

interface ItemResult {
  index: number;
  productId: string | null;
  productNumber: string | null;
  customerProductNumber: string | null;
  quantity: number;
  added: boolean;
  error: { code: string; detail: string; meta?: Record<string, unknown> } | null;
}

const errorOf = (error: AppError) => ({
  code: error.code,
  detail: error.message,
  ...(error.options.meta ? { meta: error.options.meta } : {}),
});

/** The index of the item an add-to-cart error is about: its pointer (/items/3/…), else the product in its meta. */
function culprits(error: AppError, batch: Array<{ result: ItemResult }>): number[] {
  const pointer = error.options.pointer ?? error.options.details?.[0]?.source?.pointer ?? '';
  const at = /^\/items\/(\d+)/.exec(pointer);
  if (at && batch[Number(at[1])]) return [Number(at[1])];
  const productId = error.options.meta?.productId;
  if (typeof productId === 'string') {
    const indexes = batch.flatMap((entry, i) => (entry.result.productId === productId ? [i] : []));
    if (indexes.length) return indexes;
  }
  return batch.map((_, i) => i);
}

/**
 * Resolves each item (id, shop number, then the customer's own number; only products the caller
 * may see), then adds what resolved in one cart write. When the cart refuses an item (stock, limits,
 * a line-item processor), that item is reported and the rest is tried again without it.
 */
export async function addToCart(host: HostRuntime, ctx: StoreContext, items: RequestedItem[]) {
  const customer = declaredCustomer(ctx);
  const numbers = items.flatMap((item) => (item.productNumber ? [item.productNumber] : []));
  const byShopNumber = await visibleProductsByNumber(host, ctx, numbers);
  const byCustomerNumber = await customerNumberCache(host).productIdsByNumber(ctx, host.db, customer.id, numbers);
  // The shop numbers' products are visible already; their records name them in the answer too.
  const candidateIds = [
    ...items.flatMap((i) => (i.productId ? [i.productId] : [])),
    ...byCustomerNumber.values(),
    ...byShopNumber.values(),
  ];
  const visible = new Map((await host.catalog.visibleProducts(host.db, ctx, candidateIds)).map((p) => [p.id, p]));

  const results: ItemResult[] = items.map((item, index) => {
    let productId: string | null = null;
    if (item.productId) productId = visible.has(item.productId) ? item.productId : null;
    else {
      const number = item.productNumber!.trim();
      const ownNumber = byCustomerNumber.get(numberKey(number));
      productId = byShopNumber.get(number) ?? (ownNumber && visible.has(ownNumber) ? ownNumber : null);
    }
    return {
      index,
      productId,
      productNumber: item.productNumber ?? null,
      customerProductNumber: null,
      quantity: item.quantity,
      added: false,
      error: productId
        ? null
        : {
            code: 'SUITE__PRODUCT_NOT_FOUND',
            detail: `No product "${item.productId ?? item.productNumber}" is available to you.`,
          },
    };
  });

  let batch = results.filter((r) => r.productId).map((result) => ({ result }));
  while (batch.length > 0) {
    try {
      await host.cart.addLineItems(
        host.db,
        ctx,
        batch.map(({ result }) => ({ productId: result.productId!, quantity: result.quantity })),
      );
      for (const { result } of batch) result.added = true;
      break;
    } catch (error) {
      // Refusals of an item are reported; not being allowed to use a cart, or a lost race, is the whole request's answer.
      if (!(error instanceof AppError) || ![400, 404, 422].includes(error.status)) throw error;
      const refused = new Set(culprits(error, batch));
      for (const i of refused) batch[i]!.result.error = errorOf(error);
      batch = batch.filter((_, i) => !refused.has(i));
    }
  }

  const ids = results.flatMap((r) => (r.productId ? [r.productId] : []));
  const ownNumbers = await customerNumberCache(host).numbersOf(ctx, host.db, customer.id, ids);
  for (const result of results) {
    if (!result.productId) continue;
    result.productNumber = visible.get(result.productId)?.productNumber ?? result.productNumber;
    result.customerProductNumber = ownNumbers.get(result.productId) ?? null;
  }
  const added = results.filter((r) => r.added).length;
  return { success: added === results.length, added, failed: results.length - added, items: results };
}
