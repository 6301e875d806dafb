import {
  Customer,
  I18nError,
  isGraphQlErrorResult,
  Order,
  OrderLine,
  OrderService,
  PaymentMethod,
  RequestContextService,
  ShippingMethod,
  TransactionalConnection,
  type ID,
  type Injector,
  type OrderItemPriceCalculationStrategy,
  type PriceCalculationResult,
  type ProductVariant,
  type RequestContext,
} from '@vendure/core';
import type {
  CartLineItem,
  CustomerRef,
  PlacedOrder,
  PlaceOrderOptions,
  PriceLine,
  StoreContext,
} from '../../contract/index.js';
import { notAvailable, requireCustomer } from '../../host-kit/cart-rules.js';
import {
  checkOrder,
  checkStock,
  givenLineItems,
  processedGivenLines,
  type OrderCheck,
} from '../../host-kit/checkout-kernel.js';
import { forUpdate, inTransaction, readBool, selectRow, transactionOf, type Executor, type Trx } from '../../lib/db.js';
import { AppError, Errors } from '../../lib/errors.js';
import { orderAddressInput } from './addresses.js';
import { channelMethodsOnVendure, pluginPaymentMethods } from './payment-methods.js';
import { changedLineFields } from './participants.js';
import { vendureContextInTransaction } from './shared-transaction.js';
import { allowedMethods } from '../../host-kit/registries.js';
import { vendureServices, type AdapterState } from './state.js';
import { column, selectAs, table } from './vendure-schema.js';
import { notSupported } from './unsupported.js';

/**
 * The OrderLine custom field that carries a price the plugin gave (approval execute, offer accept):
 * the net unit price in minor units. Internal (not in Vendure's GraphQL schema): only placeOrder
 * sets it, through OrderService.
 */
export const GIVEN_PRICE_FIELD = 'suiteB2BUnitNet';

/**
 * Vendure takes one OrderItemPriceCalculationStrategy: the adapter wraps the configured one. A line
 * with a given price (GIVEN_PRICE_FIELD) costs that net price; every other line is the wrapped
 * strategy's (which takes the variant price, the plugin's customer price included, prices.ts).
 */
export class SuiteB2BGivenPriceStrategy implements OrderItemPriceCalculationStrategy {
  constructor(
    private readonly inner: OrderItemPriceCalculationStrategy,
    /** The plugin's price for the line's quantity (customer prices from a minimum quantity), or null. */
    private readonly quantityPrice?: (
      ctx: RequestContext,
      variant: ProductVariant,
      quantity: number,
    ) => Promise<number | null>,
  ) {}

  async init(injector: Injector): Promise<void> {
    await this.inner.init?.(injector);
  }

  async destroy(): Promise<void> {
    await this.inner.destroy?.();
  }

  async calculateUnitPrice(
    ctx: RequestContext,
    variant: ProductVariant,
    customFields: Record<string, unknown>,
    order: Order,
    quantity: number,
  ): Promise<PriceCalculationResult> {
    const given = customFields?.[GIVEN_PRICE_FIELD];
    if (typeof given === 'number' && Number.isSafeInteger(given)) return { price: given, priceIncludesTax: false };
    const forQuantity = quantity > 1 && this.quantityPrice ? await this.quantityPrice(ctx, variant, quantity) : null;
    // A customer price is in the channel's terms (decision 0032); a given price (approved, offered) is net.
    if (forQuantity !== null) return { price: forQuantity, priceIncludesTax: ctx.channel.pricesIncludeTax };
    return this.inner.calculateUnitPrice(ctx, variant, customFields, order, quantity);
  }
}

/** A Vendure order line as OrderService answers it (the parts read here). */
interface VendureLine {
  id: string | number;
  productVariantId: string | number;
  quantity: number;
  customFields?: Record<string, unknown>;
}

