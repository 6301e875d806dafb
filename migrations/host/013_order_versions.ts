import type { Knex } from 'knex';
import {
  createRowVersionTrigger,
  createVersionTriggers,
  dropVersionTriggers,
  versionTriggersOn,
  type VersionTrigger,
} from '../../src/lib/migration-helpers.js';

/**
 * Each order's version: `orders.version` moves on every write to what an order read
 * answers — the order's own row, its line items, deliveries, transactions and documents — so a
 * process may keep the order views it built (src/host/checkout/order-view-cache.ts) while the
 * version it reads stays. Per order, not one counter for all orders: a checkout then locks only the
 * order it writes, never a row every checkout shares.
 *
 * Triggers, not application code, move it, so every writer counts (a checkout, a state change, a
 * document, an operator's SQL). A part's trigger moves its order's version (the old order too when
 * a part moves); the order's own update moves it unless the update already did (the parts'
 * triggers do). An order's delete takes its kept view with it: its version is no longer read.
 *
 * On MySQL/MariaDB a part's trigger runs before its row is written: the order's row is then locked
 * for writing before the part's foreign key check takes a shared lock on it, so two transactions
 * adding parts to one order queue instead of deadlocking on the upgrade from shared to exclusive.
 */
const PART_TABLES = ['order_line_items', 'order_deliveries', 'order_transactions', 'documents'];
const PART_TRIGGERS = versionTriggersOn(PART_TABLES, (table, event) => `order_version_${table}_${event}`);
const ORDER_TRIGGER: VersionTrigger = { name: 'order_version_orders_update', table: 'orders', event: 'update' };

function partBump(event: VersionTrigger['event']): string {
  const orders =
    event === 'insert' ? 'NEW.order_id' : event === 'delete' ? 'OLD.order_id' : 'NEW.order_id, OLD.order_id';
  return `update orders set version = version + 1 where id in (${orders})`;
}

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn('orders', 'version')))
    await knex.schema.alterTable('orders', (t) => {
      t.bigInteger('version').notNullable().defaultTo(1);
    });
  await createVersionTriggers(knex, PART_TRIGGERS, partBump, { mysqlBefore: true });
  await createRowVersionTrigger(knex, 'orders', ORDER_TRIGGER.name);
}

export async function down(knex: Knex): Promise<void> {
  await dropVersionTriggers(knex, [...PART_TRIGGERS, ORDER_TRIGGER]);
  if (await knex.schema.hasColumn('orders', 'version'))
    await knex.schema.alterTable('orders', (t) => {
      t.dropColumn('version');
    });
}
