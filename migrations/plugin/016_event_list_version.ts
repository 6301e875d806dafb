import type { Knex } from 'knex';
import { dialectOf } from '../../src/lib/db.js';

/**
 * The events version (issue 12): a counter in `b2b_event_counters` that moves on every write to the
 * events and their speakers, so a process may keep what it read of them (the event overview's
 * candidate events, src/plugin/event-manager/candidate-cache.ts) until the counter moves. Triggers,
 * not application code, move it, so every writer counts: a route, a host event, a data import or
 * an operator's SQL. Participants are not counted: registrations do not change which events match.
 */
const BUMP = "update b2b_event_counters set value = value + 1 where name = 'events'";

const TRIGGERS = ['b2b_events', 'b2b_event_speakers'].flatMap((table) =>
  (['insert', 'update', 'delete'] as const).map((event) => ({ name: `${table}_version_${event}`, table, event })),
);

function createTrigger(knex: Knex, { name, table, event }: (typeof TRIGGERS)[number]): string {
  if (dialectOf(knex) === 'sqlite') return `create trigger ${name} after ${event} on ${table} for each row begin ${BUMP}; end`;
  return `create trigger ${name} after ${event} on ${table} for each row ${BUMP}`;
}

export async function up(knex: Knex): Promise<void> {
  // MySQL/MariaDB commit each DDL statement: a run that stopped half-way is run again from the top.
  if (!(await knex.schema.hasTable('b2b_event_counters')))
    await knex.schema.createTable('b2b_event_counters', (t) => {
      t.string('name', 64).primary();
      t.bigInteger('value').notNullable().defaultTo(0);
    });
  await knex('b2b_event_counters').insert({ name: 'events', value: 1 }).onConflict('name').ignore();
  for (const trigger of TRIGGERS) {
    await knex.raw(`drop trigger if exists ${trigger.name}`);
    await knex.raw(createTrigger(knex, trigger));
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const trigger of TRIGGERS) await knex.raw(`drop trigger if exists ${trigger.name}`);
  await knex.schema.dropTableIfExists('b2b_event_counters');
}