/**
 * checkout.placeOrder on Vendure for given lines (approval execute, offer accept): the lines are
 * checked (products, stock, the line-item processors' 'order' phase), then Vendure's OrderService
 * builds a real Vendure order — create for the customer's user, addItemToOrder with the given net
 * prices, the addresses, the named (or first eligible allowed) shipping method — the checkout
 * interceptors run on it with its shipping (but `skipInterceptors`), then ArrangingPayment, a payment
 * with the named (or configured, or first eligible allowed) method, and the order-placed hooks. All of it in the caller's transaction (or one of its own): Vendure's
 * services write through a RequestContext on that transaction (shared-transaction.ts), so a refusal
 * anywhere leaves neither the Vendure order nor the plugin's rows.
 *
 * A `cartToken` (express checkout, the event checkout) orders that cart — the buyer's Vendure
 * active order (cart.ts) — the same way: the order row is locked, its lines (the cart's, at
 * Vendure's prices, processed in the 'order' phase: participants registered) are the draft, the
 * processed payloads are written back to the lines, then the existing order goes through Vendure's
 * order process (addresses, shipping, the interceptors, ArrangingPayment, payment) and the hooks run. Vendure's OrderInterceptors ran when its lines were added.
 */
export function placeOrderOnVendure(state: AdapterState) {
  return async (executor: Executor, ctx: StoreContext, options: PlaceOrderOptions): Promise<PlacedOrder> => {
    const customer = requireCustomer(ctx);
    const trx = transactionOf(executor);
    if (trx) return place(state, ctx, customer, options, trx);
    await ctx.ruleIds();
    return inTransaction(state.db, (t) => place(state, ctx, customer, options, t));
  };
}

