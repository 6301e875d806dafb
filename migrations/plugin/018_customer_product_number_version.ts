import type { Knex } from 'knex';
import { dialectOf } from '../../src/lib/db.js';

/**
 * The customer product numbers version (issue 12): the row 'customer-product-numbers' of
 * `suite_data_versions` (migration 017), moved on every write to `suite_customer_product_numbers`,
 * so a process may keep the numbers it read per customer and product
 * (src/plugin/customer-product-number/number-cache.ts) until it moves. Triggers, so every writer
 * counts: the Store API, a CSV import, a customer or product delete, an operator's SQL.
 */
const BUMP = "update suite_data_versions set value = value + 1 where name = 'customer-product-numbers'";

const TRIGGERS = (['insert', 'update', 'delete'] as const).map((event) => ({ name: `suite_customer_product_numbers_version_${event}`, event }));

function createTrigger(knex: Knex, { name, event }: (typeof TRIGGERS)[number]): string {
  if (dialectOf(knex) === 'sqlite') return `create trigger ${name} after ${event} on suite_customer_product_numbers for each row begin ${BUMP}; end`;
  return `create trigger ${name} after ${event} on suite_customer_product_numbers for each row ${BUMP}`;
}

export async function up(knex: Knex): Promise<void> {
  // MySQL/MariaDB commit each DDL statement: a run that stopped half-way is run again from the top.
  await knex('suite_data_versions').insert({ name: 'customer-product-numbers', value: 1 }).onConflict('name').ignore();
  for (const trigger of TRIGGERS) {
    await knex.raw(`drop trigger if exists ${trigger.name}`);
    await knex.raw(createTrigger(knex, trigger));
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const trigger of TRIGGERS) await knex.raw(`drop trigger if exists ${trigger.name}`);
  await knex('suite_data_versions').where({ name: 'customer-product-numbers' }).delete();
}
