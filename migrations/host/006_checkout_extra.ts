import type { Knex } from 'knex';
import { idColumn, jsonText } from '../../src/lib/migration-helpers.js';

export async function up(knex: Knex): Promise<void> {
  // A cart belongs to one actor of one customer (an employee's cart is not the company's), so a new session can pick it up again.
  await knex.schema.alterTable('carts', (t) => {
    t.string('actor_type', 32).nullable();
    idColumn(t, 'actor_id').nullable();
    t.index(['customer_id', 'actor_type', 'actor_id'], 'carts_owner_index');
  });
  // The buyer as they were when the order was placed: {customerId, customerNumber, email, firstName, lastName, company}.
  await knex.schema.alterTable('orders', (t) => {
    jsonText(t, 'order_customer').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('order_customer');
  });
  await knex.schema.alterTable('carts', (t) => {
    t.dropIndex(['customer_id', 'actor_type', 'actor_id'], 'carts_owner_index');
    t.dropColumn('actor_id');
    t.dropColumn('actor_type');
  });
}
