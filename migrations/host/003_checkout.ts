import type { Knex } from 'knex';
import { binary, dateTime, idColumn, jsonText, money, timestamps } from '../../src/lib/migration-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('carts', (t) => {
    t.string('token', 64).primary();
    idColumn(t, 'sales_channel_id').notNullable().references('sales_channels.id');
    idColumn(t, 'customer_id').nullable().references('customers.id').onDelete('CASCADE');
    /** Set once, by the conditional write that turns the cart into an order. */
    idColumn(t, 'order_id').nullable();
    timestamps(t);
    t.index(['customer_id']);
  });
  await knex.schema.createTable('cart_line_items', (t) => {
    idColumn(t).primary();
    t.string('cart_token', 64).notNullable().references('carts.token').onDelete('CASCADE');
    t.string('type', 32).notNullable().defaultTo('product');
    idColumn(t, 'product_id').nullable();
    t.string('label', 255).notNullable();
    t.integer('quantity').notNullable();
    jsonText(t, 'payload').nullable();
    t.integer('position').notNullable().defaultTo(0);
    timestamps(t);
    t.index(['cart_token', 'position']);
  });
  await knex.schema.createTable('orders', (t) => {
    idColumn(t).primary();
    t.string('order_number', 32).notNullable().unique();
    idColumn(t, 'sales_channel_id').notNullable().references('sales_channels.id');
    idColumn(t, 'customer_id').notNullable().references('customers.id');
    /** Who placed it: 'customer', 'employee', 'salesRepresentative' and that actor's id. */
    t.string('placed_by_type', 32).notNullable();
    idColumn(t, 'placed_by_id').nullable();
    t.string('state', 32).notNullable();
    t.string('currency_iso', 3).notNullable();
    money(t, 'net_total').notNullable();
    money(t, 'tax_total').notNullable();
    money(t, 'total').notNullable();
    jsonText(t, 'billing_address').nullable();
    jsonText(t, 'shipping_address').nullable();
    t.text('customer_comment').nullable();
    /** The cart an order came from: unique, so one cart can never become two orders. */
    t.string('source_cart_token', 64).nullable().unique();
    jsonText(t, 'custom_fields').nullable();
    dateTime(t, 'order_date').notNullable();
    timestamps(t);
    t.index(['customer_id', 'order_date']);
    t.index(['placed_by_type', 'placed_by_id', 'order_date']);
  });
  await knex.schema.createTable('order_line_items', (t) => {
    idColumn(t).primary();
    idColumn(t, 'order_id').notNullable().references('orders.id').onDelete('CASCADE');
    t.string('type', 32).notNullable();
    idColumn(t, 'product_id').nullable();
    t.string('product_number', 64).nullable();
    t.string('label', 255).notNullable();
    t.integer('quantity').notNullable();
    money(t, 'unit_net').notNullable();
    money(t, 'total_net').notNullable();
    t.integer('tax_rate_bp').notNullable();
    jsonText(t, 'payload').nullable();
    t.integer('position').notNullable().defaultTo(0);
    t.index(['order_id', 'position']);
    t.index(['product_id']);
  });
  await knex.schema.createTable('order_deliveries', (t) => {
    idColumn(t).primary();
    idColumn(t, 'order_id').notNullable().references('orders.id').onDelete('CASCADE');
    t.string('state', 32).notNullable();
    t.string('shipping_method', 64).notNullable();
    jsonText(t, 'shipping_address').nullable();
    timestamps(t);
    t.index(['order_id']);
  });
  await knex.schema.createTable('order_transactions', (t) => {
    idColumn(t).primary();
    idColumn(t, 'order_id').notNullable().references('orders.id').onDelete('CASCADE');
    t.string('state', 32).notNullable();
    t.string('payment_method', 64).notNullable();
    money(t, 'amount').notNullable();
    timestamps(t);
    t.index(['order_id']);
  });
  await knex.schema.createTable('documents', (t) => {
    idColumn(t).primary();
    idColumn(t, 'order_id').nullable().references('orders.id').onDelete('CASCADE');
    idColumn(t, 'customer_id').nullable().references('customers.id').onDelete('CASCADE');
    t.string('type', 32).notNullable();
    t.string('document_number', 64).notNullable();
    t.string('file_name', 191).notNullable().unique();
    t.string('mime_type', 64).notNullable();
    binary(knex, t, 'content').notNullable();
    timestamps(t);
    t.index(['order_id']);
    t.index(['customer_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'documents',
    'order_transactions',
    'order_deliveries',
    'order_line_items',
    'orders',
    'cart_line_items',
    'carts',
  ])
    await knex.schema.dropTableIfExists(table);
}
