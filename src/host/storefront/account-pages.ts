import { selectRow } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { isId } from '../../lib/ids.js';
import { requireCustomer } from '../checkout/cart-service.js';
import type { StoreContext, StorefrontPage } from '../../contract/index.js';
import { orderPath } from './cart-pages.js';
import { productPath } from './shop-pages.js';
import {
  addressLines,
  HOST_STORE_ROUTES,
  payloadView,
  text,
  wholeNumber,
  type PageKit,
  type PageResult,
} from './page-kit.js';

export const ORDERS_PATH = '/account/orders';
/** The order-again add-on's page (src/plugin/order-again), linked from the order page when the caller may open it. */
const ORDER_AGAIN_PAGE = '/account/order-again';
export const ADDRESSES_PATH = '/account/addresses';
const ORDERS_PAGE_SIZE = 20;
/** Changing the company's default addresses is part of ordering for it (the add-on's address switch route asks the same). */
const ADDRESS_PERMISSION = 'orders.create';

const documentPath = (orderId: string, documentId: string) => `${orderPath(orderId)}/documents/${documentId}`;

const ORDER_NOTICES: Record<string, string> = {
  ordered: 'Thank you! Your order was placed. The confirmation is on its way by e-mail.',
};
const ADDRESS_NOTICES: Record<string, string> = {
  billing: 'Your default billing address was changed.',
  shipping: 'Your default shipping address was changed.',
};

export function accountPages(kit: PageKit): StorefrontPage[] {
  const { db } = kit.internals;
  // The runtime is assembled after the storefront module: read it when a page runs.
  const runtime = () => kit.internals.runtime;
  const timeZone = (ctx: StoreContext) => ctx.salesChannel.timeZone || 'UTC';

  async function ordersPage(ctx: StoreContext, query: Record<string, unknown>): Promise<PageResult> {
    const page = wholeNumber(query.page, 100_000) ?? 1;
    const { orders } = await kit.call(ctx, HOST_STORE_ROUTES.listOrders, {
      body: { page, limit: ORDERS_PAGE_SIZE },
    });
    const pages = Math.max(1, Math.ceil(orders.total / ORDERS_PAGE_SIZE));
    return {
      template: 'account-orders',
      data: {
        title: 'Your orders',
        orders: orders.elements.map((order) => ({
          ...order,
          url: orderPath(order.id),
          itemCount: order.lineItems.reduce((sum, line) => sum + Number(line.quantity), 0),
        })),
        total: orders.total,
        timeZone: timeZone(ctx),
        paging: {
          page,
          pages,
          beyond: page > pages,
          previous: page > 1 ? `${ORDERS_PATH}?page=${Math.min(page - 1, pages)}` : null,
          next: page < pages ? `${ORDERS_PATH}?page=${page + 1}` : null,
        },
      },
    };
  }

  async function orderPage(ctx: StoreContext, id: string, query: Record<string, unknown>): Promise<PageResult> {
    if (!isId(id)) throw Errors.notFound('Order', id);
    const order = await kit.call(ctx, HOST_STORE_ROUTES.readOrder, { params: { orderId: id } });
    return {
      template: 'account-order',
      data: {
        title: `Order ${order.orderNumber}`,
        order: {
          ...order,
          lineItems: order.lineItems.map((line, index) => ({
            ...line,
            pos: index + 1,
            productUrl: line.productId ? productPath(line.productId) : null,
            ...payloadView(line.payload),
          })),
          documents: order.documents.map((document) => ({ ...document, url: documentPath(order.id, document.id) })),
        },
        billingLines: addressLines(order.billingAddress),
        shippingLines: addressLines(order.shippingAddress),
        timeZone: timeZone(ctx),
        notice: typeof query.done === 'string' ? (ORDER_NOTICES[query.done] ?? null) : null,
        listUrl: ORDERS_PATH,
        orderAgainUrl: kit.mayOpen(ctx, ORDER_AGAIN_PAGE) ? `${ORDER_AGAIN_PAGE}?orderId=${order.id}` : null,
      },
    };
  }

  /** A browser cannot send the context token header the Store API download needs: the page runs that route's handler for it. */
  async function documentDownload(ctx: StoreContext, orderId: string, documentId: string): Promise<PageResult> {
    if (!isId(orderId) || !isId(documentId)) throw Errors.notFound('Document', documentId);
    const order = await kit.call(ctx, HOST_STORE_ROUTES.readOrder, { params: { orderId } });
    const document = order.documents.find((candidate) => candidate.id === documentId);
    if (!document) throw Errors.notFound('Document', documentId);
    const file = await kit.call(ctx, HOST_STORE_ROUTES.downloadDocument, { params: { documentId } });
    return {
      file: {
        fileName: document.fileName,
        contentType: file.contentType ?? 'application/pdf',
        content: file.body as Buffer,
      },
    };
  }

  async function addressesPage(ctx: StoreContext, query: Record<string, unknown>): Promise<PageResult> {
    const customer = requireCustomer(ctx);
    const list = await runtime().customers.addresses(db, customer.id);
    const defaults = await selectRow<{
      default_billing_address_id: string | null;
      default_shipping_address_id: string | null;
    }>(db('customers').where({ id: customer.id }).first('default_billing_address_id', 'default_shipping_address_id'));
    return {
      template: 'account-addresses',
      data: {
        title: 'Your addresses',
        addresses: list.map((address) => ({
          id: address.id,
          lines: addressLines(address),
          isBilling: address.id === defaults?.default_billing_address_id,
          isShipping: address.id === defaults?.default_shipping_address_id,
        })),
        mayChange: ctx.can(ADDRESS_PERMISSION),
        notice: typeof query.done === 'string' ? (ADDRESS_NOTICES[query.done] ?? null) : null,
      },
    };
  }

  return [
    { path: ORDERS_PATH, auth: 'login', handler: ({ ctx, query }) => ordersPage(ctx, query) },
    {
      path: `${ORDERS_PATH}/:id`,
      auth: 'login',
      handler: ({ ctx, params, query }) => orderPage(ctx, params.id!, query),
    },
    {
      path: `${ORDERS_PATH}/:id/documents/:documentId`,
      auth: 'login',
      handler: ({ ctx, params }) => documentDownload(ctx, params.id!, params.documentId!),
    },
    { path: ADDRESSES_PATH, auth: 'login', handler: ({ ctx, query }) => addressesPage(ctx, query) },
    {
      path: `${ADDRESSES_PATH}/default`,
      method: 'POST',
      auth: 'login',
      async handler({ ctx, form }) {
        const customer = requireCustomer(ctx);
        if (!ctx.can(ADDRESS_PERMISSION))
          throw Errors.forbidden(`The permission "${ADDRESS_PERMISSION}" is required.`, 'SUITE__PERMISSION_DENIED');
        const type = text(form, 'type');
        const addressId = text(form, 'addressId', 64);
        if (type !== 'billing' && type !== 'shipping')
          throw Errors.badRequest('SUITE__INVALID_INPUT', 'Choose billing or shipping.', { pointer: '/type' });
        if (!isId(addressId) || !(await runtime().customers.setDefaultAddress(db, customer.id, type, addressId)))
          throw Errors.notFound('Address', addressId);
        return { redirect: `${ADDRESSES_PATH}?done=${type}` };
      },
    },
  ];
}
