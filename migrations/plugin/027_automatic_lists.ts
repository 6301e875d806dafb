import type { Knex } from 'knex';
import { dateTime, idColumn } from '../../src/lib/migration-helpers.js';

/**
 * Automatic lists (src/plugin/order-again, docs/automatic-lists.md), kept by the order-placed and
 * order-cancelled hooks on both hosts (host ids, no foreign keys):
 * - `suite_ordered_products`: per order and product the ordered quantity and the order date
 *   (a cancelled order's rows are deleted); "frequently ordered" counts them within a window.
 * - `suite_assortments`: per customer and product the order count, total quantity and the last
 *   order's date and quantity ("my assortment"), read a page at a time in index order.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_ordered_products', (t) => {
    idColumn(t, 'order_id').notNullable();
    idColumn(t, 'product_id').notNullable();
    idColumn(t, 'customer_id').notNullable();
    t.integer('quantity').notNullable();
    dateTime(t, 'order_date').notNullable();
    t.primary(['order_id', 'product_id']);
    t.index(['customer_id', 'product_id', 'order_date'], 'suite_ordered_products_product_idx');
    t.index(['customer_id', 'order_date', 'product_id'], 'suite_ordered_products_date_idx');
  });
  await knex.schema.createTable('suite_assortments', (t) => {
    idColumn(t, 'customer_id').notNullable();
    idColumn(t, 'product_id').notNullable();
    t.integer('order_count').notNullable();
    t.integer('total_quantity').notNullable();
    t.integer('last_quantity').notNullable();
    dateTime(t, 'last_order_date').notNullable();
    t.primary(['customer_id', 'product_id']);
    t.index(['customer_id', 'last_order_date', 'product_id'], 'suite_assortments_list_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suite_assortments');
  await knex.schema.dropTableIfExists('suite_ordered_products');
}
