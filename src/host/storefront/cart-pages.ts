import { selectRow } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { isId } from '../../lib/ids.js';
import { routeRef, type AnswerOf } from '../../lib/routes.js';
import { requireCustomer } from '../checkout/cart-service.js';
import type { StoreContext, StorefrontPage } from '../../contract/index.js';
import {
  addressLines,
  payloadView,
  refusalOf,
  text,
  wholeNumber,
  HOST_STORE_ROUTES,
  type Form,
  type PageKit,
  type PageResult,
  type Refusal,
} from './page-kit.js';
import { PRODUCT_LIST_ADD_PATH, productPath } from './shop-pages.js';

/** The cart answer (the response schema in src/host/checkout/schemas.ts). */
type CartView = AnswerOf<typeof HOST_STORE_ROUTES.readCart>;
type Address = Record<string, unknown> & { id: string };

export const CART_PATH = '/cart';
export const CHECKOUT_PATH = '/checkout';
export const orderPath = (id: string) => `/account/orders/${id}`;

/**
 * The Store API route the order-approval refusal names in `meta.createApproval` (the spec's path).
 * The checkout offers "request approval" only when that route is loaded.
 */
export const APPROVAL_REQUEST_PATH = '/store-api/order-approval/create';
const APPROVAL_LIST_PAGE = '/account/order-approvals';
/** The offer add-on's "ask for an offer for this cart" page; linked when mounted and the caller may open it. */
const OFFER_REQUEST_PAGE = '/account/offers/request';

/** What a redirect may announce; nothing of the query string is echoed. */
const NOTICES: Record<string, string> = {
  added: 'The product was added to your cart.',
  updated: 'The quantity was changed.',
  removed: 'The item was removed from your cart.',
  participant: 'The participant was changed.',
};

const notice = (query: Record<string, unknown>) =>
  typeof query.done === 'string' ? (NOTICES[query.done] ?? null) : null;

function cartView(cart: CartView) {
  return {
    lineItems: cart.lineItems.map((line) => ({
      ...line,
      productUrl: line.productId ? productPath(line.productId) : null,
      ...payloadView(line.payload),
    })),
    price: cart.price,
    errors: cart.errors,
    empty: cart.lineItems.length === 0 && cart.errors.length === 0,
  };
}

/** The next step a refusal offers, when its page or route is there. */
function nextSteps(
  kit: PageKit,
  refusal: Refusal,
): { requestApproval: boolean; links: Array<{ href: string; label: string }> } {
  const links: Array<{ href: string; label: string }> = [];
  const link = (href: string, label: string) => {
    if (kit.hasPage(href)) links.push({ href, label });
  };
  let requestApproval = false;
  switch (refusal.code) {
    case 'SUITE__ORDER_APPROVAL_REQUIRED': {
      const target = refusal.meta.createApproval as { method?: string; path?: string } | undefined;
      requestApproval =
        target?.path === APPROVAL_REQUEST_PATH && kit.routeAt(target.method ?? 'POST', target.path) !== null;
      link(APPROVAL_LIST_PAGE, 'See your order approvals');
      break;
    }
    case 'SUITE__BUDGET_EXCEEDED':
      link('/account/budgets', 'See your budgets');
      break;
    case 'SUITE__EVENT_FULL':
      link('/account/events', 'See the events and their waiting lists');
      break;
    case 'SUITE__CART_ALREADY_ORDERED':
      // A second click on "Order now": the first one placed the order.
      link('/account/orders', 'See your orders');
      break;
  }
  link(CART_PATH, 'Change your cart');
  return { requestApproval, links };
}

// The runtime is assembled after the storefront module: read it when a page runs.
const runtime = (kit: PageKit) => kit.internals.runtime;

async function cartPage(
  kit: PageKit,
  ctx: StoreContext,
  extra: { notice?: string | null; error?: Refusal } = {},
  status = 200,
): Promise<PageResult> {
  const cart = await kit.call(ctx, HOST_STORE_ROUTES.readCart);
  const mayOrder = ctx.can('orders.create');
  return {
    template: 'cart',
    status,
    data: {
      title: 'Your cart',
      cart: cartView(cart),
      currency: ctx.salesChannel.currencyIso,
      notice: extra.notice ?? null,
      error: extra.error ?? null,
      mayOrder,
      express: mayOrder && cart.lineItems.length > 0 ? await expressAddresses(kit, ctx) : null,
      saveAsListUrl: kit.mayOpen(ctx, PRODUCT_LIST_ADD_PATH) ? `${PRODUCT_LIST_ADD_PATH}?fromCart=1` : null,
      offerRequestUrl: cart.lineItems.length > 0 && kit.mayOpen(ctx, OFFER_REQUEST_PAGE) ? OFFER_REQUEST_PAGE : null,
    },
  };
}

