import type { Knex } from 'knex';

/**
 * Who placed each order of the automatic lists (decision 0045): a buyer without
 * `orders.read-all` gets "my assortment" and "frequently ordered" of their own orders. The actor's
 * type and id as the order-placed hook hands them over (host ids, no foreign keys). Rows written
 * before this migration have none: they count in the company's lists only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_ordered_products', (t) => {
    t.string('placed_by_type', 32).nullable();
    t.string('placed_by_id', 32).nullable();
    t.index(['customer_id', 'placed_by_id', 'order_date'], 'suite_ordered_products_placed_by_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_ordered_products', (t) => {
    t.dropIndex(['customer_id', 'placed_by_id', 'order_date'], 'suite_ordered_products_placed_by_idx');
  });
  await knex.schema.alterTable('suite_ordered_products', (t) => {
    t.dropColumn('placed_by_type');
    t.dropColumn('placed_by_id');
  });
}
