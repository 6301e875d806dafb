import type { Knex } from 'knex';

/** The housekeeping purge deletes by age; without these it would scan whole tables every run. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.index(['expires_at']);
    t.index(['revoked_at']);
  });
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.index(['state', 'created_at']);
  });
  await knex.schema.alterTable('rate_limit_counters', (t) => {
    t.index(['window_start']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rate_limit_counters', (t) => t.dropIndex(['window_start']));
  await knex.schema.alterTable('idempotency_keys', (t) => t.dropIndex(['state', 'created_at']));
  await knex.schema.alterTable('sessions', (t) => {
    t.dropIndex(['revoked_at']);
    t.dropIndex(['expires_at']);
  });
}
