import type { Knex } from 'knex';
import {
  createVersionTriggers,
  dropVersionTriggers,
  idColumn,
  timestamps,
  versionTriggersOn,
} from '../../src/lib/migration-helpers.js';

/**
 * Quantity rules: per product (a host id, no foreign key) the quantities a buyer may order — a
 * minimum, an optional maximum, a step, and a packaging unit (sold in packs of `pack_size` pieces,
 * priced per piece or per pack). Quantities count pieces everywhere (src/plugin/quantity-rule).
 * The row 'quantity-rules' of `suite_data_versions` moves on every write to the rules (triggers), so
 * a process keeps the rules it read (src/plugin/quantity-rule/rule-cache.ts) until it moves.
 */
const BUMP = "update suite_data_versions set value = value + 1 where name = 'quantity-rules'";

const TRIGGERS = versionTriggersOn(['suite_quantity_rules']);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_quantity_rules', (t) => {
    idColumn(t, 'product_id').primary();
    t.integer('min_quantity').notNullable();
    /** null: no maximum of its own (the cart's line limit still applies) */
    t.integer('max_quantity').nullable();
    t.integer('step').notNullable();
    t.integer('pack_size').notNullable();
    /** 'piece' or 'pack': how the price is quoted to the buyer */
    t.string('price_unit', 8).notNullable();
    timestamps(t);
  });
  await knex('suite_data_versions').insert({ name: 'quantity-rules', value: 1 }).onConflict('name').ignore();
  await createVersionTriggers(knex, TRIGGERS, BUMP);
}

export async function down(knex: Knex): Promise<void> {
  await dropVersionTriggers(knex, TRIGGERS);
  await knex('suite_data_versions').where({ name: 'quantity-rules' }).delete();
  await knex.schema.dropTableIfExists('suite_quantity_rules');
}
