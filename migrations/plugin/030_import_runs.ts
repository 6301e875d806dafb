import type { Knex } from 'knex';
import { dateTime, idColumn, jsonText } from '../../src/lib/migration-helpers.js';

/**
 * Import runs (src/plugin/import-run, docs/console.md): a long import checked whole, then written in
 * batches by the worker, its progress (`done_rows` of `total_rows`) readable while it runs. The file
 * is kept in `payload` until the run ends.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_import_runs', (t) => {
    idColumn(t).primary();
    t.string('kind', 64).notNullable();
    t.string('state', 16).notNullable();
    t.integer('total_rows').nullable();
    t.integer('done_rows').notNullable().defaultTo(0);
    jsonText(t, 'result').nullable();
    jsonText(t, 'errors').nullable();
    t.text('payload', 'longtext').nullable();
    t.string('started_by', 255).nullable();
    dateTime(t, 'created_at').notNullable();
    dateTime(t, 'started_at').nullable();
    dateTime(t, 'finished_at').nullable();
    t.index(['state', 'created_at'], 'suite_import_runs_state_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suite_import_runs');
}
