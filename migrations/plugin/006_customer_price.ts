import type { Knex } from 'knex';

/**
 * Customer prices: a net unit price (minor units) per product from a minimum quantity up, for one
 * customer or for one customer group (exactly one of the two is set). The unique keys are the
 * price provider's lookups: (customer, product, min quantity) and (group, product, min quantity).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_customer_prices', (t) => {
    t.string('id', 32).primary();
    t.string('customer_id', 32).nullable();
    t.string('customer_group_id', 32).nullable();
    t.string('product_id', 32).notNullable();
    t.integer('min_quantity').notNullable();
    t.bigInteger('price_net').notNullable();
    t.datetime('created_at', { precision: 3, useTz: false }).notNullable();
    t.datetime('updated_at', { precision: 3, useTz: false }).nullable();
    t.unique(['customer_id', 'product_id', 'min_quantity'], { indexName: 'suite_cp_customer_product_uq' });
    t.unique(['customer_group_id', 'product_id', 'min_quantity'], { indexName: 'suite_cp_group_product_uq' });
    t.index(['product_id'], 'suite_cp_product_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suite_customer_prices');
}
