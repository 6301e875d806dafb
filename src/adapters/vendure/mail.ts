import { EventBus, RequestContextService, type RequestContext } from '@vendure/core';
import { orderView, type StoreContext } from '../../contract/index.js';
import { createMailOutbox, type MailOutbox, type RenderedMail } from '../../lib/mail-outbox.js';
import { moneyText } from '../../lib/money.js';
import { emailTypeOf, SuiteB2BMailEvent } from './mail-event.js';
import { vendureServices, type AdapterState } from './state.js';

/**
 * The plugin's mails on Vendure: lib/mail-outbox (the reference host's outbox) on the adapter's
 * `suite_host_mail_outbox`, written in the caller's transaction (dedupe keys), sent by the adapter's
 * job worker (jobs.ts). Sending (decision 0059): with `mail: 'email-plugin'` each row is handed to
 * Vendure's EmailPlugin as one `SuiteB2BMailEvent` on the EventBus (the shop's
 * `suiteB2BEmailHandlers` render and send it: its templates, transport, dev mailbox), at most once
 * per row; otherwise the outbox sends it itself over SMTP (`mailerUrl`) or into .eml files
 * (`mailFolder`). One sales channel per shop: every mail goes out under Vendure's default channel
 * with the first storefront URL for links. Attachments need `documents.get`, which Vendure does not
 * serve yet: such a mail fails after its retries (before any hand-over).
 */
export function createVendureMail(state: AdapterState): MailOutbox {
  const throughEmailPlugin = state.options.mail === 'email-plugin';
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
    from: state.options.mailFrom || null,
    handOver: throughEmailPlugin ? (mail) => publishMail(state, mail) : undefined,
  });
  return {
    ...outbox,
    // The EventBus is there once Vendure has started: until then nothing is claimed.
    sendQueued: () => (throughEmailPlugin && !state.vendure ? Promise.resolve(0) : outbox.sendQueued()),
  };
}

/** One outbox row as a SuiteB2BMailEvent on Vendure's EventBus, in the default channel. */
async function publishMail(state: AdapterState, mail: RenderedMail): Promise<void> {
  const vendure = vendureServices(state);
  const ctx = await vendure.service(RequestContextService).create({ apiType: 'admin' });
  await vendure
    .service(EventBus)
    .publish(
      new SuiteB2BMailEvent(
        ctx,
        mail.template,
        mail.to,
        mail.cc,
        mail.data,
        { subject: mail.subject, html: mail.html, text: mail.text },
        state.options.mailFrom || null,
        mail.from,
        mail.attachments,
        mail.id,
      ),
    );
}

/** What the adapter reads of Vendure's EmailPlugin class in the shop's `plugins` (its static `init` options). */
interface EmailPluginClass {
  name: string;
  options?: { handlers?: Array<{ type: string; event: unknown }> };
}

/**
 * Start-up check of `mail: 'email-plugin'` (configure): the shop's plugins hold Vendure's EmailPlugin
 * with a `SuiteB2BMailEvent` handler for every registered plugin template — else the plugin's mails
 * would be handed to nobody (lost), so the shop does not start. With the outbox sending, handlers
 * registered for the plugin's mails get nothing: a warning says so.
 */
export function checkMailSetup(state: AdapterState, plugins: unknown[]): void {
  const emailPlugin = plugins.find(
    (plugin): plugin is EmailPluginClass =>
      typeof plugin === 'function' && (plugin as EmailPluginClass).name === 'EmailPlugin',
  );
  const handled = new Set(
    (emailPlugin?.options?.handlers ?? [])
      .filter((handler) => handler.event === SuiteB2BMailEvent)
      .map((handler) => handler.type),
  );
  if (state.options.mail !== 'email-plugin') {
    if (handled.size > 0)
      state.log.warn(
        "the EmailPlugin has Suite B2B mail handlers, but the plugin's mails go out through its outbox: set the adapter option mail: 'email-plugin'",
      );
    return;
  }
  if (!emailPlugin)
    throw new Error(
      "Suite B2B: mail: 'email-plugin' needs Vendure's EmailPlugin in the shop's plugins (EmailPlugin.init({ handlers: [...defaultEmailHandlers, ...suiteB2BEmailHandlers] }))",
    );
  const missing = state.mail.templateNames().filter((template) => !handled.has(emailTypeOf(template)));
  if (missing.length > 0)
    throw new Error(
      `Suite B2B: the EmailPlugin has no handler for the plugin's mails ${missing.map(emailTypeOf).join(', ')}: add suiteB2BEmailHandlers (suite-b2b/vendure/email) to EmailPlugin.init({ handlers })`,
    );
}

/** What the order confirmation needs of Vendure's OrderPlacedEvent. */
export interface PlacedOrderEvent {
  ctx: RequestContext;
  order: { id: string | number };
}

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
  // The order in the Store API's shape (amounts in currency units), as the reference host's mail has it.
  const record = await state.runtime.orders.get(state.db, orderId);
  const order = record ? orderView(record) : null;
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
