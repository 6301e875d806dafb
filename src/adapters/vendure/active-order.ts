import type { DocumentNode } from 'graphql';
import {
  Customer,
  Order,
  OrderService,
  TransactionalConnection,
  type ActiveOrderStrategy,
  type ID,
  type Injector,
  type RequestContext,
} from '@vendure/core';
import type { StoreContext } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { customFieldColumn } from './orders.js';
import type { AdapterState } from './state.js';

/**
 * One cart per buyer: the Vendure active order of a customer's buyer (the company admin — the
 * customer's own login —, each employee, a sales representative acting for the customer). All of
 * them are the same Vendure customer (its order history, addresses); the Order custom field
 * `suiteB2BBuyer` names the buyer actor of the active order (`employee:<id>`,
 * `salesRepresentative:<id>`), null for the customer's own login — so orders from before the field
 * (and orders placed through the Admin API) stay the customer login's.
 */
export const BUYER_FIELD = 'suiteB2BBuyer';
/** Its column on Vendure's orders (for the adapter's knex reads), from the entity metadata. */
export const buyerColumn = (): string => customFieldColumn(Order, BUYER_FIELD);

/** The buyer key of a context's active order: null for the customer's own login. */
export function buyerOf(ctx: StoreContext): string | null {
  return ctx.actor.type === 'customer' || !ctx.actor.id ? null : `${ctx.actor.type}:${ctx.actor.id}`;
}

interface BuyerRequest {
  customerId: ID;
  buyer: string | null;
}

/**
 * Vendure's ActiveOrderStrategy for every Shop API operation on the active order (`activeOrder`,
 * `addItemToOrder`, `setOrderShippingAddress`, `transitionOrderToState`, `addPaymentToOrder` …) and
 * for the adapter's own cart calls (cart.ts: their RequestContext carries the plugin's context):
 * a request of a customer's buyer gets that buyer's newest active order of the customer in the
 * channel, created for the buyer on first use. Every other request (guests, the Admin API, jobs) is
 * the wrapped strategy's (Vendure's default: the session's order), so guest carts behave as in
 * stock Vendure. The session's `activeOrderId` is not trusted for buyers: Vendure sets it at login
 * to the customer's newest active order, which may be another buyer's.
 */
export class SuiteB2BActiveOrderStrategy implements ActiveOrderStrategy<Record<string, unknown>> {
  readonly name: string;
  readonly defineInputType?: () => DocumentNode;
  private connection: TransactionalConnection | null = null;
  private orders: OrderService | null = null;

  constructor(
    private readonly inner: ActiveOrderStrategy<Record<string, unknown>>,
    private readonly state: () => AdapterState | null,
    private readonly storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
  ) {
    // The wrapped strategy's name and input type, so a shop's own `activeOrderInput` still reaches it.
    this.name = inner.name;
    const defineInputType = inner.defineInputType?.bind(inner);
    if (defineInputType) this.defineInputType = defineInputType;
  }

  async init(injector: Injector): Promise<void> {
    this.connection = injector.get(TransactionalConnection);
    this.orders = injector.get(OrderService);
    await this.inner.init?.(injector);
  }

  async destroy(): Promise<void> {
    await this.inner.destroy?.();
  }

  private async buyerRequest(ctx: RequestContext): Promise<BuyerRequest | null> {
    const state = this.state();
    if (!state) return null;
    const storeCtx = await this.storeContextOf(ctx);
    const customerId = storeCtx?.customer ? state.ids.toVendure(storeCtx.customer.id) : null;
    return storeCtx && customerId ? { customerId, buyer: buyerOf(storeCtx) } : null;
  }

  private services(): { connection: TransactionalConnection; orders: OrderService } {
    if (!this.connection || !this.orders)
      throw new Error('the Suite B2B active order strategy was not initialised by Vendure');
    return { connection: this.connection, orders: this.orders };
  }

  async determineActiveOrder(ctx: RequestContext, input: Record<string, unknown>): Promise<Order | undefined> {
    const request = await this.buyerRequest(ctx);
    if (!request) return this.inner.determineActiveOrder(ctx, input);
    const query = this.services()
      .connection.getRepository(ctx, Order)
      .createQueryBuilder('order')
      .innerJoin('order.channels', 'channel', 'channel.id = :channelId', { channelId: ctx.channelId })
      .where('order.active = :active', { active: true })
      .andWhere('order.customerId = :customerId', { customerId: request.customerId });
    if (request.buyer === null) query.andWhere(`order.customFields.${BUYER_FIELD} IS NULL`);
    else query.andWhere(`order.customFields.${BUYER_FIELD} = :buyer`, { buyer: request.buyer });
    return (await query.orderBy('order.createdAt', 'DESC').addOrderBy('order.id', 'DESC').getOne()) ?? undefined;
  }

  async createActiveOrder(ctx: RequestContext, input: Record<string, unknown>): Promise<Order> {
    const request = await this.buyerRequest(ctx);
    if (!request) {
      // Without a create of its own the wrapped strategy creates nothing (Vendure then answers its own error).
      return this.inner.createActiveOrder ? this.inner.createActiveOrder(ctx, input) : (undefined as unknown as Order);
    }
    const { connection, orders } = this.services();
    // The adapter's own RequestContexts (cart.ts) have no Vendure session: the customer's user then.
    let userId = ctx.activeUserId;
    if (userId == null) {
      const customer = await connection
        .getRepository(ctx, Customer)
        .findOne({ where: { id: request.customerId }, relations: ['user'] });
      userId = customer?.user?.id;
      if (userId == null)
        throw Errors.badRequest('SUITE__CUSTOMER_REQUIRED', 'The customer has no account that can hold a cart.');
    }
    const order = await orders.create(ctx, userId);
    if (request.buyer !== null) {
      await connection.getRepository(ctx, Order).update(order.id, { customFields: { [BUYER_FIELD]: request.buyer } });
      ((order as unknown as { customFields?: Record<string, unknown> }).customFields ??= {})[BUYER_FIELD] =
        request.buyer;
    }
    return order;
  }
}
