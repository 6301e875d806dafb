import type { Knex } from 'knex';
import { dateTime } from '../../src/lib/migration-helpers.js';

/**
 * When a row of the outbox (`suite_host_mail_outbox`) or of the plugin's job table (`suite_host_jobs`)
 * was last handed to Vendure's JobQueue (src/adapters/vendure/job-queue.ts, decision 0058): the
 * relay hands a row over once, and again only when its retry comes due, its sender died, or the
 * handover is older than its lease.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['suite_host_mail_outbox', 'suite_host_jobs'])
    await knex.schema.alterTable(table, (t) => {
      dateTime(t, 'handed_over_at').nullable();
    });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['suite_host_mail_outbox', 'suite_host_jobs'])
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('handed_over_at');
    });
}
