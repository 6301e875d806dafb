import type { Knex } from 'knex';
import { createVersionTriggers, dropVersionTriggers, versionTriggersOn } from '../../src/lib/migration-helpers.js';

/**
 * The events version: a counter in `b2b_event_counters` that moves on every write to the
 * events and their speakers, so a process may keep what it read of them (the event overview's
 * candidate events, src/plugin/event-manager/candidate-cache.ts) until the counter moves. Triggers,
 * not application code, move it, so every writer counts: a route, a host event, a data import or
 * an operator's SQL. Participants are not counted: registrations do not change which events match.
 */
const BUMP = "update b2b_event_counters set value = value + 1 where name = 'events'";

const TRIGGERS = versionTriggersOn(['b2b_events', 'b2b_event_speakers']);

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('b2b_event_counters')))
    await knex.schema.createTable('b2b_event_counters', (t) => {
      t.string('name', 64).primary();
      t.bigInteger('value').notNullable().defaultTo(0);
    });
  await knex('b2b_event_counters').insert({ name: 'events', value: 1 }).onConflict('name').ignore();
  await createVersionTriggers(knex, TRIGGERS, BUMP);
}

export async function down(knex: Knex): Promise<void> {
  await dropVersionTriggers(knex, TRIGGERS);
  await knex.schema.dropTableIfExists('b2b_event_counters');
}
