import type { Knex } from 'knex';

/** Product lists belong to a customer (shared by its logins); one item per product per list. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_product_lists', (t) => {
    t.string('id', 32).primary();
    t.string('customer_id', 32).notNullable();
    t.string('name', 255).notNullable();
    /** Who created it: 'customer', 'employee', 'salesRepresentative' and that actor's id. */
    t.string('created_by_type', 32).notNullable();
    t.string('created_by_id', 32).nullable();
    t.datetime('created_at', { precision: 3, useTz: false }).notNullable();
    t.datetime('updated_at', { precision: 3, useTz: false }).nullable();
    t.index(['customer_id', 'created_at'], 'suite_pl_customer_idx');
  });
  await knex.schema.createTable('suite_product_list_items', (t) => {
    t.string('id', 32).primary();
    t.string('product_list_id', 32).notNullable();
    t.string('product_id', 32).notNullable();
    t.integer('quantity').notNullable();
    t.text('comment').nullable();
    t.integer('position').notNullable();
    t.text('custom_fields').nullable();
    t.datetime('created_at', { precision: 3, useTz: false }).notNullable();
    t.datetime('updated_at', { precision: 3, useTz: false }).nullable();
    t.foreign('product_list_id', 'suite_pli_list_fk').references('suite_product_lists.id').onDelete('CASCADE');
    t.unique(['product_list_id', 'product_id'], { indexName: 'suite_pli_list_product_uq' });
    t.index(['product_list_id', 'position'], 'suite_pli_list_position_idx');
    t.index(['product_id'], 'suite_pli_product_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suite_product_list_items');
  await knex.schema.dropTableIfExists('suite_product_lists');
}
