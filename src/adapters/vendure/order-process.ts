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
import type { CartLineItem, OrderDraft, StoreContext } from '../../contract/index.js';
import { selectRow, type Trx } from '../../lib/db.js';
import { checkOrder, pricedLine, type DraftFacts } from '../../host-kit/checkout-kernel.js';
import { column, table } from './vendure-schema.js';
import { inVendureTransaction } from './events.js';
import { orderPlacement } from './order-placement.js';
import { PLACED_BY_FIELDS } from './orders.js';
import { paymentMethodOfOrder, shippingMethodOfOrder } from './payment-methods.js';
import { changedLineFields, orderLineItems, refusalText } from './participants.js';
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

/** The facts of a Vendure order for the checkout kernel's draft (net unit prices; Vendure's order lines are the cart, as the processors shaped them). */
export function draftFactsOf(state: AdapterState, order: Order, items: CartLineItem[]): DraftFacts {
  const lines = order.lines.map((line, position) =>
    pricedLine(
      {
        id: state.ids.toPlugin(line.id),
        type: 'product',
        productId: state.ids.toPlugin(line.productVariantId),
        label: items[position]?.label || (line.productVariant?.name ?? ''),
        quantity: line.quantity,
        payload: { ...items[position]?.payload, position },
        position,
      },
      line.productVariant?.sku ?? null,
      { unitNet: line.unitPrice, totalNet: line.linePrice, taxRateBp: Math.round((line.taxRate ?? 0) * 100) },
    ),
  );
  // As the placed order (order-placement.ts): shipping included, so a check of `total` (the credit
  // line) and the charge of the placed order's `total` agree. No addresses, comment or custom fields:
  // (2.2) what interceptors add to `customFields` is not written to the Vendure order yet (docs/vendure.md).
  const netTotal = order.subTotal + order.shipping;
  return {
    lines,
    totals: { netTotal, taxTotal: order.totalWithTax - netTotal, total: order.totalWithTax },
    currencyIso: order.currencyCode,
  };
}

/**
 * The checkout kernel's check of an order Vendure takes to payment or places (the veto and the
 * placement alike), in the plugin's transaction: its lines through the processors ('order', when any
 * is registered), the draft with the order's shipping method (and, placing, the method of the payment
 * that places it), then every interceptor. Answers the processed items (their payloads go back to
 * the lines), the draft and the payment's method.
 */
export async function checkVendureOrder(
  state: AdapterState,
  ctx: StoreContext,
  order: Order,
  trx: Trx,
  placing: boolean,
): Promise<{ items: CartLineItem[]; draft: OrderDraft; paymentMethod: string | undefined }> {
  const check = checkOrder(state.registries, trx, ctx);
  const items = await check.processLines(
    state.registries.lineItemProcessors.length > 0 ? orderLineItems(state, order) : [],
  );
  const paymentMethod = placing ? await paymentMethodOfOrder(trx, order.id) : undefined;
  const shippingMethod = await shippingMethodOfOrder(trx, order.id);
  const draft = check.draft({
    ...draftFactsOf(state, order, items),
    ...(paymentMethod ? { paymentMethod } : {}),
    shippingMethod,
  });
  await check.intercept(draft);
  return { items, draft, paymentMethod };
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
        items = await inVendureTransaction(
          s,
          ctx,
          async (trx) => (await checkVendureOrder(s, storeCtx, order, trx, false)).items,
        );
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
