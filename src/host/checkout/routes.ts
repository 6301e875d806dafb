import type { Knex } from 'knex';
import { criteriaSchema, searchByCriteria, type Criteria, type Filter } from '../../lib/criteria.js';
import { CURSOR_PROPERTY } from '../../lib/keyset.js';
import { selectRow, type Db } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { fromMinor, toMinor } from '../../lib/money.js';
import { noContent, reply, type RouteInput } from '../../lib/routes.js';
import { emptyBody, objectSchema, pathParams } from '../../lib/schemas.js';
import {
  defineStoreRoute,
  type AdminContext,
  type AdminRoute,
  type Cart,
  type StoreContext,
} from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import {
  canonicalJson,
  requireCustomer,
  type CartService,
  type LineItemChange,
  type NewLineItem,
} from './cart-service.js';
import type { CheckoutService } from './checkout-service.js';
import { documents } from '../../host-kit/documents.js';
import { getOrder, getOrders, ORDER_CRITERIA } from './order-repository.js';
import type { OrderViewCache } from './order-view-cache.js';
import {
  addLineItemsBody,
  cartSchema,
  errorResponse,
  orderListSchema,
  orderSchema,
  placeOrderBody,
  removeLineItemsBody,
  updateLineItemsBody,
} from './schemas.js';

const MAX_PAYLOAD_CHARS = 16000;

/** A handler's input once the route's schemas have validated it (see schemas.ts). */
type Input<B = unknown, P = unknown> = RouteInput<StoreContext, B, unknown, P>;
interface AddLineItemsBody {
  items: Array<{
    type?: string;
    referencedId?: string;
    productId?: string;
    quantity: number;
    payload?: Record<string, unknown>;
  }>;
}
interface PlaceOrderBody {
  customerComment?: string | null;
  billingAddressId?: string | null;
  shippingAddressId?: string | null;
  paymentMethod?: string | null;
  shippingMethod?: string | null;
}

/**
 * The orders a caller may read: their customer's, and with only 'orders.read' (not 'orders.read-all')
 * just the ones they placed themselves.
 */
function scopeOrders(ctx: StoreContext, query: Knex.QueryBuilder): Knex.QueryBuilder {
  const customer = requireCustomer(ctx);
  query.where('orders.customer_id', customer.id);
  if (!ctx.can('orders.read-all'))
    query.where('orders.placed_by_type', ctx.actor.type).where('orders.placed_by_id', ctx.actor.id ?? '');
  return query;
}

function checkPayloadSize(payload: unknown, pointer: string): void {
  if (payload !== undefined && canonicalJson(payload).length > MAX_PAYLOAD_CHARS)
    throw Errors.badRequest(
      'SUITE__PAYLOAD_TOO_LARGE',
      `A line item's payload may hold at most ${MAX_PAYLOAD_CHARS} characters of JSON.`,
      { pointer },
    );
}

const MONEY_FIELDS = new Set(['amountTotal', 'amountNet']);

/** Criteria speak amounts like the responses do (12.5); the columns hold minor units. */
function moneyFiltersToMinor(filters: Filter[] | undefined, precision: number): Filter[] | undefined {
  const convert = (value: unknown): number => {
    const amount = typeof value === 'number' ? value : Number(value);
    if (typeof value === 'boolean' || value === null || value === '' || !Number.isFinite(amount))
      throw Errors.badRequest('SUITE__INVALID_CRITERIA_VALUE', `"${String(value)}" is not an amount.`, {
        pointer: '/filter',
      });
    return toMinor(amount, precision);
  };
  return filters?.map((filter): Filter => {
    if ('queries' in filter) return { ...filter, queries: moneyFiltersToMinor(filter.queries, precision)! };
    if (!MONEY_FIELDS.has(filter.field)) return filter;
    if (filter.type === 'equals') return { ...filter, value: convert(filter.value) };
    if (filter.type === 'equalsAny') return { ...filter, value: filter.value.map(convert) };
    if (filter.type === 'range')
      return {
        ...filter,
        parameters: Object.fromEntries(Object.entries(filter.parameters).map(([key, value]) => [key, convert(value)])),
      };
    throw Errors.badRequest(
      'SUITE__INVALID_CRITERIA_VALUE',
      `"${filter.field}" can only be compared with equals, equalsAny or range.`,
      { pointer: '/filter' },
    );
  });
}