// eslint-disable-next-line max-lines-per-function -- longer than 150 lines before the 150-line rule covered all of src; split it when it next changes
async function place(
  state: AdapterState,
  ctx: StoreContext,
  customer: CustomerRef,
  options: PlaceOrderOptions,
  trx: Trx,
): Promise<PlacedOrder> {
  const { ids } = state;
  // The checkout kernel's order: the lines processed, the draft, the interceptors (decision 0063).
  const check = checkOrder(state.registries, trx, ctx, options);
  const fromCart = options.cartToken ? await cartLines(state, ctx, customer, options.cartToken, check, trx) : null;
  const lines = fromCart ? fromCart.lines : await givenLines(state, options.lines ?? [], check, trx);
  const addresses = await state.runtime.customers.addresses(trx, customer.id);
  const defaults = await state.runtime.customers.defaultAddressIds(trx, customer.id);
  const addressOf = (addressId: string | null | undefined, type: 'billing' | 'shipping') => {
    const found = addresses.find((a) => a.id === (addressId ?? defaults[type]));
    if (addressId && !found) throw Errors.notFound('Address', addressId);
    return found ?? null;
  };
  const billing = addressOf(options.billingAddressId, 'billing');
  const shipping = addressOf(options.shippingAddressId, 'shipping') ?? billing;

  const draft = check.draft({ lines, billingAddress: billing, shippingAddress: shipping, options });
  if (options.paymentMethod) {
    // (3.5) A plugin's method (payment on account) or a Vendure payment method's code.
    const known =
      state.registries.paymentMethods.some((m) => m.technicalName === options.paymentMethod) ||
      (await selectRow(
        trx(table(PaymentMethod))
          .where(column(PaymentMethod, 'code'), options.paymentMethod)
          .first(selectAs(PaymentMethod, undefined, 'id')),
      )) !== undefined;
    if (!known)
      throw Errors.badRequest(
        'SUITE__PAYMENT_METHOD_UNKNOWN',
        `There is no payment method "${options.paymentMethod}".`,
        {
          pointer: '/paymentMethod',
        },
      );
    draft.paymentMethod = options.paymentMethod;
  }
  // (4.1) Naming none, the buyer's unit may allow only some methods: Vendure's default choice (below) leaves
  // plugin methods out, so where only plugin methods are allowed the first of them is the order's, as if
  // named, for the interceptors to see (on account: the credit line's check), as the reference host does.
  const allowedPayment = options.paymentMethod ? null : await allowedMethods(state.registries, trx, ctx, 'payment');
  if (allowedPayment) {
    const pluginNames = new Set(state.registries.paymentMethods.map((m) => m.technicalName));
    const allowed = (await channelMethodsOnVendure(trx, state.registries.paymentMethods, 'payment'))
      .map((m) => m.technicalName)
      .filter((name) => allowedPayment.has(name));
    if (allowed.length > 0 && allowed.every((name) => pluginNames.has(name))) draft.paymentMethod = allowed[0];
  }
  if (options.shippingMethod) {
    // (4.1) A Vendure shipping method's code.
    const known = await selectRow(
      trx(table(ShippingMethod))
        .where(column(ShippingMethod, 'code'), options.shippingMethod)
        .whereNull(column(ShippingMethod, 'deletedAt'))
        .first(selectAs(ShippingMethod, undefined, 'id')),
    );
    if (!known)
      throw Errors.badRequest(
        'SUITE__SHIPPING_METHOD_UNKNOWN',
        `There is no shipping method "${options.shippingMethod}".`,
        { pointer: '/shippingMethod' },
      );
    draft.shippingMethod = options.shippingMethod;
  }

  const vendure = vendureServices(state);
  const orders = vendure.service(OrderService);
  const base = await vendure.service(RequestContextService).create({ apiType: 'shop' });
  const vctx = await vendureContextInTransaction(vendure.service(TransactionalConnection), base, trx);

  let orderId: ID;
  if (fromCart) {
    orderId = fromCart.orderId;
  } else {
    const userRow = await selectRow<{ userId: string | number | null }>(
      trx(table(Customer))
        .where(column(Customer, 'id'), ids.toVendure(customer.id))
        .first(`${column(Customer, 'user')} as userId`),
    );
    if (!userRow?.userId)
      throw Errors.badRequest('SUITE__CUSTOMER_NOT_ACTIVE', 'The customer has no Vendure account to order with.');
    orderId = (await orders.create(vctx, userRow.userId)).id;
  }
  const orderKey = String(orderId);
  state.placing.set(orderKey, ctx.actor);
  try {
    if (fromCart) {
      // The processors' payloads (a participant's record id) go with the lines, as the order process writes them (order-process.ts).
      const order = (await orders.findOne(vctx, orderId))!;
      const byId = new Map(draft.lines.map((line) => [line.lineItemId, line]));
      const items = order.lines.map((line) => byId.get(ids.toPlugin(line.id)) ?? { payload: {} });
      for (const { line, fields } of changedLineFields(order, items as CartLineItem[]))
        await vendure
          .service(TransactionalConnection)
          .getRepository(vctx, OrderLine)
          .update(line.id, { customFields: fields });
      // A cart a Shop API client took to payment already goes back to AddingItems first (Vendure's default process allows it).
      if (order.state === 'ArrangingPayment') {
        const back = await orders.transitionToState(vctx, orderId, 'AddingItems');
        if (isGraphQlErrorResult(back)) throw refusalOf(back);
      }
    } else {
      for (const line of draft.lines) {
        const added = await orders.addItemToOrder(vctx, orderId, ids.toVendure(line.productId!)!, line.quantity, {
          [GIVEN_PRICE_FIELD]: line.unitNet,
        });
        if (isGraphQlErrorResult(added)) throw refusalOf(added, line);
      }
    }
    const shippingInput = shipping && (await orderAddressInput(ids, trx, shipping.id));
    const billingInput = billing && (await orderAddressInput(ids, trx, billing.id));
    if (shippingInput) await orders.setShippingAddress(vctx, orderId, shippingInput);
    if (billingInput) await orders.setBillingAddress(vctx, orderId, billingInput);
    // The named method, else the first eligible one the plugin's restrictions (the buyer's unit) allow.
    const allowedShipping = draft.shippingMethod
      ? new Set([draft.shippingMethod])
      : await allowedMethods(state.registries, trx, ctx, 'shipping');
    const shippingMethod = (await orders.getEligibleShippingMethods(vctx, orderId)).find(
      (quote) => !allowedShipping || allowedShipping.has(quote.code),
    );
    if (!shippingMethod && allowedShipping)
      throw Errors.badRequest(
        'SUITE__SHIPPING_METHOD_NOT_AVAILABLE',
        draft.shippingMethod
          ? `The shipping method "${draft.shippingMethod}" is not available for this order.`
          : 'None of the shipping methods allowed to you is available for this order.',
        { pointer: '/shippingMethod' },
      );
    if (shippingMethod) {
      const set = await orders.setShippingMethod(vctx, orderId, [shippingMethod.id]);
      if (isGraphQlErrorResult(set)) throw refusalOf(set);
      draft.shippingMethod = shippingMethod.code;
    }
    // The interceptors see the order as it will be charged: with its shipping (as on the Shop API
    // path, order-process.ts), so a credit line is checked against what it is charged. A refusal
    // rolls the Vendure order back with the transaction.
    const priced = (await orders.findOne(vctx, orderId))!;
    draft.netTotal = priced.subTotal + priced.shipping;
    draft.total = priced.totalWithTax;
    draft.taxTotal = priced.totalWithTax - draft.netTotal;
    await check.intercept(draft);
    const arranging = await orders.transitionToState(vctx, orderId, 'ArrangingPayment');
    if (isGraphQlErrorResult(arranging)) throw refusalOf(arranging);
    const methods = await orders.getEligiblePaymentMethods(vctx, orderId);
    // A plugin method (on account) is paid by its own handler's Vendure method; the default leaves them out.
    const pluginMethods = await pluginPaymentMethods(trx);
    // The shop's configured default only where the buyer's unit allows it (else the first eligible allowed method).
    const configured = state.options.placedOrderPaymentMethod;
    const wanted = draft.paymentMethod
      ? ([...pluginMethods].find(([, name]) => name === draft.paymentMethod)?.[0] ?? draft.paymentMethod)
      : configured && (!allowedPayment || allowedPayment.has(pluginMethods.get(configured) ?? configured))
        ? configured
        : undefined;
    const method = methods.find(
      (m) =>
        m.isEligible &&
        (wanted ? m.code === wanted : !pluginMethods.has(m.code) && (!allowedPayment || allowedPayment.has(m.code))),
    );
    if (!method)
      throw Errors.badRequest(
        'SUITE__PAYMENT_METHOD_NOT_AVAILABLE',
        wanted || draft.paymentMethod
          ? `The payment method "${draft.paymentMethod ?? wanted}" is not available for this order.`
          : allowedPayment
            ? 'None of the payment methods allowed to you is available for this order.'
            : 'No payment method is available for this order.',
      );
    const paid = await orders.addPaymentToOrder(vctx, orderId, {
      method: method.code,
      metadata: { suiteB2BOrigin: draft.origin },
    });
    if (isGraphQlErrorResult(paid)) throw refusalOf(paid);
  } catch (error) {
    // Vendure's thrown client errors (a variant no longer available …) are the order's refusal, not a 500.
    if (error instanceof I18nError && !(error instanceof AppError))
      throw Errors.badRequest('SUITE__ORDER_NOT_PLACED', `Vendure refused the order: ${error.message}`);
    throw error;
  } finally {
    state.placing.delete(orderKey);
  }

  const order = (await orders.findOne(vctx, orderId, ['lines']))!;
  const vendureLines = [...(order.lines as unknown as VendureLine[])];
  // A cart's lines are the order's lines already (their ids are Vendure's).
  const placedLines = fromCart
    ? draft.lines.map((line) => ({ ...line, id: line.lineItemId }))
    : draft.lines.map((line) => {
        const variant = String(ids.toVendure(line.productId!));
        const index = vendureLines.findIndex(
          (l) => String(l.productVariantId) === variant && l.customFields?.[GIVEN_PRICE_FIELD] === line.unitNet,
        );
        const [match] = index < 0 ? [] : vendureLines.splice(index, 1);
        return { ...line, id: match ? ids.toPlugin(match.id) : line.lineItemId };
      });
  const netTotal = order.subTotal + order.shipping;
  const placed: PlacedOrder = {
    id: ids.toPlugin(order.id),
    orderNumber: order.code,
    customerId: customer.id,
    salesChannelId: draft.salesChannelId,
    netTotal,
    taxTotal: order.totalWithTax - netTotal,
    total: order.totalWithTax,
    lines: placedLines,
    origin: draft.origin,
    actor: ctx.actor,
    customFields: draft.customFields,
    ...(draft.paymentMethod ? { paymentMethod: draft.paymentMethod } : {}),
  };
  for (const hook of state.registries.orderPlacedHooks) await hook(trx, ctx, placed);
  return placed;
}

