import type { Knex } from 'knex';
import { idColumn, timestamps } from '../../src/lib/migration-helpers.js';

/**
 * Organisation units: a tree per company (customer) — departments, branches, subsidiaries. An
 * employee belongs to any number of units and may manage some of them. Budgets, addresses, approval
 * rules and the other things hung on a unit apply to its whole subtree (src/plugin/company/units).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('b2b_organisation_units', (t) => {
    idColumn(t).primary();
    idColumn(t, 'customer_id').notNullable();
    /** null: a top-level unit of the company */
    idColumn(t, 'parent_id').nullable().references('b2b_organisation_units.id');
    t.string('name', 255).notNullable();
    timestamps(t);
    t.index(['customer_id', 'parent_id']);
  });
  await knex.schema.createTable('b2b_organisation_unit_members', (t) => {
    idColumn(t, 'unit_id').notNullable().references('b2b_organisation_units.id').onDelete('CASCADE');
    idColumn(t, 'employee_id').notNullable().references('b2b_employees.id').onDelete('CASCADE');
    idColumn(t, 'customer_id').notNullable();
    t.boolean('is_manager').notNullable().defaultTo(false);
    timestamps(t);
    t.primary(['unit_id', 'employee_id']);
    t.index(['customer_id', 'employee_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('b2b_organisation_unit_members');
  await knex.schema.dropTableIfExists('b2b_organisation_units');
}
