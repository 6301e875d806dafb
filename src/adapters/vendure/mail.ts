import type { RequestContext } from '@vendure/core';
import type { StoreContext } from '../../host/contract.js';
import { createMailOutbox, type MailOutbox } from '../../lib/mail-outbox.js';
import { moneyText } from '../../lib/money.js';
import type { AdapterState } from './state.js';

/**
 * The plugin's mails on Vendure: lib/mail-outbox (the reference host's sender) on the adapter's
 * `suite_host_mail_outbox`, sent by the adapter's job worker on every poll (jobs.ts) over SMTP (`mailerUrl`) or into .eml files (`mailFolder`). One sales channel per shop: every mail
 * goes out under Vendure's default channel with the first storefront URL for links. Attachments
 * need `documents.get`, which Vendure does not serve yet: such a mail fails after its retries.
 */
export function createVendureMail(state: AdapterState): MailOutbox {
  const outbox = createMailOutbox({
    db: state.db,
    log: state.log,
    table: 'suite_host_mail_outbox',
    templates: state.registries.mailTemplates,
    mailerUrl: state.options.mailerUrl,
    emlFolder: state.options.mailFolder,
    async salesChannel() {
      const channel = await state.salesChannel();
      return state.options.shopName ? { ...channel, name: state.options.shopName } : channel;
    },
    fallbackUrl: state.options.storefrontUrls[0] ?? 'http://localhost',
    document: (id) =>
      Promise.reject(new Error(`attachment document ${id}: documents are not supported on Vendure yet`)),
  });
  return outbox;
}

/** What the order confirmation needs of Vendure's OrderPlacedEvent. */
export interface PlacedOrderEvent {
  ctx: RequestContext;
  order: { id: string | number };
}

/** The fields of the contract's order (orders.get, the Store API's shape) the mail reads. */
type OrderView = {
  lineItems?: Array<Record<string, unknown>>;
  amountNet?: number;
  taxAmount?: number;
  amountTotal?: number;
  orderCustomer?: {
    customerId: string | null;
    email: string | null;
    firstName: string | null;
    lastName: string | null;
  };
};

/**
 * The plugin's `order-confirmation` mail for an order Vendure placed (option `orderConfirmationMail`),
 * with the data the reference host gives it: the order in the Store API's shape, its lines with
 * their payload (an event ticket's `payload.participant`), amounts as text, who placed it. Queued
 * once per order (dedupe key) after Vendure committed the order.
 */
export async function queueOrderConfirmation(
  state: AdapterState,
  event: PlacedOrderEvent,
  storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
): Promise<void> {
  const orderId = state.ids.toPlugin(event.order.id);
  const order = (await state.runtime.orders.get(state.db, orderId)) as OrderView | null;
  const customer = order?.orderCustomer;
  if (!order || !customer?.email) return;
  const customerName = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
  const storeCtx = await storeContextOf(event.ctx).catch(() => null);
  const placedBy = storeCtx?.actor ?? {
    type: 'customer',
    id: customer.customerId,
    name: customerName,
    email: customer.email,
  };
  const to = placedBy.email ?? customer.email;
  const channel = await state.salesChannel();
  const text = (amount: unknown) => moneyText(Number(amount ?? 0), channel.currencyPrecision, channel.currencyIso);
  await state.mail.enqueue(state.db, {
    template: ORDER_CONFIRMATION_TEMPLATE,
    to,
    cc: to === customer.email ? [] : [customer.email],
    salesChannelId: channel.id,
    dedupeKey: `order-confirmation:${orderId}`,
    data: {
      order,
      orderUrl: null,
      lineItems: (order.lineItems ?? []).map((line) => ({
        ...line,
        unitPriceText: text(line.unitPrice),
        totalPriceText: text(line.totalPrice),
      })),
      amounts: { net: text(order.amountNet), tax: text(order.taxAmount), total: text(order.amountTotal) },
      // Vendure customers have no company name: the greeting names the customer.
      customer: { ...customer, company: customerName },
      placedBy,
    },
  });
}

export const ORDER_CONFIRMATION_TEMPLATE = 'order-confirmation';
