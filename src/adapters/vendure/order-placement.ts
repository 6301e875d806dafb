import {
  ConfigService,
  I18nError,
  LogLevel,
  OrderLine,
  TransactionalConnection,
  type Injector,
  type Order,
  type RequestContext,
} from '@vendure/core';
import type { CancelledOrder, CartLineItem, OrderCanceller, PlacedOrder, StoreContext } from '../../contract/index.js';
import { AppError } from '../../lib/errors.js';
import { inVendureTransaction } from './events.js';
import { checkVendureOrder } from './order-process.js';
import { PLACED_BY_FIELDS } from './orders.js';
import { changedLineFields } from './participants.js';
import type { AdapterState } from './state.js';
import { storeContextForActor } from './store-api.js';

/**
 * The plugin's refusal of a placement, thrown from the order process's onTransitionEnd: Vendure's
 * transaction of the placing mutation (addPaymentToOrder, addManualPaymentToOrder, settlePayment …)
 * rolls back — the payment row and the order's state with it — and the client gets a GraphQL error
 * whose message is `"<code>: <detail>"` and whose `extensions.code` is the plugin's code.
 */
export class SuiteB2BOrderRefusedError extends I18nError {
  constructor(error: AppError) {
    super(`${error.code}: ${error.message}`, {}, error.code, LogLevel.Warn);
  }
}

type OrderFields = Record<string, unknown>;
const customFieldsOf = (order: Order): OrderFields =>
  ((order as unknown as { customFields?: OrderFields }).customFields ??= {});

/**
 * Placement and cancellation of the orders Vendure places itself (Shop API checkout, Admin API
 * draft orders), as the reference host's checkout does it, in Vendure's transaction of the
 * transition (a knex savepoint on its connection, events.ts):
 *
 * - placing (the transition Vendure's OrderPlacedStrategy sets as placed, from an active order: by
 *   default ArrangingPayment → PaymentAuthorized / PaymentSettled): the line-item processors
 *   ('order' phase, under the event manager's locks) and the checkout interceptors (budgets,
 *   approval, under the budget row locks) check the order once more, then the order-placed hooks
 *   charge it (budget usage, participants and seats) — check and charge in one step, under the same
 *   locks, held until Vendure commits. Orders checkout.placeOrder places ran all of it already (their
 *   id is in `state.placing`): skipped, so every order runs the hooks exactly once.
 * - cancelled (→ Cancelled, once placed): the order-cancelled hooks release what the hooks took.
 *
 * A refusal (an AppError of the plugin) fails the transition's mutation: see SuiteB2BOrderRefusedError.
 */