/**
 * The lines of a cart to order (as the reference host's checkout): the buyer's Vendure active order,
 * locked for the transaction (MariaDB; SQLite's writing transaction holds the database), its lines
 * visible, in stock, processed ('order': event tickets register their participants under the event
 * manager's locks) and priced as Vendure prices them (cart.price).
 */
async function cartLines(
  state: AdapterState,
  ctx: StoreContext,
  customer: CustomerRef,
  token: string,
  check: OrderCheck,
  trx: Trx,
): Promise<{ orderId: ID; lines: PriceLine[] }> {
  const orderId = state.ids.toVendure(token);
  const row = orderId
    ? await selectRow<{ id: string | number; customerId: string | number | null; active: unknown }>(
        forUpdate(trx(table(Order)).where(column(Order, 'id'), orderId), trx).first(
          selectAs(Order, undefined, 'id', 'customerId', 'active'),
        ),
      )
    : null;
  if (!row || row.customerId == null || state.ids.toPlugin(row.customerId) !== customer.id)
    throw Errors.notFound('Cart');
  if (!readBool(row.active))
    throw Errors.badRequest('SUITE__CART_ALREADY_ORDERED', 'This cart has been ordered already.');
  const cart = (await state.runtime.cart.get(trx, token))!;
  if (cart.lineItems.length === 0) throw Errors.badRequest('SUITE__CART_EMPTY', 'The cart is empty.');
  const products = new Map(
    (
      await state.runtime.catalog.visibleProducts(
        trx,
        ctx,
        cart.lineItems.map((l) => l.productId!),
      )
    ).map((p) => [p.id, p]),
  );
  const missing = cart.lineItems.find((line) => !products.has(line.productId!));
  if (missing) throw notAvailable(missing.productId);
  checkStock(cart.lineItems, products);
  const processed = new Map((await check.processLines(cart.lineItems)).map((item) => [item.id, item]));
  const priced = await state.runtime.cart.price(trx, ctx, cart);
  const unavailable = cart.lineItems.find((line) => !priced.lines.some((p) => p.lineItemId === line.id));
  if (unavailable) throw notAvailable(unavailable.productId);
  return {
    orderId: row.id,
    lines: priced.lines.map((line) => ({
      ...line,
      label: processed.get(line.lineItemId)!.label,
      payload: processed.get(line.lineItemId)!.payload ?? {},
    })),
  };
}

