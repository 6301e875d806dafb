import type { Knex } from 'knex';
import { dateTime, idColumn, money } from '../../src/lib/migration-helpers.js';

/**
 * Payment on account (decision 0019): a credit line per company (limit and balance in one
 * currency, minor units), the charge each order on account took (released when it is cancelled),
 * and the payment terms per company. Host ids (customer, order) are plain indexed columns.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_credit_lines', (t) => {
    idColumn(t, 'customer_id').primary();
    money(t, 'credit_limit').notNullable();
    t.string('currency_iso', 3).notNullable();
    /** What the open orders on account owe: charged when placed, released when cancelled. */
    money(t, 'balance').notNullable().defaultTo(0);
    dateTime(t, 'created_at').notNullable();
    dateTime(t, 'updated_at').nullable();
  });
  await knex.schema.createTable('suite_credit_line_charges', (t) => {
    idColumn(t, 'order_id').primary();
    idColumn(t, 'customer_id').notNullable();
    money(t, 'amount').notNullable();
    t.string('currency_iso', 3).notNullable();
    dateTime(t, 'charged_at').notNullable();
    dateTime(t, 'released_at').nullable();
    t.index(['customer_id', 'charged_at']);
  });
  await knex.schema.createTable('suite_payment_terms', (t) => {
    idColumn(t, 'customer_id').primary();
    t.integer('days_net').notNullable();
    /** Early-payment discount in basis points (2 % = 200); 0 with no discount. */
    t.integer('discount_bp').notNullable().defaultTo(0);
    t.integer('discount_days').notNullable().defaultTo(0);
    dateTime(t, 'created_at').notNullable();
    dateTime(t, 'updated_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suite_payment_terms');
  await knex.schema.dropTableIfExists('suite_credit_line_charges');
  await knex.schema.dropTableIfExists('suite_credit_lines');
}