/** Express checkout orders to the customer's default addresses (shipping: the billing address when none is set); shown as text on the cart. */
async function expressAddresses(kit: PageKit, ctx: StoreContext) {
  const known = await addresses(kit, ctx);
  const billing = known.list.find((address) => address.id === known.billingId) ?? null;
  const shipping = known.list.find((address) => address.id === (known.shippingId ?? known.billingId)) ?? billing;
  if (!billing) return { ready: false, billing: '', shipping: '' };
  return { ready: true, billing: addressLines(billing).join(', '), shipping: addressLines(shipping).join(', ') };
}

async function addresses(kit: PageKit, ctx: StoreContext) {
  const { db } = kit.internals;
  const customer = requireCustomer(ctx);
  const list = await runtime(kit).customers.addresses(db, customer.id);
  const defaults = await selectRow<{
    default_billing_address_id: string | null;
    default_shipping_address_id: string | null;
  }>(db('customers').where({ id: customer.id }).first('default_billing_address_id', 'default_shipping_address_id'));
  return {
    list,
    billingId: defaults?.default_billing_address_id ?? null,
    shippingId: defaults?.default_shipping_address_id ?? null,
  };
}

function addressOptions(list: Address[], selected: string | null) {
  return list.map((address) => ({
    id: address.id,
    text: addressLines(address).join(', '),
    selected: address.id === selected,
  }));
}

interface CheckoutChoice {
  billingAddressId: string | null;
  shippingAddressId: string | null;
  customerComment: string;
  /** Technical names; null: the checkout's default (the first offered). */
  shippingMethod?: string | null;
  paymentMethod?: string | null;
}

/** The methods offered to the caller (the Store API lists, narrowed by the plugins), the chosen or first one selected. */
async function methodOptions(
  kit: PageKit,
  ctx: StoreContext,
  route: typeof HOST_STORE_ROUTES.listShippingMethods | typeof HOST_STORE_ROUTES.listPaymentMethods,
  chosen: string | null | undefined,
) {
  const { elements } = await kit.call(ctx, route, { body: {} });
  const selected = elements.some((m) => m.technicalName === chosen) ? chosen : elements[0]?.technicalName;
  return elements.map((m) => ({ value: m.technicalName, label: m.name, selected: m.technicalName === selected }));
}

async function checkoutPage(
  kit: PageKit,
  ctx: StoreContext,
  choice: Partial<CheckoutChoice> = {},
  refusal?: Refusal,
): Promise<PageResult> {
  const cart = await kit.call(ctx, HOST_STORE_ROUTES.readCart);
  const known = await addresses(kit, ctx);
  const billing = choice.billingAddressId ?? known.billingId;
  const shipping = choice.shippingAddressId ?? known.shippingId ?? billing;
  const [shippingMethods, paymentMethods] = await Promise.all([
    methodOptions(kit, ctx, HOST_STORE_ROUTES.listShippingMethods, choice.shippingMethod),
    methodOptions(kit, ctx, HOST_STORE_ROUTES.listPaymentMethods, choice.paymentMethod),
  ]);
  return {
    template: 'checkout',
    status: refusal?.status ?? 200,
    data: {
      title: 'Checkout',
      cart: cartView(cart),
      currency: ctx.salesChannel.currencyIso,
      billingOptions: addressOptions(known.list, billing),
      shippingOptions: addressOptions(known.list, shipping),
      hasAddresses: known.list.length > 0,
      shippingMethods,
      paymentMethods,
      customerComment: choice.customerComment ?? '',
      mayOrder: ctx.can('orders.create'),
      refusal: refusal ?? null,
      next: refusal ? nextSteps(kit, refusal) : null,
      choice: {
        billingAddressId: billing ?? '',
        shippingAddressId: shipping ?? '',
        customerComment: choice.customerComment ?? '',
        shippingMethod: choice.shippingMethod ?? '',
        paymentMethod: choice.paymentMethod ?? '',
      },
    },
  };
}

/** The address ids and comment of the checkout form; an id that is not one is refused before anything runs. */
function choiceOf(form: Form): CheckoutChoice {
  const id = (name: string) => {
    const value = text(form, name, 64);
    if (value === '') return null;
    if (!isId(value))
      throw Errors.badRequest('SUITE__INVALID_INPUT', 'Please choose one of your addresses.', {
        pointer: `/${name}`,
      });
    return value;
  };
  const method = (name: string) => text(form, name, 64) || null;
  return {
    billingAddressId: id('billingAddressId'),
    shippingAddressId: id('shippingAddressId'),
    customerComment: text(form, 'customerComment', 2000),
    shippingMethod: method('shippingMethod'),
    paymentMethod: method('paymentMethod'),
  };
}

