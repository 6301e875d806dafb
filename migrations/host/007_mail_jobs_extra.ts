import type { Knex } from 'knex';
import { dateTime } from '../../src/lib/migration-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('mail_outbox', (t) => {
    /** A failed send waits until then (backoff). */
    dateTime(t, 'next_attempt_at').nullable();
    t.string('locked_by', 64).nullable();
    dateTime(t, 'locked_at').nullable();
  });
  await knex.schema.alterTable('jobs', (t) => {
    dateTime(t, 'finished_at').nullable();
    t.index(['state', 'locked_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.dropIndex(['state', 'locked_at']);
    t.dropColumn('finished_at');
  });
  await knex.schema.alterTable('mail_outbox', (t) => {
    t.dropColumn('next_attempt_at');
    t.dropColumn('locked_by');
    t.dropColumn('locked_at');
  });
}
