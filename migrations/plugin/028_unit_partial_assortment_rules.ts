import type { Knex } from 'knex';
import { dateTime, idColumn } from '../../src/lib/migration-helpers.js';

/**
 * Partial-assortment rules attached to organisation units (decision 0028): the
 * employees of the unit and of every unit below it match the rule. The row goes with its unit
 * (cascade); the rule is the host's (a plain id, decision 0002).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('b2b_unit_partial_assortment_rules', (t) => {
    idColumn(t, 'unit_id').notNullable().references('b2b_organisation_units.id').onDelete('CASCADE');
    idColumn(t, 'rule_id').notNullable();
    idColumn(t, 'customer_id').notNullable().index();
    dateTime(t, 'created_at').notNullable();
    t.primary(['unit_id', 'rule_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('b2b_unit_partial_assortment_rules');
}
