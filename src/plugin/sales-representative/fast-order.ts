import { defineStoreRoute, type HostRuntime, type StoreRoute } from '../../host/contract.js';
import { addToCart, addToCartBody, addToCartResponse } from '../fast-order/index.js';
import { TAG } from './context.js';

/** The real product's representative fast order: the fast order's add-by-number, for the customer the representative acts for. */
export function representativeFastOrderRoutes(host: HostRuntime): StoreRoute[] {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/fast-order',
      operationId: 'salesRepresentativeFastOrder',
      summary:
        "The representative adds products by id or number (shop or the customer's own number) to the cart of the customer it acts for; answers per item whether it was added or why not.",
      description:
        "Only a sales representative login (403 SUITE__SALES_REPRESENTATIVE_ONLY otherwise); the customer is the one it acts for (POST /sales-representative/switch-customer), so catalog visibility, prices and customer product numbers are that customer's. The order is then placed from that cart as usual.",
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      needsCustomer: true,
      permission: null,
      schemas: { body: addToCartBody, responses: { 200: addToCartResponse } },
      async handler({ ctx, body }) {
        return addToCart(host, ctx, body.items);
      },
    }),
  ];
}
