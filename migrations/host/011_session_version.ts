import type { Knex } from 'knex';
import { dialectOf } from '../../src/lib/db.js';
import { dropRowTrigger, rowTriggerStatements } from '../../src/lib/migration-helpers.js';

/**
 * The session version: a counter in catalog_counters that moves whenever something a cached live
 * session holds changes (src/host/auth/sessions.ts keeps them per process): a session's liveness or
 * owner, its customer's columns a context reads, any sales channel (the default channel is "the
 * first active one"). Triggers, not application code, move it, so that every writer counts — an
 * admin route, a plugin's host call, a data import or an operator's SQL alike.
 */
const BUMP = "update catalog_counters set value = value + 1 where name = 'sessions'";

const SESSION_COLUMNS = [
  'sales_channel_id',
  'customer_id',
  'actor_type',
  'actor_id',
  'attributes',
  'expires_at',
  'revoked_at',
];
const CUSTOMER_COLUMNS = [
  'id',
  'sales_channel_id',
  'customer_number',
  'email',
  'first_name',
  'last_name',
  'company',
  'group_id',
  'tags',
  'active',
];

/** One trigger per table and event; `columns`: only an update that changes one of them counts. */
const TRIGGERS: Array<{ name: string; table: string; event: 'insert' | 'update' | 'delete'; columns?: string[] }> = [
  { name: 'sessions_version_session_update', table: 'sessions', event: 'update', columns: SESSION_COLUMNS },
  { name: 'sessions_version_customer_update', table: 'customers', event: 'update', columns: CUSTOMER_COLUMNS },
  { name: 'sessions_version_customer_delete', table: 'customers', event: 'delete' },
  { name: 'sessions_version_channel_insert', table: 'sales_channels', event: 'insert' },
  { name: 'sessions_version_channel_update', table: 'sales_channels', event: 'update' },
  { name: 'sessions_version_channel_delete', table: 'sales_channels', event: 'delete' },
];

function createTrigger(knex: Knex, trigger: (typeof TRIGGERS)[number]): string[] {
  const { name, table, event, columns } = trigger;
  const dialect = dialectOf(knex);
  const changed = (column: string) =>
    dialect === 'sqlite'
      ? `old.${column} is not new.${column}`
      : dialect === 'postgres'
        ? `old.${column} is distinct from new.${column}`
        : `not (old.${column} <=> new.${column})`;
  return rowTriggerStatements(knex, {
    name,
    table,
    event,
    timing: 'after',
    when: columns?.map(changed).join(' or '),
    body: BUMP,
  });
}

export async function up(knex: Knex): Promise<void> {
  await knex('catalog_counters').insert({ name: 'sessions', value: 1 });
  for (const trigger of TRIGGERS) for (const statement of createTrigger(knex, trigger)) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const trigger of TRIGGERS) await dropRowTrigger(knex, trigger);
  await knex('catalog_counters').where({ name: 'sessions' }).delete();
}
