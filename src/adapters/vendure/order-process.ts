import { parse, type DocumentNode } from 'graphql';
import {
  Customer,
  OrderLine,
  TransactionalConnection,
  UserService,
  type AuthenticationStrategy,
  type Injector,
  type Order,
  type OrderProcess,
  type RequestContext,
  type User,
} from '@vendure/core';
import type { CartLineItem, OrderDraft, PriceLine, StoreContext } from '../../contract/index.js';
import { selectRow } from '../../lib/db.js';
import { column, table } from './vendure-schema.js';
import { inVendureTransaction } from './events.js';
import { orderPlacement } from './order-placement.js';
import { PLACED_BY_FIELDS } from './orders.js';
import { shippingMethodOfOrder } from './payment-methods.js';
import { changedLineFields, processOrderLines, refusalText } from './participants.js';
import { findLivePluginSession } from './sessions.js';
import type { AdapterState } from './state.js';

/**
 * Employees and sales representatives in Vendure's Shop API. They log in at POST
 * /store-api/account/login (a plugin context token), then exchange that token for a Vendure
 * session of the customer they act for: Shop API `authenticate(input: { suiteB2B: { contextToken } })`.
 * They keep sending `suite-context-token` with every Shop API request, so the plugin sees the
 * employee (permissions, approval, budgets) while Vendure sees the company's customer (its
 * activeOrder, addresses, order history). buildStoreContext refuses a token whose customer is not
 * the Vendure session's.
 */
export class SuiteB2BAuthenticationStrategy implements AuthenticationStrategy<{ contextToken: string }> {
  readonly name = 'suiteB2B';
  private users: UserService | null = null;

  constructor(private readonly state: () => AdapterState | null) {}

  init(injector: Injector): void {
    this.users = injector.get(UserService);
  }

  defineInputType(): DocumentNode {
    return parse('input SuiteB2BAuthInput { contextToken: String! }');
  }

  async authenticate(ctx: RequestContext, data: { contextToken: string }): Promise<User | false> {
    const state = this.state();
    if (!state || !this.users) return false;
    const session = await findLivePluginSession(state.db, data.contextToken);
    const customerId = session?.customerId ? state.ids.toVendure(session.customerId) : null;
    if (!customerId) return false;
    const row = await selectRow<{ userId: string | number | null }>(
      state
        .db(table(Customer))
        .where(column(Customer, 'id'), customerId)
        .whereNull(column(Customer, 'deletedAt'))
        .first(`${column(Customer, 'user')} as userId`),
    );
    if (!row?.userId) return false;
    return (await this.users.getUserById(ctx, row.userId)) ?? false;
  }
}

/** The plugin's order draft of a Vendure order (net unit prices; Vendure's order lines are the cart, as the processors shaped them). */
export function draftOf(state: AdapterState, ctx: StoreContext, order: Order, items: CartLineItem[]): OrderDraft {
  const lines: PriceLine[] = order.lines.map((line, position) => ({
    lineItemId: state.ids.toPlugin(line.id),
    productId: state.ids.toPlugin(line.productVariantId),
    productNumber: line.productVariant?.sku ?? null,
    label: items[position]?.label || (line.productVariant?.name ?? ''),
    type: 'product',
    quantity: line.quantity,
    unitNet: line.unitPrice,
    totalNet: line.linePrice,
    taxRateBp: Math.round((line.taxRate ?? 0) * 100),
    payload: { ...items[position]?.payload, position },
  }));
  return {
    customerId: ctx.customer!.id,
    salesChannelId: ctx.salesChannel.id,
    lines,
    // As the placed order (order-placement.ts): shipping included, so a check of `total` (the credit
    // line) and the charge of the placed order's `total` agree.
    netTotal: order.subTotal + order.shipping,
    taxTotal: order.totalWithTax - order.subTotal - order.shipping,
    total: order.totalWithTax,
    currencyIso: order.currencyCode,
    billingAddress: null,
    shippingAddress: null,
    customerComment: null,
    actor: ctx.actor,
    origin: 'checkout',
    // (2.2) What interceptors add here is not written to the Vendure order yet (docs/vendure.md).
    customFields: {},
    invoiceNotes: [],
  };
}

