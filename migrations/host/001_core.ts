import type { Knex } from 'knex';
import { dateTime, idColumn, jsonText, timestamps } from '../../src/lib/migration-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sales_channels', (t) => {
    idColumn(t).primary();
    t.string('name', 255).notNullable();
    t.string('access_key', 64).notNullable().unique();
    t.string('currency_iso', 3).notNullable();
    t.integer('currency_precision').notNullable().defaultTo(2);
    t.string('language_code', 10).notNullable();
    t.string('time_zone', 64).notNullable();
    jsonText(t, 'domains').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    timestamps(t);
  });
  await knex.schema.createTable('customer_groups', (t) => {
    idColumn(t).primary();
    t.string('name', 255).notNullable();
    timestamps(t);
  });
  await knex.schema.createTable('customers', (t) => {
    idColumn(t).primary();
    idColumn(t, 'sales_channel_id').notNullable().references('sales_channels.id');
    idColumn(t, 'group_id').nullable().references('customer_groups.id');
    t.string('customer_number', 64).notNullable().unique();
    t.string('email', 255).notNullable().unique();
    t.string('password_hash', 255).nullable();
    t.string('first_name', 255).notNullable();
    t.string('last_name', 255).notNullable();
    t.string('company', 255).nullable();
    jsonText(t, 'tags').nullable();
    t.boolean('active').notNullable().defaultTo(true);
    idColumn(t, 'default_billing_address_id').nullable();
    idColumn(t, 'default_shipping_address_id').nullable();
    timestamps(t);
  });
  await knex.schema.createTable('customer_addresses', (t) => {
    idColumn(t).primary();
    idColumn(t, 'customer_id').notNullable().references('customers.id').onDelete('CASCADE');
    t.string('company', 255).nullable();
    t.string('first_name', 255).notNullable();
    t.string('last_name', 255).notNullable();
    t.string('street', 255).notNullable();
    t.string('zipcode', 32).notNullable();
    t.string('city', 255).notNullable();
    t.string('country_code', 2).notNullable();
    timestamps(t);
    t.index(['customer_id']);
  });
  await knex.schema.createTable('admin_users', (t) => {
    idColumn(t).primary();
    t.string('username', 255).notNullable().unique();
    t.string('email', 255).notNullable();
    t.string('password_hash', 255).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    timestamps(t);
  });
  await knex.schema.createTable('admin_integrations', (t) => {
    idColumn(t).primary();
    t.string('client_id', 128).notNullable().unique();
    t.string('secret_hash', 255).notNullable();
    t.string('label', 255).notNullable();
    timestamps(t);
  });
  // A context token's jti names one row here; revoking the row revokes the token.
  await knex.schema.createTable('sessions', (t) => {
    idColumn(t).primary();
    idColumn(t, 'sales_channel_id').notNullable().references('sales_channels.id');
    idColumn(t, 'customer_id').nullable().references('customers.id').onDelete('CASCADE');
    t.string('actor_type', 32).notNullable();
    idColumn(t, 'actor_id').nullable();
    jsonText(t, 'attributes').nullable();
    t.string('cart_token', 64).nullable();
    dateTime(t, 'created_at').notNullable();
    dateTime(t, 'expires_at').notNullable();
    dateTime(t, 'revoked_at').nullable();
    t.index(['customer_id']);
    t.index(['actor_type', 'actor_id']);
  });
  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.string('counter_key', 64).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('hits').notNullable().defaultTo(0);
    t.primary(['counter_key', 'window_start']);
  });
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.string('scope', 191).notNullable();
    t.string('idem_key', 191).notNullable();
    t.string('request_hash', 64).notNullable();
    t.string('state', 16).notNullable();
    t.integer('status_code').nullable();
    jsonText(t, 'response_body').nullable();
    dateTime(t, 'created_at').notNullable();
    t.primary(['scope', 'idem_key']);
  });
  await knex.schema.createTable('number_ranges', (t) => {
    t.string('name', 64).primary();
    t.bigInteger('last_value').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('plugin_configs', (t) => {
    t.string('plugin_name', 128).primary();
    jsonText(t, 'config').notNullable();
    dateTime(t, 'updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'plugin_configs',
    'number_ranges',
    'idempotency_keys',
    'rate_limit_counters',
    'sessions',
    'admin_integrations',
    'admin_users',
    'customer_addresses',
    'customers',
    'customer_groups',
    'sales_channels',
  ])
    await knex.schema.dropTableIfExists(table);
}
