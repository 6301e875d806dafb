import type { Knex } from 'knex';
import { createVersionTriggers, dropVersionTriggers, versionTriggersOn } from '../../src/lib/migration-helpers.js';

/**
 * `suite_data_versions`: the suite's counters of data a process may keep while its counter stays
 * (each add-on's migration adds its row and the triggers that move it; the event manager's is older
 * and has its own table, b2b_event_counters). Read with each Store API context (contract 3.2).
 *
 * The customer prices version: the row 'customer-prices', moved on
 * every write to `suite_customer_prices`, so a process may keep the price rows it read per customer
 * and product (src/plugin/customer-price/price-cache.ts) until the counter moves. Triggers, not
 * application code, move it, so every writer counts: the Admin API, a CSV import, a host event's
 * delete or an operator's SQL. Time passing needs no write: validity periods are applied per request.
 */
const BUMP = "update suite_data_versions set value = value + 1 where name = 'customer-prices'";

const TRIGGERS = versionTriggersOn(['suite_customer_prices']);

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('suite_data_versions')))
    await knex.schema.createTable('suite_data_versions', (t) => {
      t.string('name', 64).primary();
      t.bigInteger('value').notNullable().defaultTo(0);
    });
  await knex('suite_data_versions').insert({ name: 'customer-prices', value: 1 }).onConflict('name').ignore();
  await createVersionTriggers(knex, TRIGGERS, BUMP);
}

export async function down(knex: Knex): Promise<void> {
  await dropVersionTriggers(knex, TRIGGERS);
  await knex('suite_data_versions').where({ name: 'customer-prices' }).delete();
  // The last row's migration takes the table with it.
  if (!(await knex('suite_data_versions').first('name'))) await knex.schema.dropTableIfExists('suite_data_versions');
}