export function orderPlacement(
  state: () => AdapterState | null,
  storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
) {
  let connection: TransactionalConnection | null = null;
  let config: ConfigService | null = null;
  /** Orders whose transition under way places them (decided in onTransitionStart, while the order is still active). */
  const placingNow = new WeakSet<Order>();

  /** Who places the order: the Shop API caller of its customer; else (Admin API, a later settlement) the actor who took it to payment, else its customer. */
  async function placingContext(s: AdapterState, ctx: RequestContext, order: Order): Promise<StoreContext | null> {
    const customerId = order.customerId == null ? null : s.ids.toPlugin(order.customerId);
    if (!customerId) return null;
    const requestCtx = await storeContextOf(ctx);
    if (requestCtx) return requestCtx.customer?.id === customerId ? requestCtx : null;
    const fields = customFieldsOf(order);
    const type = fields[PLACED_BY_FIELDS.type];
    const id = fields[PLACED_BY_FIELDS.id];
    return storeContextForActor(
      s,
      customerId,
      typeof type === 'string' && typeof id === 'string' ? { type, id } : null,
    );
  }

  async function place(s: AdapterState, ctx: RequestContext, order: Order): Promise<void> {
    const storeCtx = await placingContext(s, ctx, order);
    if (!storeCtx?.customer) return;
    const { registries } = s;
    if (
      registries.lineItemProcessors.length === 0 &&
      registries.checkoutInterceptors.length === 0 &&
      registries.orderPlacedHooks.length === 0
    )
      return;
    let items: CartLineItem[];
    try {
      items = await inVendureTransaction(s, ctx, async (trx) => {
        // The check (the checkout kernel's, as the reference host's checkout): processors then interceptors, under their locks,
        // with the method of the payment that places it (the plugin's, e.g. on account, or the shop's code) and the shipping method.
        const { items: processed, draft, paymentMethod } = await checkVendureOrder(s, storeCtx, order, trx, true);
        // The charge, in the same transaction under the same locks.
        const netTotal = order.subTotal + order.shipping;
        const placed: PlacedOrder = {
          id: s.ids.toPlugin(order.id),
          orderNumber: order.code,
          customerId: storeCtx.customer!.id,
          salesChannelId: storeCtx.salesChannel.id,
          netTotal,
          taxTotal: order.totalWithTax - netTotal,
          total: order.totalWithTax,
          lines: draft.lines.map((line) => ({ ...line, id: line.lineItemId })),
          origin: draft.origin,
          actor: storeCtx.actor,
          customFields: draft.customFields,
          ...(paymentMethod ? { paymentMethod } : {}),
        };
        for (const hook of registries.orderPlacedHooks) await hook(trx, storeCtx, placed);
        return processed;
      });
    } catch (error) {
      if (error instanceof AppError && error.status < 500) throw new SuiteB2BOrderRefusedError(error);
      throw error;
    }
    // The participants' record ids go with the lines; the placing actor with the order (Vendure saves it after the transition).
    for (const { line, fields } of changedLineFields(order, items)) {
      await connection!.getRepository(ctx, OrderLine).update(line.id, { customFields: fields });
      line.customFields = { ...line.customFields, ...fields };
    }
    const fields = customFieldsOf(order);
    fields[PLACED_BY_FIELDS.type] = storeCtx.actor.type;
    fields[PLACED_BY_FIELDS.id] = storeCtx.actor.id;
  }

  async function cancel(s: AdapterState, ctx: RequestContext, order: Order): Promise<void> {
    if (s.registries.orderCancelledHooks.length === 0 || order.customerId == null) return;
    const salesChannel = await s.salesChannel();
    const cancelled: CancelledOrder = {
      id: s.ids.toPlugin(order.id),
      orderNumber: order.code,
      customerId: s.ids.toPlugin(order.customerId),
      salesChannelId: salesChannel.id,
    };
    // An administrator of Vendure's Admin API, else Vendure itself.
    const canceller: OrderCanceller =
      ctx.apiType === 'admin' && ctx.activeUserId != null
        ? { type: 'user', id: s.ids.toPlugin(ctx.activeUserId) }
        : { type: 'system', id: null };
    try {
      await inVendureTransaction(s, ctx, async (trx) => {
        for (const hook of s.registries.orderCancelledHooks)
          await hook(trx, { requestId: null, canceller, salesChannel }, cancelled);
      });
    } catch (error) {
      if (error instanceof AppError && error.status < 500) throw new SuiteB2BOrderRefusedError(error);
      throw error;
    }
  }

  return {
    init(injector: Injector) {
      connection = injector.get(TransactionalConnection);
      config = injector.get(ConfigService);
    },
    /** Called from the order process's onTransitionStart, once the plugin let the transition through. */
    noteTransition(ctx: RequestContext, fromState: string, toState: string, order: Order): void {
      if (
        order.active &&
        config?.orderOptions.orderPlacedStrategy.shouldSetAsPlaced(ctx, fromState as never, toState as never, order)
      )
        placingNow.add(order);
    },
    /** The order process's onTransitionEnd. */
    async afterTransition(ctx: RequestContext, toState: string, order: Order): Promise<void> {
      const s = state();
      if (!s || !connection) return;
      const placing = placingNow.has(order);
      placingNow.delete(order);
      // checkout.placeOrder runs processors, interceptors and hooks itself, in its own transaction.
      if (s.placing.has(String(order.id))) return;
      if (placing) await place(s, ctx, order);
      else if (toState === 'Cancelled' && order.orderPlacedAt) await cancel(s, ctx, order);
    },
  };
}
