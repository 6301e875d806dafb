import type { Knex } from 'knex';

/**
 * A customer's own number for a product. `number_key` is the number trimmed and lower-cased, so
 * uniqueness per customer and look-ups are case-insensitive on SQLite as on MySQL/MariaDB.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_customer_product_numbers', (t) => {
    t.string('id', 32).primary();
    t.string('customer_id', 32).notNullable();
    t.string('product_id', 32).notNullable();
    t.string('product_number', 64).notNullable();
    t.string('number_key', 64).notNullable();
    t.datetime('created_at', { precision: 3, useTz: false }).notNullable();
    t.datetime('updated_at', { precision: 3, useTz: false }).nullable();
    t.unique(['customer_id', 'number_key'], { indexName: 'suite_cpn_customer_number_uq' });
    t.unique(['customer_id', 'product_id'], { indexName: 'suite_cpn_customer_product_uq' });
    t.index(['product_id'], 'suite_cpn_product_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suite_customer_product_numbers');
}
