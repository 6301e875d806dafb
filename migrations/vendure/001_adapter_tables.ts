import type { Knex } from 'knex';
import { dateTime, idColumn, jsonText } from '../../src/lib/migration-helpers.js';

/**
 * Tables of the Vendure adapter (the host side of the contract inside a Vendure shop), in Vendure's
 * database beside Vendure's own tables. `idempotency_keys` and `rate_limit_counters` keep the names
 * src/lib's pipeline uses; the others carry the `suite_host_` prefix. None of these names collides
 * with a Vendure table (Vendure's are singular: `customer`, `session`, `job_record` …).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.string('counter_key', 64).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('hits').notNullable().defaultTo(0);
    t.primary(['counter_key', 'window_start']);
    t.index(['window_start']);
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
    t.index(['state', 'created_at']);
  });
  /** Sessions of logins Vendure does not know (employees, sales representatives): plugin-issued context tokens. */
  await knex.schema.createTable('suite_host_sessions', (t) => {
    idColumn(t).primary();
    /** sha256 of the context token; the token itself is never stored. */
    t.string('token_hash', 64).notNullable().unique();
    t.string('sales_channel_id', 64).notNullable();
    t.string('customer_id', 64).nullable();
    t.string('actor_type', 32).notNullable();
    t.string('actor_id', 64).nullable();
    jsonText(t, 'attributes').notNullable();
    dateTime(t, 'created_at').notNullable();
    dateTime(t, 'expires_at').notNullable();
    dateTime(t, 'revoked_at').nullable();
    t.index(['actor_type', 'actor_id']);
  });
  await knex.schema.createTable('suite_host_number_ranges', (t) => {
    t.string('name', 64).primary();
    t.bigInteger('last_value').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('suite_host_plugin_configs', (t) => {
    t.string('plugin_name', 128).primary();
    jsonText(t, 'config').notNullable();
    dateTime(t, 'updated_at').notNullable();
  });
  /** One row: a counter bumped whenever visibility changes (cache keys of every process include it). */
  await knex.schema.createTable('suite_host_visibility_version', (t) => {
    t.string('name', 32).primary();
    t.bigInteger('version').notNullable().defaultTo(0);
  });
  /** Written in the caller's transaction (the plugin's knex); sent by the adapter's mail job. */
  await knex.schema.createTable('suite_host_mail_outbox', (t) => {
    idColumn(t).primary();
    t.string('template', 128).notNullable();
    t.string('recipient', 255).notNullable();
    jsonText(t, 'cc').nullable();
    t.string('sales_channel_id', 64).nullable();
    jsonText(t, 'data').notNullable();
    jsonText(t, 'attachments').nullable();
    t.string('state', 16).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    t.string('dedupe_key', 191).nullable().unique();
    dateTime(t, 'created_at').notNullable();
    dateTime(t, 'sent_at').nullable();
    t.index(['state', 'created_at']);
  });
  await knex.schema.createTable('suite_host_jobs', (t) => {
    idColumn(t).primary();
    t.string('name', 128).notNullable();
    jsonText(t, 'payload').notNullable();
    t.string('state', 16).notNullable();
    dateTime(t, 'run_at').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    t.string('unique_key', 191).nullable().unique();
    dateTime(t, 'created_at').notNullable();
    dateTime(t, 'finished_at').nullable();
    t.index(['state', 'run_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'suite_host_jobs',
    'suite_host_mail_outbox',
    'suite_host_visibility_version',
    'suite_host_plugin_configs',
    'suite_host_number_ranges',
    'suite_host_sessions',
    'idempotency_keys',
    'rate_limit_counters',
  ])
    await knex.schema.dropTableIfExists(table);
}
