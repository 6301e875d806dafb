import { Errors } from '../../lib/errors.js';
import { forUpdate, inTransaction, isDuplicateKeyError, selectRows, writeJson, type Trx } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { fromMinor, moneyText } from '../../lib/money.js';
import { nowDb } from '../../lib/time.js';
import type {
  AdminContext,
  CancellationContext,
  CheckoutMethodKind,
  CancelledOrder,
  CustomerAddress,
  CustomerRef,
  OrderDraft,
  PlaceOrderOptions,
  PlacedOrder,
  PriceLine,
  StoreContext,
} from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import { toAddress } from '../customer/customer-repository.js';
import { LINE_INSERT_CHUNK, lineItemRow, lineTax } from '../../lib/line-items.js';
import { CartService, notAvailable, outOfStock, requireCustomer } from './cart-service.js';
import { documents } from '../../host-kit/documents.js';
import { lockProductsVersion } from '../catalog/catalog-version.js';
import { getOrder } from './order-repository.js';
import {
  channelMethods,
  DEFAULT_PAYMENT_METHOD,
  DEFAULT_SHIPPING_METHOD,
  SHIPPING_METHODS,
  paymentMethodNames,
} from './methods.js';
import { allowedMethods } from '../../host-kit/registries.js';
import {
  checkOrder,
  checkStock,
  givenLineItems,
  processedGivenLines,
  quantitiesByProduct,
  type OrderCheck,
} from '../../host-kit/checkout-kernel.js';
import type { AddressRow, CustomerRow, SalesChannelRow } from '../customer/rows.js';
import type { CartRow, OrderRow } from './rows.js';

/** Order states an operator may cancel from (a shipped or completed order is returned, not cancelled). */
export const CANCELLABLE_ORDER_STATES = ['open', 'in_progress', 'paid'];

/** A snapshot field as text (address snapshots are open records: interceptors may change them). */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Places orders: one transaction from the locked cart (or given lines) to the written order, its invoice and the hooks. */
export class CheckoutService {
  constructor(
    private readonly internals: HostInternals,
    private readonly carts: CartService,
  ) {}

  private get runtime() {
    return this.internals.runtime;
  }

  async placeOrder(ctx: StoreContext, options: PlaceOrderOptions, trx?: Trx): Promise<PlacedOrder> {
    const customer = requireCustomer(ctx);
    if (trx) return this.place(ctx, customer, options, trx);
    // Rules are read on the root connection; read them before holding locks (SQLite has one connection).
    await ctx.ruleIds();
    return inTransaction(this.internals.db, (t) => this.place(ctx, customer, options, t));
  }

  /**
   * The method an order gets when it names none: standard and invoice, unless the plugins' restrictions
   * (a buyer's organisation unit) exclude it; then the first of the channel's methods they allow.
   */
  private async defaultMethod(trx: Trx, ctx: StoreContext, kind: CheckoutMethodKind): Promise<string> {
    const fallback = kind === 'payment' ? DEFAULT_PAYMENT_METHOD : DEFAULT_SHIPPING_METHOD;
    const allowed = await allowedMethods(this.internals.registries, trx, ctx, kind);
    if (!allowed || allowed.has(fallback)) return fallback;
    return (
      channelMethods(this.internals.registries, kind).find((m) => allowed.has(m.technicalName))?.technicalName ??
      fallback
    );
  }

