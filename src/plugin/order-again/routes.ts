import { defineStoreRoute, type HostRuntime } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { pathParams } from '../../lib/schemas.js';
import type { ProductListService } from '../product-list/index.js';
import { orderAgain } from './order-again.js';
import { orderAgainBody, orderAgainResponse, TAG } from './schemas.js';

/** Ordering again is ordering: the cart target needs orders.create, the list target product-list.manage as well. */
export const ORDERING = 'orders.create';
export const LISTS = 'product-list.manage';

export function orderAgainRoutes(host: HostRuntime, lists: ProductListService) {
  return [
    defineStoreRoute({
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: ORDERING,
      method: 'POST',
      path: '/order-again/{orderId}',
      operationId: 'orderAgain',
      summary:
        "Puts the product lines of one of the caller's orders (any of the customer's with orders.read-all) into the cart or a product list, with today's visibility, prices and quantity rules; answers per line what changed (not-visible, price-changed, quantity-adjusted, out-of-stock).",
      schemas: { params: pathParams('orderId'), body: orderAgainBody, responses: { 200: orderAgainResponse } },
      async handler({ ctx, params, body }) {
        if (body.target === 'product-list') {
          if (!ctx.can(LISTS)) throw Errors.forbidden(`Adding to a product list needs the permission ${LISTS}.`);
          if (!body.productListId)
            throw Errors.badRequest('SUITE__PRODUCT_LIST_REQUIRED', 'Name the product list (productListId).', {
              pointer: '/productListId',
            });
          return orderAgain(host, lists, ctx, params.orderId, { to: 'product-list', listId: body.productListId });
        }
        return orderAgain(host, lists, ctx, params.orderId, { to: 'cart' });
      },
    }),
  ];
}