/** Order now: the host checkout locks and re-reads the cart and every checkout interceptor (approval, budgets, events) runs; a refusal shows the checkout with the next step. */
async function orderNow(kit: PageKit, ctx: StoreContext, choice: CheckoutChoice): Promise<PageResult> {
  const placed = await refusalOf(
    () =>
      kit.call(ctx, HOST_STORE_ROUTES.placeOrder, {
        body: {
          billingAddressId: choice.billingAddressId,
          shippingAddressId: choice.shippingAddressId,
          customerComment: choice.customerComment || null,
          shippingMethod: choice.shippingMethod ?? null,
          paymentMethod: choice.paymentMethod ?? null,
        },
      }),
    'The order could not be placed',
  );
  if ('refusal' in placed) return checkoutPage(kit, ctx, choice, placed.refusal);
  const order = placed.value;
  if (ctx.can('orders.read')) return { redirect: `${orderPath(order.id)}?done=ordered` };
  return {
    template: 'message',
    data: {
      title: 'Thank you for your order',
      message: `Your order ${order.orderNumber} was placed.`,
      link: { href: '/', label: 'Back to the shop' },
    },
  };
}

async function lineAction(
  kit: PageKit,
  ctx: StoreContext,
  work: () => Promise<unknown>,
  done: string,
): Promise<PageResult> {
  const result = await refusalOf(work);
  if ('refusal' in result) return cartPage(kit, ctx, { error: result.refusal }, result.refusal.status);
  return { redirect: `${CART_PATH}?done=${done}` };
}

/** Asks for an order approval of the cart (the order-approval add-on's route), with the checkout's choice. */
async function requestApproval(kit: PageKit, ctx: StoreContext, form: Form): Promise<PageResult> {
  const route = kit.routeAt('POST', APPROVAL_REQUEST_PATH);
  if (!route) throw Errors.notFound('page');
  const parsed = await refusalOf(() => Promise.resolve(choiceOf(form)));
  if ('refusal' in parsed) return checkoutPage(kit, ctx, {}, parsed.refusal);
  const choice = parsed.value;
  const cart = await runtime(kit).cart.current(runtime(kit).db, ctx);
  const requested = await refusalOf(
    () =>
      // An add-on's route, found by its path at run time: its input is not typed here.
      kit.call(ctx, routeRef<{ body: Record<string, unknown> }, unknown>(route.operationId), {
        body: {
          cartToken: cart.token,
          billingAddressId: choice.billingAddressId,
          shippingAddressId: choice.shippingAddressId,
          customerComment: choice.customerComment || null,
          // The approved order is placed with the methods chosen here.
          ...(choice.shippingMethod ? { shippingMethod: choice.shippingMethod } : {}),
          ...(choice.paymentMethod ? { paymentMethod: choice.paymentMethod } : {}),
        },
      }),
    'The approval could not be requested',
  );
  if ('refusal' in requested) return checkoutPage(kit, ctx, choice, requested.refusal);
  return { redirect: kit.hasPage(APPROVAL_LIST_PAGE) ? APPROVAL_LIST_PAGE : '/account' };
}

