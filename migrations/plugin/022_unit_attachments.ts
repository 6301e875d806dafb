import type { Knex } from 'knex';
import { dateTime, idColumn } from '../../src/lib/migration-helpers.js';

/**
 * What hangs on an organisation unit (migration 020) and applies to its subtree: budgets, cost
 * centers, addresses of the company address book and the unit's default addresses. Addresses are
 * the host's (customer addresses, contract `customers.createAddress` …): their ids are plain indexed
 * columns without foreign keys (docs/decisions/0002). A unit's rows go with the unit (cascade), but
 * the unit routes refuse to delete a unit that still has any of them unless told where they move.
 */
export async function up(knex: Knex): Promise<void> {
  /** A budget assigned to units applies to every employee whose unit scope (units and the units above) holds one of them. */
  await knex.schema.createTable('suite_budget_units', (t) => {
    idColumn(t, 'budget_id').notNullable().references('suite_budgets.id').onDelete('CASCADE');
    idColumn(t, 'unit_id').notNullable().references('b2b_organisation_units.id').onDelete('CASCADE');
    t.primary(['budget_id', 'unit_id']);
    t.index(['unit_id']);
  });
  /** A unit's default cost center: the employees of its subtree without a default of their own get it. */
  await knex.schema.createTable('suite_cost_center_units', (t) => {
    idColumn(t, 'unit_id').notNullable().primary().references('b2b_organisation_units.id').onDelete('CASCADE');
    idColumn(t, 'customer_id').notNullable();
    idColumn(t, 'cost_center_id').notNullable().references('suite_cost_centers.id').onDelete('CASCADE');
    dateTime(t, 'updated_at').notNullable();
    t.index(['cost_center_id']);
  });
  /**
   * An address of the company's book that belongs to units: offered to the buyers of their subtrees
   * only. An address without a row here is the company's, offered to every buyer.
   */
  await knex.schema.createTable('b2b_unit_addresses', (t) => {
    idColumn(t, 'address_id').notNullable();
    idColumn(t, 'unit_id').notNullable().references('b2b_organisation_units.id').onDelete('CASCADE');
    idColumn(t, 'customer_id').notNullable();
    t.primary(['address_id', 'unit_id']);
    t.index(['customer_id', 'unit_id']);
  });
  /** A unit's default billing or shipping address (the nearest unit up the tree with one decides). */
  await knex.schema.createTable('b2b_unit_address_defaults', (t) => {
    idColumn(t, 'unit_id').notNullable().references('b2b_organisation_units.id').onDelete('CASCADE');
    t.string('type', 16).notNullable();
    idColumn(t, 'address_id').notNullable();
    idColumn(t, 'customer_id').notNullable();
    t.primary(['unit_id', 'type']);
    t.index(['customer_id', 'address_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('b2b_unit_address_defaults');
  await knex.schema.dropTableIfExists('b2b_unit_addresses');
  await knex.schema.dropTableIfExists('suite_cost_center_units');
  await knex.schema.dropTableIfExists('suite_budget_units');
}
