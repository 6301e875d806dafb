import type { Knex } from 'knex';
import { dateTime, idColumn, jsonText, money, timestamps } from '../../src/lib/migration-helpers.js';

/**
 * Recurring orders (src/plugin/recurring-order): a buyer's items ordered again every N days, weeks
 * or months. Host ids (customer, employee, products, addresses, orders) are plain indexed columns.
 * Dates of the schedule are calendar dates 'YYYY-MM-DD' (UTC). One occurrence per recurring order
 * and due date: the unique key is what keeps an occurrence from being placed twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_recurring_orders', (t) => {
    idColumn(t).primary();
    idColumn(t, 'customer_id').notNullable().index('suite_recurring_orders_customer_idx');
    idColumn(t, 'sales_channel_id').notNullable();
    /** 'customer' (the company admin's login) or 'employee' */
    t.string('owner_type', 16).notNullable();
    idColumn(t, 'owner_id').notNullable();
    t.string('owner_name', 255).notNullable();
    t.string('owner_email', 255).nullable();
    t.string('name', 255).notNullable();
    /** 'cart' or 'product-list' */
    t.string('source', 16).notNullable();
    idColumn(t, 'source_id').nullable();
    /** 'day', 'week' or 'month' */
    t.string('interval_unit', 8).notNullable();
    t.integer('interval_count').notNullable();
    t.string('start_date', 10).notNullable();
    t.string('end_date', 10).nullable();
    /** null when the schedule has ended or was cancelled */
    t.string('next_date', 10).nullable();
    /** 'active', 'paused', 'cancelled', 'ended' */
    t.string('status', 16).notNullable();
    idColumn(t, 'billing_address_id').nullable();
    idColumn(t, 'shipping_address_id').nullable();
    t.text('comment').nullable();
    t.integer('occurrence_count').notNullable().defaultTo(0);
    timestamps(t);
    t.index(['status', 'next_date'], 'suite_recurring_orders_due_idx');
  });
  await knex.schema.createTable('suite_recurring_order_items', (t) => {
    idColumn(t).primary();
    idColumn(t, 'recurring_order_id').notNullable();
    t.foreign('recurring_order_id', 'suite_recurring_items_order_fk')
      .references('suite_recurring_orders.id')
      .onDelete('CASCADE');
    idColumn(t, 'product_id').notNullable();
    t.string('label', 255).notNullable();
    t.integer('quantity').notNullable();
    t.integer('position').notNullable();
    /** the unit net price of the last placed occurrence (null before the first): a change is mailed */
    money(t, 'last_unit_net').nullable();
  });
  await knex.schema.createTable('suite_recurring_order_occurrences', (t) => {
    idColumn(t).primary();
    idColumn(t, 'recurring_order_id').notNullable();
    t.foreign('recurring_order_id', 'suite_recurring_occurrences_order_fk')
      .references('suite_recurring_orders.id')
      .onDelete('CASCADE');
    idColumn(t, 'customer_id').notNullable();
    t.string('due_date', 10).notNullable();
    /** 'placed', 'approval' (it needed approval: an approval was asked for), 'failed', 'skipped' */
    t.string('status', 16).notNullable();
    /** why it failed or was skipped ('missed', 'skipped-by-buyer', or the refusal's text) */
    t.text('reason').nullable();
    t.string('error_code', 64).nullable();
    idColumn(t, 'order_id').nullable();
    t.string('order_number', 64).nullable();
    idColumn(t, 'approval_id').nullable();
    jsonText(t, 'changes').nullable();
    dateTime(t, 'created_at').notNullable();
    t.unique(['recurring_order_id', 'due_date'], { indexName: 'suite_recurring_occurrences_due_uq' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suite_recurring_order_occurrences');
  await knex.schema.dropTableIfExists('suite_recurring_order_items');
  await knex.schema.dropTableIfExists('suite_recurring_orders');
}