  private async place(
    ctx: StoreContext,
    customer: CustomerRef,
    options: PlaceOrderOptions,
    trx: Trx,
  ): Promise<PlacedOrder> {
    const cartToken = options.cartToken ?? null;
    const paymentMethod = options.paymentMethod ?? (await this.defaultMethod(trx, ctx, 'payment'));
    if (!(paymentMethod in paymentMethodNames(this.internals.registries.paymentMethods)))
      throw Errors.badRequest('SUITE__PAYMENT_METHOD_UNKNOWN', `There is no payment method "${paymentMethod}".`, {
        pointer: '/paymentMethod',
      });
    const shippingMethod = options.shippingMethod ?? (await this.defaultMethod(trx, ctx, 'shipping'));
    if (!(shippingMethod in SHIPPING_METHODS))
      throw Errors.badRequest('SUITE__SHIPPING_METHOD_UNKNOWN', `There is no shipping method "${shippingMethod}".`, {
        pointer: '/shippingMethod',
      });
    // The checkout kernel's order: the lines processed, the draft, the interceptors (decision 0063).
    const check = checkOrder(this.internals.registries, trx, ctx, options);
    const lines = cartToken
      ? await this.linesFromCart(ctx, customer, cartToken, check, trx)
      : await this.givenLines(options.lines ?? [], check, trx);
    const billingAddress = await this.addressSnapshot(trx, customer.id, options.billingAddressId ?? null, 'billing');
    const shippingAddress = await this.addressSnapshot(trx, customer.id, options.shippingAddressId ?? null, 'shipping');
    const draft = check.draft({ lines, billingAddress, shippingAddress, options, paymentMethod, shippingMethod });
    await check.intercept(draft);

    await this.decrementStock(trx, draft.lines);

    const orderId = newId();
    const orderNumber = await this.runtime.nextNumber(trx, 'order');
    const now = nowDb();
    const customFields = draft.customFields;
    try {
      await trx('orders').insert({
        id: orderId,
        order_number: orderNumber,
        sales_channel_id: draft.salesChannelId,
        customer_id: customer.id,
        placed_by_type: ctx.actor.type,
        placed_by_id: ctx.actor.id,
        state: 'open',
        currency_iso: draft.currencyIso,
        net_total: draft.netTotal,
        tax_total: draft.taxTotal,
        total: draft.total,
        billing_address: writeJson(draft.billingAddress),
        shipping_address: writeJson(draft.shippingAddress),
        customer_comment: draft.customerComment,
        source_cart_token: cartToken,
        custom_fields: writeJson(customFields),
        order_customer: writeJson({
          customerId: customer.id,
          customerNumber: customer.customerNumber,
          email: customer.email,
          firstName: customer.firstName,
          lastName: customer.lastName,
          company: customer.company,
        }),
        order_date: now,
        created_at: now,
      });
    } catch (error) {
      if (isDuplicateKeyError(error))
        throw Errors.conflict('This cart is being ordered by another request.', 'SUITE__CART_ALREADY_ORDERED');
      throw error;
    }
    const placedLines = draft.lines.map((line) => ({ ...line, id: newId() }));
    const lineRows = placedLines.map((line, position) => ({
      id: line.id,
      order_id: orderId,
      ...lineItemRow(line, position),
    }));
    for (let i = 0; i < lineRows.length; i += LINE_INSERT_CHUNK)
      await trx('order_line_items').insert(lineRows.slice(i, i + LINE_INSERT_CHUNK));
    await trx('order_deliveries').insert({
      id: newId(),
      order_id: orderId,
      state: 'open',
      shipping_method: shippingMethod,
      shipping_address: writeJson(draft.shippingAddress),
      created_at: now,
    });
    await trx('order_transactions').insert({
      id: newId(),
      order_id: orderId,
      state: 'open',
      payment_method: paymentMethod,
      amount: draft.total,
      created_at: now,
    });

    if (cartToken) {
      const marked = await trx('carts')
        .where({ token: cartToken })
        .whereNull('order_id')
        .update({ order_id: orderId, updated_at: now });
      if (marked !== 1)
        throw Errors.conflict('This cart was ordered by another request.', 'SUITE__CART_ALREADY_ORDERED');
    }

    await this.createInvoice(trx, ctx, customer, { orderId, orderNumber, orderDate: now, draft, lines: placedLines });

    const placed: PlacedOrder = {
      id: orderId,
      orderNumber,
      customerId: customer.id,
      salesChannelId: draft.salesChannelId,
      netTotal: draft.netTotal,
      taxTotal: draft.taxTotal,
      total: draft.total,
      lines: placedLines,
      origin: draft.origin,
      actor: ctx.actor,
      customFields,
      paymentMethod,
    };
    for (const hook of this.internals.registries.orderPlacedHooks) await hook(trx, ctx, placed);
    await this.queueConfirmation(trx, ctx, customer, orderId);
    return placed;
  }

