import type { Knex } from 'knex';
import { dateTime, idColumn, timestamps } from '../../src/lib/migration-helpers.js';

/**
 * Part 1 — cost centers: a company's cost centers, each login's default one, and the one chosen for the next
 * order. The order keeps its cost center as a snapshot in its custom fields (written by the host
 * with the order), so no table here is keyed by order, and deleting a cost center changes no order.
 * Host ids (customer, employee or other actor) are plain indexed columns.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_cost_centers', (t) => {
    idColumn(t).primary();
    idColumn(t, 'customer_id').notNullable();
    t.string('number', 64).notNullable();
    t.string('name', 255).notNullable();
    t.text('description').nullable();
    t.boolean('active').notNullable().defaultTo(true);
    timestamps(t);
    t.unique(['customer_id', 'number']);
    t.index(['customer_id', 'name']);
  });
  /** A login's default (employee, company admin or representative acting for the customer): one per customer and actor. */
  await knex.schema.createTable('suite_cost_center_defaults', (t) => {
    idColumn(t, 'customer_id').notNullable();
    t.string('actor_type', 32).notNullable();
    idColumn(t, 'actor_id').notNullable();
    idColumn(t, 'cost_center_id').notNullable().references('suite_cost_centers.id').onDelete('CASCADE');
    dateTime(t, 'updated_at').notNullable();
    t.primary(['customer_id', 'actor_type', 'actor_id']);
    t.index(['cost_center_id']);
  });
  /** The cost center a login chose for its next order (consumed by that order). */
  await knex.schema.createTable('suite_cost_center_selections', (t) => {
    idColumn(t, 'customer_id').notNullable();
    t.string('actor_type', 32).notNullable();
    idColumn(t, 'actor_id').notNullable();
    idColumn(t, 'cost_center_id').notNullable().references('suite_cost_centers.id').onDelete('CASCADE');
    dateTime(t, 'updated_at').notNullable();
    t.primary(['customer_id', 'actor_type', 'actor_id']);
    t.index(['cost_center_id']);
  });
  /**
   * Customer prices: a validity period (from inclusive, until exclusive; null: open), the currency the
   * price is in (null: the sales channel's, as before) and a pseudo (strike-through) unit price.
   */
  await knex.schema.alterTable('suite_customer_prices', (t) => {
    dateTime(t, 'valid_from').nullable();
    dateTime(t, 'valid_until').nullable();
    t.string('currency_iso', 3).nullable();
    t.bigInteger('list_price_net').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_customer_prices', (t) => {
    for (const column of ['valid_from', 'valid_until', 'currency_iso', 'list_price_net']) t.dropColumn(column);
  });
  for (const table of ['suite_cost_center_selections', 'suite_cost_center_defaults', 'suite_cost_centers'])
    await knex.schema.dropTableIfExists(table);
}
