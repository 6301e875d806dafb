import {
  CustomerEvent,
  CustomerGroupEvent,
  Order,
  ProductEvent,
  ProductVariantEvent,
  TransactionalConnection,
  type EventBus,
  type ID,
  type RequestContext,
} from '@vendure/core';
import type { HostEventName } from '../../contract/index.js';
import { inSavepointOf, inTransaction, type Trx } from '../../lib/db.js';
import { vendureServices, type AdapterState } from './state.js';

/**
 * The TypeORM query runner of the Vendure transaction `ctx` is in, through public APIs only:
 * Vendure's `TransactionalConnection.getRepository(ctx, …)` answers a repository of the context's
 * transaction manager, whose `queryRunner` (TypeORM's public field) holds the transaction's
 * connection. null when `ctx` is in no open transaction (the repository is then the DataSource's,
 * without a runner).
 */
function openQueryRunnerOf(state: AdapterState, ctx: RequestContext) {
  const runner = vendureServices(state).service(TransactionalConnection).getRepository(ctx, Order).manager.queryRunner;
  return runner && runner.isTransactionActive && !runner.isReleased ? runner : null;
}

/**
 * Runs the plugin's SQL inside the Vendure transaction of `ctx` (a knex savepoint on the connection
 * of its TypeORM query runner): what `work` writes commits or rolls back with Vendure's change, and
 * what it throws fails that change. Without an open Vendure transaction: a plugin transaction of its own.
 */
export async function inVendureTransaction<T>(
  state: AdapterState,
  ctx: RequestContext,
  work: (trx: Trx) => Promise<T>,
): Promise<T> {
  const runner = openQueryRunnerOf(state, ctx);
  // QueryRunner.connect() is TypeORM's public way to the driver connection the runner holds.
  if (runner) return inSavepointOf(state.db, (await runner.connect()) as object, work);
  return inTransaction(state.db, work);
}

/**
 * The contract's `*.deleted` events from Vendure's EventBus: what a foreign-key cascade does on the
 * reference host, Vendure's deletions do here — the plugin's rows naming the deleted customer,
 * customer group or product (variant) go.
 *
 * - ProductEvent `deleted` → `product.deleted` with the product's variant ids (a plugin product is a
 *   variant); ProductVariantEvent `deleted` → `product.deleted` with the variants' ids (Vendure
 *   publishes both when a product goes; the handlers delete idempotently).
 * - CustomerEvent `deleted` → `customer.deleted`; CustomerGroupEvent `deleted` → `customer_group.deleted`.
 *
 * As the contract says, the handlers run inside the transaction of the change: a blocking event
 * handler, called while Vendure's transaction is open, runs them in a savepoint on the connection of
 * the event's RequestContext; a handler that throws fails Vendure's deletion, which rolls back.
 * A deletion published outside a transaction (none of Vendure's Admin API mutations) gets its own
 * plugin transaction after the fact. Vendure soft-deletes products, variants and customers
 * (`deletedAt`): the plugin treats them as gone, as Vendure's APIs do.
 */
export function bridgeVendureEvents(state: AdapterState, eventBus: EventBus): void {
  const run = async (ctx: RequestContext, event: HostEventName, vendureIds: ID[]) => {
    const handlers = state.registries.eventHandlers.get(event) ?? [];
    const ids = [...new Set(vendureIds.map((id) => state.ids.toPlugin(id)))];
    if (handlers.length === 0 || ids.length === 0) return;
    const work = async (trx: Trx) => {
      for (const handler of handlers) await handler(trx, { ids });
    };
    await inVendureTransaction(state, ctx, work);
  };
  eventBus.registerBlockingEventHandler<ProductEvent | ProductVariantEvent | CustomerEvent | CustomerGroupEvent>({
    id: 'suite-b2b-host-deleted-events',
    event: [ProductEvent, ProductVariantEvent, CustomerEvent, CustomerGroupEvent],
    async handler(event) {
      if (event.type !== 'deleted') return;
      if (event instanceof ProductEvent)
        return run(
          event.ctx,
          'product.deleted',
          (event.entity.variants ?? []).map((variant) => variant.id),
        );
      if (event instanceof ProductVariantEvent)
        return run(
          event.ctx,
          'product.deleted',
          event.entity.map((variant) => variant.id),
        );
      if (event instanceof CustomerEvent) return run(event.ctx, 'customer.deleted', [event.entity.id]);
      // The removed group's entity has lost its id (TypeORM's remove): the event's input is the id.
      const input = event.input;
      return run(event.ctx, 'customer_group.deleted', [
        typeof input === 'string' || typeof input === 'number' ? input : event.entity.id,
      ]);
    },
  });
}
