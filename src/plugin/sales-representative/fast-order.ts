import { defineStoreRoute, type HostRuntime } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { idSchema } from '../../lib/ids.js';
import { objectSchema } from '../../lib/schemas.js';
import type { SchemaInput } from '../../lib/routes.js';
import { addToCart, addToCartBody, addToCartResponse } from '../fast-order/index.js';
import { TAG } from './context.js';

const MAX_ITEMS = 100;

/**
 * A line item as the real product's storefront connector sends it (the platform's cart line item):
 * the product by `referencedId` (or `productId`, or `id` — a product line's id is its product's) or
 * by `productNumber`, and the quantity (decision 0048).
 */
const lineItem = {
  ...objectSchema(
    {
      type: { const: 'product', description: 'Only product lines.' },
      id: idSchema,
      referencedId: idSchema,
      productId: idSchema,
      productNumber: { type: 'string', minLength: 1, maxLength: 64 },
      quantity: { type: 'integer', minimum: 1, maximum: 10_000 },
    },
    ['quantity'],
  ),
  anyOf: [
    { required: ['referencedId'] },
    { required: ['productId'] },
    { required: ['id'] },
    { required: ['productNumber'] },
  ],
} as const;

/** The fast order's `items`, or the platform's `lineItems`: one of the two. */
const body = objectSchema({
  items: addToCartBody.properties.items,
  lineItems: { type: 'array', minItems: 1, maxItems: MAX_ITEMS, items: lineItem },
});

type Body = SchemaInput<typeof body>;

function requestedItems(input: Body) {
  if ((input.items === undefined) === (input.lineItems === undefined))
    throw Errors.badRequest(
      'SUITE__INVALID_INPUT',
      'Give the products as `items` or as `lineItems` (one of the two).',
      {
        pointer: '/items',
      },
    );
  if (input.items) return input.items;
  return input.lineItems!.map((line) => {
    const productId = line.referencedId ?? line.productId ?? line.id;
    return productId
      ? { productId, quantity: line.quantity }
      : { productNumber: line.productNumber!, quantity: line.quantity };
  });
}

/** The real product's representative fast order: the fast order's add-by-number, for the customer the representative acts for. */
export function representativeFastOrderRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/fast-order',
      operationId: 'salesRepresentativeFastOrder',
      summary:
        "The representative adds products by id or number (shop or the customer's own number) to the cart of the customer it acts for; answers per item whether it was added or why not. The products as `items` (the fast order's) or `lineItems` (the platform's line items, as the real product's clients send them).",
      description:
        "Only a sales representative login (403 SUITE__SALES_REPRESENTATIVE_ONLY otherwise); the customer is the one it acts for (POST /sales-representative/switch-customer), so catalog visibility, prices and customer product numbers are that customer's. The order is then placed from that cart as usual.",
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      needsCustomer: true,
      permission: null,
      schemas: { body, responses: { 200: addToCartResponse } },
      async handler({ ctx, body }) {
        return addToCart(host, ctx, requestedItems(body));
      },
    }),
  ];
}
