import { Errors } from '../lib/errors.js';
import { CART_LIMITS, type CustomerRef, type ProductRecord, type StoreContext } from '../contract/index.js';

/** The cart rules every host applies to line items (quantity limits) and the refusals it answers with, alike on every host. */

export { CART_LIMITS };

export function requireCustomer(ctx: StoreContext): CustomerRef {
  if (!ctx.customer)
    throw Errors.badRequest(
      'SUITE__CUSTOMER_REQUIRED',
      'Choose the customer you act for before using a cart or placing an order.',
    );
  return ctx.customer;
}

export const notAvailable = (productId: string | null, pointer?: string) =>
  Errors.badRequest(
    'SUITE__PRODUCT_NOT_AVAILABLE',
    `The product "${productId ?? ''}" is not available.`,
    pointer ? { pointer } : {},
  );

export const outOfStock = (product: ProductRecord, pointer?: string) =>
  Errors.badRequest('SUITE__OUT_OF_STOCK', `Only ${Math.max(0, product.stock)} of "${product.name}" are in stock.`, {
    ...(pointer ? { pointer } : {}),
    meta: { productId: product.id, available: Math.max(0, product.stock) },
  });

export function checkQuantity(quantity: number, pointer: string): void {
  if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > CART_LIMITS.maxLineQuantity)
    throw Errors.badRequest(
      'SUITE__QUANTITY_LIMIT_EXCEEDED',
      `A line's quantity must be between 1 and ${CART_LIMITS.maxLineQuantity}.`,
      { pointer },
    );
}