/** Lines priced elsewhere: prices stay; products, stock and the line-item processors are checked (as on the reference host). */
async function givenLines(state: AdapterState, given: PriceLine[], check: OrderCheck, trx: Trx): Promise<PriceLine[]> {
  const items = givenLineItems(given, (line) => {
    // A Vendure order holds product variants only.
    if (!line.productId) throw notSupported('checkout.placeOrder');
  });
  const byId = new Map(
    (
      await state.runtime.catalog.products(
        trx,
        given.map((l) => l.productId!),
      )
    ).map((p) => [p.id, p]),
  );
  const missing = given.find((line) => !byId.has(line.productId!));
  if (missing) throw notAvailable(missing.productId);
  checkStock(items, byId);
  return processedGivenLines(given, await check.processLines(items));
}

/** Vendure's answer (an ErrorResult) as the plugin's client error: stock, or the order process's refusal. */
function refusalOf(
  result: { errorCode?: string; message?: string; transitionError?: string },
  line?: PriceLine,
): AppError {
  if (result.errorCode === 'INSUFFICIENT_STOCK_ERROR' || result.errorCode === 'NEGATIVE_QUANTITY_ERROR')
    return Errors.badRequest('SUITE__PRODUCT_OUT_OF_STOCK', `Not enough of "${line?.label ?? ''}" is in stock.`, {
      meta: { productId: line?.productId ?? null },
    });
  const detail = result.transitionError ?? result.message ?? 'Vendure refused the order.';
  const code = /^(SUITE__[A-Z_]+): /.exec(detail)?.[1];
  return Errors.badRequest(
    code ?? 'SUITE__ORDER_NOT_PLACED',
    code ? detail.slice(code.length + 2) : `Vendure refused the order: ${detail}`,
    { meta: { vendureErrorCode: result.errorCode ?? null } },
  );
}
