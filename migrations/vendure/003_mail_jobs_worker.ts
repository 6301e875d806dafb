import type { Knex } from 'knex';
import { dateTime } from '../../src/lib/migration-helpers.js';

/**
 * What lib/mail-outbox and lib/job-worker (the reference host's sender and worker, shared) need
 * beside 001's outbox and queue: claim columns, retry backoff and the schedules table, with the
 * reference host's column names (migrations/host/004 + 007).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_host_mail_outbox', (t) => {
    dateTime(t, 'next_attempt_at').nullable();
    t.string('locked_by', 64).nullable();
    dateTime(t, 'locked_at').nullable();
  });
  await knex.schema.alterTable('suite_host_jobs', (t) => {
    t.integer('max_attempts').notNullable().defaultTo(5);
    t.string('locked_by', 64).nullable();
    dateTime(t, 'locked_at').nullable();
    t.index(['state', 'locked_at']);
  });
  await knex.schema.createTable('suite_host_job_schedules', (t) => {
    t.string('name', 128).primary();
    t.integer('interval_seconds').notNullable();
    dateTime(t, 'next_run_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suite_host_job_schedules');
  await knex.schema.alterTable('suite_host_jobs', (t) => {
    t.dropIndex(['state', 'locked_at']);
    t.dropColumn('max_attempts');
    t.dropColumn('locked_by');
    t.dropColumn('locked_at');
  });
  await knex.schema.alterTable('suite_host_mail_outbox', (t) => {
    t.dropColumn('next_attempt_at');
    t.dropColumn('locked_by');
    t.dropColumn('locked_at');
  });
}