  /**
   * Cancels a placed order as a whole (Admin API), in one transaction: the state by a conditional
   * write (`SUITE__ORDER_NOT_CANCELLABLE` from another state than CANCELLABLE_ORDER_STATES), its
   * products' stock back, then the order-cancelled hooks (budget usage, event seats), given the Admin
   * API caller who cancels.
   */
  async cancelOrder(orderId: string, admin: AdminContext): Promise<CancelledOrder & { state: string }> {
    return inTransaction(this.internals.db, async (trx) => {
      const row = await forUpdate(
        trx<OrderRow>('orders')
          .where({ id: orderId })
          .first('id', 'order_number', 'customer_id', 'sales_channel_id', 'state'),
        trx,
      );
      if (!row) throw Errors.notFound('Order', orderId);
      if (!CANCELLABLE_ORDER_STATES.includes(row.state))
        throw Errors.badRequest(
          'SUITE__ORDER_NOT_CANCELLABLE',
          `An order in the state "${row.state}" cannot be cancelled.`,
        );
      if (
        (await trx('orders')
          .where({ id: orderId, state: row.state })
          .update({ state: 'cancelled', updated_at: nowDb() })) !== 1
      )
        throw Errors.conflict();
      const lines = await selectRows<{ product_id: string; quantity: unknown }>(
        trx('order_line_items')
          .where({ order_id: orderId })
          .whereNotNull('product_id')
          .select('product_id', 'quantity'),
      );
      const back = [
        ...quantitiesByProduct(lines.map((l) => ({ productId: l.product_id, quantity: Number(l.quantity) }))),
      ].sort(([a], [b]) => a.localeCompare(b));
      if (back.length > 0) await lockProductsVersion(trx);
      for (const [productId, quantity] of back)
        await trx('products').where({ id: productId }).increment('stock', quantity);
      const cancelled: CancelledOrder = {
        id: row.id,
        orderNumber: row.order_number,
        customerId: row.customer_id,
        salesChannelId: row.sales_channel_id,
      };
      const hooks = this.internals.registries.orderCancelledHooks;
      if (hooks.length > 0) {
        const ctx = await this.cancellationContext(trx, admin, row.sales_channel_id);
        for (const hook of hooks) await hook(trx, ctx, cancelled);
      }
      return { ...cancelled, state: 'cancelled' };
    });
  }

  private async cancellationContext(
    trx: Trx,
    admin: AdminContext,
    salesChannelId: string,
  ): Promise<CancellationContext> {
    const salesChannel = await this.runtime.customers.salesChannel(trx, salesChannelId);
    if (!salesChannel) throw new Error(`the sales channel ${salesChannelId} of an order is unknown`);
    return {
      requestId: admin.requestId,
      canceller: { type: admin.principalType, id: admin.principalId },
      salesChannel,
    };
  }

  /**
   * The order confirmation, queued in the order's transaction: to whoever placed the order, with
   * the company's address in copy. Templates read every line's payload (event tickets print
   * `lineItem.payload.participant`).
   */
  private async queueConfirmation(trx: Trx, ctx: StoreContext, customer: CustomerRef, orderId: string): Promise<void> {
    const order = await getOrder(trx, orderId);
    const to = ctx.actor.email ?? customer.email;
    const precision = ctx.salesChannel.currencyPrecision;
    const currencyIso = ctx.salesChannel.currencyIso;
    const text = (amount: unknown) => moneyText(Number(amount ?? 0), precision, currencyIso);
    const lineItems = (order?.lineItems ?? []).map((line) => ({
      ...line,
      unitPriceText: text(line.unitPrice),
      totalPriceText: text(line.totalPrice),
    }));
    await this.runtime.mail.enqueue(trx, {
      template: 'order-confirmation',
      to,
      cc: to === customer.email ? [] : [customer.email],
      salesChannelId: customer.salesChannelId,
      data: {
        order,
        orderUrl: this.runtime.storefront.url(ctx.salesChannel, `/account/orders/${orderId}`),
        lineItems,
        amounts: { net: text(order?.amountNet), tax: text(order?.taxAmount), total: text(order?.amountTotal) },
        customer,
        placedBy: ctx.actor,
      },
      dedupeKey: `order-confirmation:${orderId}`,
    });
  }

