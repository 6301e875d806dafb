import type { Knex } from 'knex';
import { dateTime, idColumn, jsonText, money, timestamps } from '../../src/lib/migration-helpers.js';

/**
 * Employee budgets and order approvals. Employee ids carry no foreign key: the employee add-on
 * owns that table and deleting an employee must not erase a company's budget or approval history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_budgets', (t) => {
    idColumn(t).primary();
    idColumn(t, 'customer_id').notNullable();
    t.string('name', 255).notNullable();
    t.text('description').nullable();
    money(t, 'amount').notNullable();
    t.string('currency_iso', 3).notNullable();
    t.string('period_type', 16).notNullable();
    t.string('start_date', 10).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.integer('notification_percentage').nullable();
    /** true: an order beyond the budget asks for approval; false: it is refused. */
    t.boolean('allow_approval').notNullable().defaultTo(true);
    idColumn(t, 'approver_employee_id').nullable();
    timestamps(t);
    t.index(['customer_id', 'active'], 'suite_budgets_customer_idx');
  });
  await knex.schema.createTable('suite_budget_employees', (t) => {
    idColumn(t, 'budget_id').notNullable();
    idColumn(t, 'employee_id').notNullable();
    t.primary(['budget_id', 'employee_id'], 'suite_budget_employees_pk');
    t.index(['employee_id'], 'suite_budget_employees_employee_idx');
    t.foreign('budget_id', 'suite_budget_employees_budget_fk').references('suite_budgets.id').onDelete('CASCADE');
  });
  await knex.schema.createTable('suite_budget_categories', (t) => {
    idColumn(t, 'budget_id').notNullable();
    idColumn(t, 'category_id').notNullable();
    t.primary(['budget_id', 'category_id'], 'suite_budget_categories_pk');
    t.foreign('budget_id', 'suite_budget_categories_budget_fk').references('suite_budgets.id').onDelete('CASCADE');
  });
  /** Usage: one row per order and budget, written in the order's transaction. */
  await knex.schema.createTable('suite_budget_orders', (t) => {
    idColumn(t, 'budget_id').notNullable();
    idColumn(t, 'order_id').notNullable();
    idColumn(t, 'customer_id').notNullable();
    t.string('order_number', 32).notNullable();
    money(t, 'amount').notNullable();
    dateTime(t, 'placed_at').notNullable();
    jsonText(t, 'budget_data').notNullable();
    t.primary(['budget_id', 'order_id'], 'suite_budget_orders_pk');
    t.index(['budget_id', 'placed_at'], 'suite_budget_orders_period_idx');
    t.index(['order_id'], 'suite_budget_orders_order_idx');
    t.foreign('budget_id', 'suite_budget_orders_budget_fk').references('suite_budgets.id').onDelete('CASCADE');
  });

  await knex.schema.createTable('suite_order_approval_settings', (t) => {
    idColumn(t, 'customer_id').primary();
    t.string('mode', 16).notNullable();
    jsonText(t, 'approver_employee_ids').notNullable();
    t.integer('n_value').notNullable().defaultTo(1);
    dateTime(t, 'updated_at').notNullable();
  });
  await knex.schema.createTable('suite_order_approvals', (t) => {
    idColumn(t).primary();
    t.string('approval_number', 32).notNullable().unique('suite_order_approvals_number_uq');
    idColumn(t, 'customer_id').notNullable();
    idColumn(t, 'sales_channel_id').notNullable();
    /** 'employee' or 'customer' (the company admin's own login) */
    t.string('requester_type', 16).notNullable();
    idColumn(t, 'requester_id').notNullable();
    t.string('requester_name', 255).notNullable();
    t.string('requester_email', 255).nullable();
    /** pending → approved | declined; approved → ordered. 'ordering' only exists inside the execute transaction. */
    t.string('status', 16).notNullable();
    /** Decisions of earlier rounds no longer count (a price rise sends the approval back to pending). */
    t.integer('decision_round').notNullable().defaultTo(1);
    t.string('mode', 16).notNullable();
    t.integer('n_value').notNullable().defaultTo(1);
    jsonText(t, 'approver_employee_ids').notNullable();
    jsonText(t, 'reasons').notNullable();
    t.string('cart_token', 64).nullable();
    /** The cart while the approval is open: unique, so one cart never has two open approvals. */
    t.string('open_cart_token', 64).nullable().unique('suite_order_approvals_open_cart_uq');
    t.text('customer_comment').nullable();
    idColumn(t, 'billing_address_id').nullable();
    idColumn(t, 'shipping_address_id').nullable();
    t.string('currency_iso', 3).notNullable();
    money(t, 'net_total').notNullable();
    money(t, 'tax_total').notNullable();
    money(t, 'total').notNullable();
    t.boolean('is_blocked').notNullable().defaultTo(false);
    jsonText(t, 'block_reasons').notNullable();
    dateTime(t, 'last_refreshed_at').nullable();
    idColumn(t, 'order_id').nullable();
    t.string('order_number', 32).nullable();
    jsonText(t, 'execution_result').nullable();
    dateTime(t, 'decided_at').nullable();
    timestamps(t);
    t.index(['customer_id', 'status', 'created_at'], 'suite_order_approvals_status_idx');
    t.index(['customer_id', 'created_at'], 'suite_order_approvals_created_idx');
    t.index(['requester_id', 'created_at'], 'suite_order_approvals_requester_idx');
  });
  await knex.schema.createTable('suite_order_approval_line_items', (t) => {
    idColumn(t).primary();
    idColumn(t, 'approval_id').notNullable();
    t.string('type', 32).notNullable();
    idColumn(t, 'product_id').nullable();
    t.string('product_number', 64).nullable();
    t.string('label', 255).notNullable();
    t.integer('quantity').notNullable();
    money(t, 'unit_net').notNullable();
    money(t, 'total_net').notNullable();
    t.integer('tax_rate_bp').notNullable();
    jsonText(t, 'payload').nullable();
    t.integer('position').notNullable().defaultTo(0);
    t.index(['approval_id', 'position'], 'suite_oa_line_items_approval_idx');
    t.foreign('approval_id', 'suite_oa_line_items_approval_fk')
      .references('suite_order_approvals.id')
      .onDelete('CASCADE');
  });
  /** Reservations: the budget-relevant net amount of an open approval, per budget. */
  await knex.schema.createTable('suite_order_approval_budgets', (t) => {
    idColumn(t, 'approval_id').notNullable();
    idColumn(t, 'budget_id').notNullable();
    money(t, 'amount').notNullable();
    t.boolean('exceeds').notNullable().defaultTo(false);
    t.primary(['approval_id', 'budget_id'], 'suite_oa_budgets_pk');
    t.index(['budget_id'], 'suite_oa_budgets_budget_idx');
    t.foreign('approval_id', 'suite_oa_budgets_approval_fk').references('suite_order_approvals.id').onDelete('CASCADE');
    t.foreign('budget_id', 'suite_oa_budgets_budget_fk').references('suite_budgets.id').onDelete('CASCADE');
  });
  await knex.schema.createTable('suite_order_approval_decisions', (t) => {
    idColumn(t).primary();
    idColumn(t, 'approval_id').notNullable();
    t.integer('round').notNullable();
    /** 'employee:<id>' or 'customer:<id>': one decision per approver and round. */
    t.string('approver_key', 64).notNullable();
    t.string('approver_type', 16).notNullable();
    idColumn(t, 'approver_id').notNullable();
    t.string('approver_name', 255).notNullable();
    t.string('decision', 16).notNullable();
    t.text('comment').nullable();
    jsonText(t, 'cc_employee_ids').notNullable();
    dateTime(t, 'created_at').notNullable();
    t.unique(['approval_id', 'round', 'approver_key'], 'suite_oa_decisions_uq');
    t.foreign('approval_id', 'suite_oa_decisions_approval_fk')
      .references('suite_order_approvals.id')
      .onDelete('CASCADE');
  });
  await knex.schema.createTable('suite_order_approval_activities', (t) => {
    idColumn(t).primary();
    idColumn(t, 'approval_id').notNullable();
    t.string('action', 32).notNullable();
    t.string('actor_type', 24).notNullable();
    idColumn(t, 'actor_id').nullable();
    t.string('actor_name', 255).notNullable();
    t.text('comment').nullable();
    jsonText(t, 'metadata').notNullable();
    dateTime(t, 'created_at').notNullable();
    t.index(['approval_id', 'created_at'], 'suite_oa_activities_approval_idx');
    t.foreign('approval_id', 'suite_oa_activities_approval_fk')
      .references('suite_order_approvals.id')
      .onDelete('CASCADE');
  });
  /** When each approver was last reminded of an approval: one reminder per approver per interval. */
  await knex.schema.createTable('suite_order_approval_reminders', (t) => {
    idColumn(t, 'approval_id').notNullable();
    t.string('approver_key', 64).notNullable();
    dateTime(t, 'last_sent_at').notNullable();
    t.primary(['approval_id', 'approver_key'], 'suite_oa_reminders_pk');
    t.foreign('approval_id', 'suite_oa_reminders_approval_fk')
      .references('suite_order_approvals.id')
      .onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'suite_order_approval_reminders',
    'suite_order_approval_activities',
    'suite_order_approval_decisions',
    'suite_order_approval_budgets',
    'suite_order_approval_line_items',
    'suite_order_approvals',
    'suite_order_approval_settings',
    'suite_budget_orders',
    'suite_budget_categories',
    'suite_budget_employees',
    'suite_budgets',
  ])
    await knex.schema.dropTableIfExists(table);
}
