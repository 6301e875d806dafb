import type { Knex } from 'knex';
import { dateTime, idColumn, jsonText } from '../../src/lib/migration-helpers.js';

export async function up(knex: Knex): Promise<void> {
  /** Written in the same transaction as the change that causes the mail; a job sends it. */
  await knex.schema.createTable('mail_outbox', (t) => {
    idColumn(t).primary();
    t.string('template', 128).notNullable();
    t.string('recipient', 255).notNullable();
    jsonText(t, 'cc').nullable();
    idColumn(t, 'sales_channel_id').nullable();
    jsonText(t, 'data').notNullable();
    jsonText(t, 'attachments').nullable();
    t.string('state', 16).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    /** Optional: the same key never produces a second mail (reminders, thresholds). */
    t.string('dedupe_key', 191).nullable().unique();
    dateTime(t, 'created_at').notNullable();
    dateTime(t, 'sent_at').nullable();
    t.index(['state', 'created_at']);
  });
  await knex.schema.createTable('jobs', (t) => {
    idColumn(t).primary();
    t.string('name', 128).notNullable();
    jsonText(t, 'payload').notNullable();
    t.string('state', 16).notNullable();
    dateTime(t, 'run_at').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts').notNullable().defaultTo(5);
    t.string('locked_by', 64).nullable();
    dateTime(t, 'locked_at').nullable();
    t.text('last_error').nullable();
    t.string('unique_key', 191).nullable().unique();
    dateTime(t, 'created_at').notNullable();
    t.index(['state', 'run_at']);
  });
  await knex.schema.createTable('job_schedules', (t) => {
    t.string('name', 128).primary();
    t.integer('interval_seconds').notNullable();
    dateTime(t, 'next_run_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['job_schedules', 'jobs', 'mail_outbox']) await knex.schema.dropTableIfExists(table);
}