async function cartView(db: Db, carts: CartService, ctx: StoreContext, cart: Cart) {
  const priced = await carts.price(ctx, cart, db);
  const precision = ctx.salesChannel.currencyPrecision;
  const money = (minor: number) => fromMinor(minor, precision);
  const byLine = new Map(priced.lines.map((line) => [line.lineItemId, line]));
  return {
    token: cart.token,
    customerId: cart.customerId,
    lineItems: cart.lineItems.flatMap((item) => {
      const line = byLine.get(item.id);
      if (!line) return [];
      return [
        {
          id: item.id,
          type: item.type,
          productId: item.productId,
          productNumber: line.productNumber,
          label: item.label,
          quantity: item.quantity,
          payload: item.payload,
          position: item.position,
          price: { unitPrice: money(line.unitNet), totalPrice: money(line.totalNet), taxRate: line.taxRateBp / 100 },
        },
      ];
    }),
    price: {
      netPrice: money(priced.netTotal),
      totalPrice: money(priced.total),
      taxAmount: money(priced.taxTotal),
      currency: { isoCode: ctx.salesChannel.currencyIso },
    },
    errors: priced.unavailable.map((item) => ({
      code: 'SUITE__PRODUCT_NOT_AVAILABLE',
      detail: `"${item.label}" is no longer available; remove it to order.`,
      lineItemId: item.id,
      productId: item.productId,
      label: item.label,
    })),
  };
}

/** The line items an addLineItems body asks for: each names one product (productId or referencedId) and a payload within bounds. */
function newLineItems(body: AddLineItemsBody): NewLineItem[] {
  return body.items.map((item, index) => {
    if (item.referencedId && item.productId && item.referencedId !== item.productId)
      throw Errors.badRequest('SUITE__INVALID_INPUT', 'referencedId and productId name different products.', {
        pointer: `/items/${index}/productId`,
      });
    checkPayloadSize(item.payload, `/items/${index}/payload`);
    const productId = item.productId ?? item.referencedId;
    if (!productId)
      throw Errors.badRequest('SUITE__INVALID_INPUT', 'A line item names its product by productId or referencedId.', {
        pointer: `/items/${index}`,
      });
    return { type: item.type, productId, quantity: item.quantity, payload: item.payload };
  });
}

const cartTags = ['Cart'];
const orderTags = ['Orders'];