/**
 * The plugin in Vendure's order process:
 * - a veto on the way to ArrangingPayment: the line-item processors (event tickets, 'order' phase)
 *   and checkout interceptors (approval, budgets) run in Vendure's transaction of the transition on
 *   the order as a draft; an AppError they throw refuses the transition, and the Shop API client
 *   reads `"<code>: <detail>"` in `transitionOrderToState`'s `transitionError`;
 * - placement and cancellation (order-placement.ts): when Vendure places the order, the check once
 *   more and the order-placed hooks, in the placing transaction; when it cancels a placed order, the
 *   order-cancelled hooks.
 */
export function suiteOrderProcess(
  state: () => AdapterState | null,
  storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
): OrderProcess<'ArrangingPayment'> {
  let connection: TransactionalConnection | null = null;
  const placement = orderPlacement(state, storeContextOf);
  return {
    init(injector) {
      connection = injector.get(TransactionalConnection);
      placement.init(injector);
    },
    async onTransitionEnd(_from, to, { ctx, order }) {
      await placement.afterTransition(ctx, to, order);
    },
    async onTransitionStart(from, to, { ctx, order }) {
      const refusal = await veto(to, ctx, order);
      if (typeof refusal === 'string') return refusal;
      placement.noteTransition(ctx, from, to, order);
    },
  };

  async function veto(to: string, ctx: RequestContext, order: Order): Promise<string | undefined> {
    const s = state();
    if (to !== 'ArrangingPayment' || !s) return;
    // An order checkout.placeOrder places: it ran the processors and interceptors itself; its actor placed it.
    const placing = s.placing.get(String(order.id));
    if (placing) {
      const fields = ((order as unknown as { customFields?: Record<string, unknown> }).customFields ??= {});
      fields[PLACED_BY_FIELDS.type] = placing.type;
      fields[PLACED_BY_FIELDS.id] = placing.id;
      return;
    }
    const storeCtx = await storeContextOf(ctx);
    if (!storeCtx?.customer) return;
    let items: CartLineItem[] = [];
    if (s.registries.lineItemProcessors.length > 0 || s.registries.checkoutInterceptors.length > 0) {
      try {
        // As the reference host's checkout: processors ('order', under the plugin's locks), then interceptors, in one transaction.
        items = await inVendureTransaction(s, ctx, async (trx) => {
          const processed =
            s.registries.lineItemProcessors.length > 0 ? await processOrderLines(s, storeCtx, order, trx) : [];
          const draft = draftOf(s, storeCtx, order, processed);
          draft.shippingMethod = await shippingMethodOfOrder(trx, order.id);
          for (const interceptor of s.registries.checkoutInterceptors)
            await interceptor.intercept(trx, storeCtx, draft);
          return processed;
        });
      } catch (error) {
        return refusalText(error);
      }
    }
    // The shaped participants go with the lines (the adapter's own OrderLine custom fields, in Vendure's transaction).
    for (const { line, fields } of changedLineFields(order, items)) {
      if (!connection) throw new Error('the Suite B2B order process was not initialised by Vendure');
      await connection.getRepository(ctx, OrderLine).update(line.id, { customFields: fields });
      line.customFields = { ...line.customFields, ...fields };
    }
    // The actor who takes the order to payment placed it (Vendure saves the order with the transition).
    const customFields = ((order as unknown as { customFields?: Record<string, unknown> }).customFields ??= {});
    customFields[PLACED_BY_FIELDS.type] = storeCtx.actor.type;
    customFields[PLACED_BY_FIELDS.id] = storeCtx.actor.id;
  }
}
