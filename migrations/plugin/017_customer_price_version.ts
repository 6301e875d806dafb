import type { Knex } from 'knex';
import { dialectOf } from '../../src/lib/db.js';

/**
 * The customer prices version (issue 12): a counter in `suite_customer_price_counters` that moves on
 * every write to `suite_customer_prices`, so a process may keep the price rows it read per customer
 * and product (src/plugin/customer-price/price-cache.ts) until the counter moves. Triggers, not
 * application code, move it, so every writer counts: the Admin API, a CSV import, a host event's
 * delete or an operator's SQL. Time passing needs no write: validity periods are applied per request.
 */
const BUMP = "update suite_customer_price_counters set value = value + 1 where name = 'prices'";

const TRIGGERS = (['insert', 'update', 'delete'] as const).map((event) => ({ name: `suite_customer_prices_version_${event}`, event }));

function createTrigger(knex: Knex, { name, event }: (typeof TRIGGERS)[number]): string {
  if (dialectOf(knex) === 'sqlite') return `create trigger ${name} after ${event} on suite_customer_prices for each row begin ${BUMP}; end`;
  return `create trigger ${name} after ${event} on suite_customer_prices for each row ${BUMP}`;
}

export async function up(knex: Knex): Promise<void> {
  // MySQL/MariaDB commit each DDL statement: a run that stopped half-way is run again from the top.
  if (!(await knex.schema.hasTable('suite_customer_price_counters')))
    await knex.schema.createTable('suite_customer_price_counters', (t) => {
      t.string('name', 64).primary();
      t.bigInteger('value').notNullable().defaultTo(0);
    });
  await knex('suite_customer_price_counters').insert({ name: 'prices', value: 1 }).onConflict('name').ignore();
  for (const trigger of TRIGGERS) {
    await knex.raw(`drop trigger if exists ${trigger.name}`);
    await knex.raw(createTrigger(knex, trigger));
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const trigger of TRIGGERS) await knex.raw(`drop trigger if exists ${trigger.name}`);
  await knex.schema.dropTableIfExists('suite_customer_price_counters');
}