/** Reading and changing the caller's cart. */
function cartRoutes(db: Db, carts: CartService) {
  return [
    defineStoreRoute({
      method: 'GET',
      path: '/checkout/cart',
      operationId: 'readCart',
      summary:
        "The caller's cart with priced lines (net) and totals; lines no longer available are listed under errors.",
      tags: cartTags,
      auth: 'login',
      permission: null,
      schemas: { responses: { 200: cartSchema } },
      async handler({ ctx }) {
        await ctx.ruleIds();
        return cartView(db, carts, ctx, await carts.current(ctx));
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/checkout/cart/line-item',
      operationId: 'addLineItems',
      summary: 'Adds products to the cart; the same product with the same payload adds up to one line.',
      tags: cartTags,
      auth: 'login',
      permission: null,
      schemas: { body: addLineItemsBody, responses: { 200: cartSchema } },
      async handler({ ctx, body }: Input<AddLineItemsBody>) {
        const items = newLineItems(body);
        const cart = await carts.addLineItems(db, ctx, items);
        return cartView(db, carts, ctx, cart);
      },
    }),
    defineStoreRoute({
      method: 'PATCH',
      path: '/checkout/cart/line-item',
      operationId: 'updateLineItems',
      summary: 'Changes the quantity or payload of cart lines.',
      tags: cartTags,
      auth: 'login',
      permission: null,
      schemas: { body: updateLineItemsBody, responses: { 200: cartSchema } },
      async handler({ ctx, body }: Input<{ items: LineItemChange[] }>) {
        body.items.forEach((item, index) => checkPayloadSize(item.payload, `/items/${index}/payload`));
        return cartView(db, carts, ctx, await carts.updateLineItems(ctx, body.items));
      },
    }),
    defineStoreRoute({
      method: 'DELETE',
      path: '/checkout/cart/line-item',
      operationId: 'removeLineItems',
      summary: 'Removes cart lines by id.',
      tags: cartTags,
      auth: 'login',
      permission: null,
      schemas: { body: removeLineItemsBody, responses: { 200: cartSchema } },
      async handler({ ctx, body }: Input<{ ids: string[] }>) {
        await ctx.ruleIds();
        return cartView(db, carts, ctx, await carts.removeLineItems(ctx, body.ids));
      },
    }),
    defineStoreRoute({
      method: 'DELETE',
      path: '/checkout/cart',
      operationId: 'deleteCart',
      summary: 'Deletes the cart; the next use starts an empty one.',
      tags: cartTags,
      auth: 'login',
      permission: null,
      schemas: { responses: { 204: null } },
      async handler({ ctx }) {
        await carts.clear(ctx);
        return noContent();
      },
    }),
  ];
}

/** Placing an order, and reading the caller's orders and their documents. */
function orderRoutes(db: Db, carts: CartService, checkout: CheckoutService, orderViews: OrderViewCache) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/checkout/order',
      operationId: 'placeOrder',
      summary:
        'Orders the cart (payment by invoice unless `paymentMethod` names another of /payment-method, delivery by standard unless `shippingMethod` names another of /shipping-method). Send an Idempotency-Key header to make retries safe.',
      description:
        "The cart is locked and re-read, re-checked for availability and stock, and passed to every checkout interceptor; the order, its invoice and the cart's ordered mark are written in one transaction. One cart yields at most one order.",
      tags: orderTags,
      auth: 'login',
      permission: 'orders.create',
      idempotent: true,
      schemas: { body: placeOrderBody, responses: { 200: orderSchema, 409: errorResponse, 422: errorResponse } },
      async handler({ ctx, body }: Input<PlaceOrderBody>) {
        requireCustomer(ctx);
        await ctx.ruleIds();
        const cartToken = (await carts.sessionCartToken(db, ctx)) ?? (await carts.ensureCartToken(ctx, db));
        const placed = await checkout.placeOrder(ctx, {
          cartToken,
          billingAddressId: body.billingAddressId ?? null,
          shippingAddressId: body.shippingAddressId ?? null,
          customerComment: body.customerComment ?? null,
          paymentMethod: body.paymentMethod ?? null,
          shippingMethod: body.shippingMethod ?? null,
        });
        return (await getOrder(db, placed.id, orderViews))!;
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/order',
      operationId: 'listOrders',
      summary:
        "The orders of the caller's customer (only their own without orders.read-all), newest first, searched by criteria.",
      description:
        'Answers `{"orders": {"total", "page", "limit", "elements"}}` like the shop platform\'s order route.',
      tags: orderTags,
      auth: 'login',
      permission: 'orders.read',
      schemas: {
        body: criteriaSchema(Object.keys(ORDER_CRITERIA.fields), { cursor: CURSOR_PROPERTY }),
        responses: { 200: orderListSchema },
      },
      async handler({ ctx, body }: Input<Criteria>) {
        const criteria: Criteria = {
          ...body,
          filter: moneyFiltersToMinor(body.filter, ctx.salesChannel.currencyPrecision),
        };
        const page = await searchByCriteria<{ id: string }>(
          scopeOrders(ctx, db('orders')),
          criteria,
          ORDER_CRITERIA,
          (qb) => qb.select('orders.id'),
        );
        const elements = await getOrders(
          db,
          page.rows.map((row) => row.id),
          orderViews,
        );
        return {
          orders: {
            total: page.total,
            page: page.page,
            limit: page.limit,
            elements,
            ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
          },
        };
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/order/{orderId}',
      operationId: 'readOrder',
      summary: "One order of the caller's customer.",
      tags: orderTags,
      auth: 'login',
      permission: 'orders.read',
      schemas: { params: pathParams('orderId'), responses: { 200: orderSchema } },
      async handler({ ctx, params }: Input<unknown, { orderId: string }>) {
        const owned = await selectRow<{ id: string }>(
          scopeOrders(ctx, db('orders')).where('orders.id', params.orderId).first('orders.id'),
        );
        const order = owned ? await getOrder(db, params.orderId, orderViews) : null;
        if (!order) throw Errors.notFound('Order', params.orderId);
        return order;
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/document/download/{documentId}',
      operationId: 'downloadDocument',
      summary: "Downloads a document (e.g. an order's invoice) of the caller's customer as PDF.",
      tags: orderTags,
      auth: 'login',
      permission: 'orders.read',
      schemas: {
        params: pathParams('documentId'),
        responses: { 200: { contentType: 'application/pdf', description: 'The PDF document' } },
      },
      async handler({ ctx, params }: Input<unknown, { documentId: string }>) {
        const customer = requireCustomer(ctx);
        const document = await documents.get(db, params.documentId);
        const readable =
          document?.customerId === customer.id &&
          (!document.orderId ||
            (await scopeOrders(ctx, db('orders')).where('orders.id', document.orderId).first('orders.id')));
        if (!document || !readable) throw Errors.notFound('Document', params.documentId);
        return reply(200, document.content, {
          contentType: document.mimeType,
          headers: {
            'Content-Disposition': `attachment; filename="${document.fileName}"`,
            'Cache-Control': 'private, no-store',
          },
        });
      },
    }),
  ];
}

