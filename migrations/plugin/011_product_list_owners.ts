import type { Knex } from 'knex';

/**
 * One row per customer that has product lists: creating a list locks it, so the per-customer list
 * limit holds under concurrent creates (the plugin locks its own row, never the host's customer).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_product_list_owners', (t) => {
    t.string('customer_id', 32).primary();
    t.datetime('created_at', { precision: 3, useTz: false }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suite_product_list_owners');
}