  /** Reads the cart only after locking its row, so a concurrent order or edit is seen. */
  private async linesFromCart(
    ctx: StoreContext,
    customer: CustomerRef,
    token: string,
    check: OrderCheck,
    trx: Trx,
  ): Promise<PriceLine[]> {
    const row = await forUpdate(trx<CartRow>('carts').where({ token }).first('token', 'customer_id', 'order_id'), trx);
    if (!row || row.customer_id !== customer.id) throw Errors.notFound('Cart');
    if (row.order_id) throw Errors.badRequest('SUITE__CART_ALREADY_ORDERED', 'This cart has been ordered already.');
    const cart = (await this.carts.load(trx, token))!;
    if (cart.lineItems.length === 0) throw Errors.badRequest('SUITE__CART_EMPTY', 'The cart is empty.');
    const products = await this.runtime.catalog.visibleProducts(
      trx,
      ctx,
      cart.lineItems.map((l) => l.productId).filter((id): id is string => !!id),
    );
    const byId = new Map(products.map((p) => [p.id, p]));
    const missing = cart.lineItems.find((line) => !line.productId || !byId.has(line.productId));
    if (missing) throw notAvailable(missing.productId);
    checkStock(cart.lineItems, byId);
    const items = await check.processLines(cart.lineItems);
    const { lines, unavailable } = await this.carts.priceLines(ctx, items, byId, trx);
    if (unavailable.length) throw notAvailable(unavailable[0]!.productId);
    return lines;
  }

  /** Lines priced elsewhere (approval execute, offer accept): prices stay; products, stock and processors are checked. */
  private async givenLines(given: PriceLine[], check: OrderCheck, trx: Trx): Promise<PriceLine[]> {
    const items = givenLineItems(given);
    const ids = given.map((l) => l.productId).filter((id): id is string => !!id);
    const byId = new Map((await this.runtime.catalog.products(trx, ids)).map((p) => [p.id, p]));
    const missing = given.find((line) => line.productId && !byId.has(line.productId));
    if (missing) throw notAvailable(missing.productId);
    checkStock(items, byId);
    return processedGivenLines(given, await check.processLines(items));
  }

  /**
   * Conditional decrements in id order, after the products version's row (which every product write
   * locks through its triggers, migrations/host/012): no deadlock between two orders. A lost race is out of stock.
   */
  private async decrementStock(trx: Trx, lines: PriceLine[]): Promise<void> {
    const wanted = [...quantitiesByProduct(lines)].sort(([a], [b]) => a.localeCompare(b));
    if (wanted.length > 0) await lockProductsVersion(trx);
    for (const [productId, quantity] of wanted) {
      const updated = await trx('products')
        .where({ id: productId })
        .where('stock', '>=', quantity)
        .decrement('stock', quantity);
      if (updated !== 1) {
        const [product] = await this.runtime.catalog.products(trx, [productId]);
        if (!product) throw notAvailable(productId);
        throw outOfStock(product);
      }
    }
  }