export function checkoutRoutes(
  internals: HostInternals,
  carts: CartService,
  checkout: CheckoutService,
  orderViews: OrderViewCache,
) {
  const { db } = internals;
  return [...cartRoutes(db, carts), ...orderRoutes(db, carts, checkout, orderViews)];
}

/** The host's order management in the Admin API: cancelling a placed order. */
export function orderAdminRoutes(checkout: CheckoutService): AdminRoute[] {
  return [
    {
      method: 'POST',
      path: '/_action/order/{orderId}/state/cancel',
      operationId: 'cancelOrder',
      summary:
        'Cancels a placed order: its stock goes back, and what the plugins took for it (budget usage, event seats) is released, in one transaction.',
      tags: ['Admin: Orders'],
      auth: 'admin',
      permission: null,
      schemas: {
        params: pathParams('orderId'),
        body: emptyBody,
        responses: {
          200: objectSchema(
            {
              data: objectSchema(
                {
                  id: { type: 'string' },
                  type: { const: 'order' },
                  attributes: objectSchema({ orderNumber: { type: 'string' }, state: { type: 'string' } }, [
                    'orderNumber',
                    'state',
                  ]),
                },
                ['id', 'type', 'attributes'],
              ),
            },
            ['data'],
          ),
        },
      },
      async handler({ ctx, params }: { ctx: AdminContext; params: { orderId: string } }) {
        const cancelled = await checkout.cancelOrder(params.orderId, ctx);
        return {
          data: {
            id: cancelled.id,
            type: 'order',
            attributes: { orderNumber: cancelled.orderNumber, state: cancelled.state },
          },
        };
      },
    },
  ];
}
