import type { Knex } from 'knex';
import { createVersionTriggers, dropVersionTriggers, versionTriggersOn } from '../../src/lib/migration-helpers.js';

/**
 * The customer product numbers version: the row 'customer-product-numbers' of
 * `suite_data_versions` (migration 017), moved on every write to `suite_customer_product_numbers`,
 * so a process may keep the numbers it read per customer and product
 * (src/plugin/customer-product-number/number-cache.ts) until it moves. Triggers, so every writer
 * counts: the Store API, a CSV import, a customer or product delete, an operator's SQL.
 */
const BUMP = "update suite_data_versions set value = value + 1 where name = 'customer-product-numbers'";

const TRIGGERS = versionTriggersOn(['suite_customer_product_numbers']);

export async function up(knex: Knex): Promise<void> {
  await knex('suite_data_versions').insert({ name: 'customer-product-numbers', value: 1 }).onConflict('name').ignore();
  await createVersionTriggers(knex, TRIGGERS, BUMP);
}

export async function down(knex: Knex): Promise<void> {
  await dropVersionTriggers(knex, TRIGGERS);
  await knex('suite_data_versions').where({ name: 'customer-product-numbers' }).delete();
}