  private async addressSnapshot(
    trx: Trx,
    customerId: string,
    addressId: string | null,
    type: 'billing' | 'shipping',
  ): Promise<CustomerAddress | null> {
    if (addressId) {
      const row = await trx<AddressRow>('customer_addresses').where({ id: addressId, customer_id: customerId }).first();
      if (!row) throw Errors.notFound('Address', addressId);
      return toAddress(row);
    }
    const customerRow = await trx<CustomerRow>('customers')
      .where({ id: customerId })
      .first('default_billing_address_id', 'default_shipping_address_id');
    const defaultId = customerRow?.[type === 'billing' ? 'default_billing_address_id' : 'default_shipping_address_id'];
    if (!defaultId) return null;
    const row = await trx<AddressRow>('customer_addresses').where({ id: defaultId, customer_id: customerId }).first();
    return row ? toAddress(row) : null;
  }

  private async createInvoice(
    trx: Trx,
    ctx: StoreContext,
    customer: CustomerRef,
    order: {
      orderId: string;
      orderNumber: string;
      orderDate: string;
      draft: OrderDraft;
      lines: Array<PriceLine & { id: string }>;
    },
  ): Promise<void> {
    const number = await this.runtime.nextNumber(trx, 'invoice');
    const precision = ctx.salesChannel.currencyPrecision;
    const amount = (minor: number) => moneyText(fromMinor(minor, precision), precision, order.draft.currencyIso);
    const address = order.draft.billingAddress;
    const addressLines = address
      ? [
          address.company,
          `${text(address.firstName)} ${text(address.lastName)}`.trim(),
          address.street,
          `${text(address.zipcode)} ${text(address.city)}`.trim(),
          address.countryCode,
        ]
          .filter((part): part is string => typeof part === 'string' && part.length > 0)
          .map((part) => ({ text: part }))
      : [];
    const seller = await trx<SalesChannelRow>('sales_channels')
      .where({ id: ctx.salesChannel.id })
      .first('name', 'seller_address', 'vat_id');
    const sellerLines = [
      seller?.name ?? ctx.salesChannel.name,
      ...(seller?.seller_address ?? '')
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
      ...(seller?.vat_id ? [`VAT ID: ${seller.vat_id}`] : []),
    ];
    await documents.createPdf(trx, {
      type: 'invoice',
      number,
      customerId: customer.id,
      orderId: order.orderId,
      title: `Invoice ${number}`,
      lines: [
        { text: sellerLines.join(' · ') },
        { text: '' },
        ...addressLines,
        { text: '' },
        { text: `Invoice number: ${number}` },
        { text: `Order number: ${order.orderNumber}` },
        { text: `Date: ${order.orderDate.slice(0, 10)}` },
        { text: `Customer number: ${customer.customerNumber}` },
        ...order.draft.invoiceNotes.map((note) => ({ text: note })),
        { text: '' },
        {
          table: [
            ['Pos.', 'Product number', 'Item', 'Quantity', 'Unit price (net)', 'Tax', 'Total (net)'],
            ...order.lines.map((line, index) => [
              String(index + 1),
              line.productNumber ?? '',
              line.label,
              String(line.quantity),
              amount(line.unitNet),
              `${line.taxRateBp / 100} %`,
              amount(line.totalNet),
            ]),
          ],
        },
        {
          table: [
            ['Totals', ''],
            ['Net total', amount(order.draft.netTotal)],
            ...taxRows(order.lines, amount),
            ['Total', amount(order.draft.total)],
          ],
        },
        ...(order.draft.paymentNotes?.length
          ? order.draft.paymentNotes.map((note) => ({ text: note }))
          : [{ text: 'Payment: invoice. Please transfer the total within 30 days, quoting the invoice number.' }]),
      ],
    });
  }
}

function taxRows(lines: PriceLine[], amount: (minor: number) => string): string[][] {
  const byRate = new Map<number, number>();
  for (const line of lines) byRate.set(line.taxRateBp, (byRate.get(line.taxRateBp) ?? 0) + lineTax(line));
  return [...byRate.entries()].sort(([a], [b]) => a - b).map(([rate, tax]) => [`Tax ${rate / 100} %`, amount(tax)]);
}