/** The cart page and its line changes. */
function cartLinePages(kit: PageKit): StorefrontPage[] {
  return [
    { path: CART_PATH, auth: 'login', handler: ({ ctx, query }) => cartPage(kit, ctx, { notice: notice(query) }) },
    {
      path: `${CART_PATH}/add`,
      method: 'POST',
      auth: 'login',
      async handler({ ctx, form }) {
        const productId = text(form, 'productId', 64);
        const quantity = wholeNumber(form.quantity ?? '1');
        if (!isId(productId)) throw Errors.notFound('product', productId);
        if (quantity === null)
          return cartPage(
            kit,
            ctx,
            {
              error: {
                status: 400,
                code: 'SUITE__INVALID_QUANTITY',
                title: 'Quantity not possible',
                detail: 'Please enter a quantity of at least 1.',
                meta: {},
              },
            },
            400,
          );
        return lineAction(
          kit,
          ctx,
          () =>
            kit.call(ctx, HOST_STORE_ROUTES.addLineItems, {
              body: { items: [{ type: 'product', productId, quantity }] },
            }),
          'added',
        );
      },
    },
    {
      path: `${CART_PATH}/update`,
      method: 'POST',
      auth: 'login',
      async handler({ ctx, form }) {
        const id = text(form, 'lineItemId', 64);
        if (!isId(id)) throw Errors.notFound('Line item', id);
        if (text(form, 'quantity') === '0')
          return lineAction(
            kit,
            ctx,
            () => kit.call(ctx, HOST_STORE_ROUTES.removeLineItems, { body: { ids: [id] } }),
            'removed',
          );
        const quantity = wholeNumber(form.quantity);
        if (quantity === null)
          return cartPage(
            kit,
            ctx,
            {
              error: {
                status: 400,
                code: 'SUITE__INVALID_QUANTITY',
                title: 'Quantity not possible',
                detail: 'Please enter a whole number of at least 1 (0 removes the item).',
                meta: {},
              },
            },
            400,
          );
        return lineAction(
          kit,
          ctx,
          () => kit.call(ctx, HOST_STORE_ROUTES.updateLineItems, { body: { items: [{ id, quantity }] } }),
          'updated',
        );
      },
    },
    {
      // An event ticket's participant: the cart's normal line change with a new `payload.participant`, so the
      // add-on's line-item processor checks it (names, e-mail, already registered) as for a new ticket.
      path: `${CART_PATH}/participant`,
      method: 'POST',
      auth: 'login',
      async handler({ ctx, form }) {
        const id = text(form, 'lineItemId', 64);
        if (!isId(id)) throw Errors.notFound('Line item', id);
        const cart = await kit.call(ctx, HOST_STORE_ROUTES.readCart);
        const line = cart.lineItems.find((candidate) => candidate.id === id);
        if (!line || !line.payload || typeof line.payload.participant !== 'object' || line.payload.participant === null)
          throw Errors.notFound('Line item', id);
        const participant = {
          firstName: text(form, 'firstName', 255),
          lastName: text(form, 'lastName', 255),
          email: text(form, 'email', 255),
        };
        return lineAction(
          kit,
          ctx,
          () =>
            kit.call(ctx, HOST_STORE_ROUTES.updateLineItems, {
              body: { items: [{ id, payload: { ...line.payload, participant } }] },
            }),
          'participant',
        );
      },
    },
    {
      path: `${CART_PATH}/remove`,
      method: 'POST',
      auth: 'login',
      async handler({ ctx, form }) {
        const id = text(form, 'lineItemId', 64);
        if (!isId(id)) throw Errors.notFound('Line item', id);
        return lineAction(
          kit,
          ctx,
          () => kit.call(ctx, HOST_STORE_ROUTES.removeLineItems, { body: { ids: [id] } }),
          'removed',
        );
      },
    },
  ];
}

/** The checkout: its page, ordering, express checkout from the cart, and asking for an approval. */
function checkoutPages(kit: PageKit): StorefrontPage[] {
  return [
    { path: CHECKOUT_PATH, auth: 'login', handler: ({ ctx }) => checkoutPage(kit, ctx) },
    {
      path: `${CHECKOUT_PATH}/order`,
      method: 'POST',
      auth: 'login',
      async handler({ ctx, form }) {
        const parsed = await refusalOf(() => Promise.resolve(choiceOf(form)));
        if ('refusal' in parsed) return checkoutPage(kit, ctx, {}, parsed.refusal);
        return orderNow(kit, ctx, parsed.value);
      },
    },
    {
      // Express checkout from the cart: one step, the customer's default addresses (null: placeOrder takes the defaults).
      path: `${CHECKOUT_PATH}/express`,
      method: 'POST',
      auth: 'login',
      async handler({ ctx, form }) {
        const express = await expressAddresses(kit, ctx);
        if (!express.ready)
          return cartPage(
            kit,
            ctx,
            {
              error: {
                status: 400,
                code: 'SUITE__NO_DEFAULT_ADDRESS',
                title: 'No default address',
                detail:
                  'Express checkout orders to your default billing address, and your account has none. Please use the checkout.',
                meta: {},
              },
            },
            400,
          );
        return orderNow(kit, ctx, {
          billingAddressId: null,
          shippingAddressId: null,
          customerComment: text(form, 'customerComment', 2000),
        });
      },
    },
    {
      path: `${CHECKOUT_PATH}/request-approval`,
      method: 'POST',
      auth: 'login',
      handler: ({ ctx, form }) => requestApproval(kit, ctx, form),
    },
  ];
}

export function cartPages(kit: PageKit): StorefrontPage[] {
  return [...cartLinePages(kit), ...checkoutPages(kit)];
}
