import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { dialectOf } from '../lib/db.js';
import { projectPath } from './paths.js';

interface MigrationModule {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * A migration runs without the statement bounds requests have (DDL and backfills may legitimately take
 * long on a large database): on PostgreSQL, whose bounds are the connection's `statement_timeout` and
 * `lock_timeout`, lifted for the migration's own transaction; MySQL/MariaDB's client leaves DDL and
 * backfills unbounded by itself.
 */
async function unbounded(knex: Knex, step: (knex: Knex) => Promise<void>): Promise<void> {
  if (dialectOf(knex) === 'postgres' && knex.isTransaction)
    await knex.raw('set local statement_timeout = 0; set local lock_timeout = 0');
  await step(knex);
}

/**
 * Knex migrations from TypeScript modules in one folder, in file-name order. The host's run
 * first (table `knex_migrations`), each plugin's after them in its own table.
 */
class FolderMigrationSource implements Knex.MigrationSource<string> {
  constructor(private readonly folder: string) {}

  getMigrations(): Promise<string[]> {
    return Promise.resolve(
      readdirSync(this.folder)
        .filter((f) => /^\d+.*\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
        .sort(),
    );
  }

  getMigrationName(migration: string): string {
    return migration.replace(/\.(ts|js)$/, '');
  }

  async getMigration(migration: string): Promise<MigrationModule> {
    const module = (await import(pathToFileURL(join(this.folder, migration)).href)) as MigrationModule;
    return {
      up: (knex) => unbounded(knex, (trx) => module.up(trx)),
      down: (knex) => unbounded(knex, (trx) => module.down(trx)),
    };
  }
}

export async function migrateFolder(db: Knex, folder: string, tableName: string): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({
    migrationSource: new FolderMigrationSource(resolve(folder)),
    tableName,
    disableMigrationsListValidation: true,
  })) as [number, string[]];
  return applied;
}

export const HOST_MIGRATIONS = projectPath('migrations', 'host');

/** A folder of migrations and the table that records which of them ran. */
export interface MigrationSet {
  folder: string;
  table: string;
}

/** Names of the migrations in the folder that its table does not record as run (readiness: the schema is current). */
export async function pendingMigrations(db: Knex, set: MigrationSet): Promise<string[]> {
  const source = new FolderMigrationSource(resolve(set.folder));
  const expected = (await source.getMigrations()).map((file) => source.getMigrationName(file));
  const ran = new Set(
    (await db(set.table).select('name')).map((row: { name: string }) => row.name.replace(/\.(ts|js)$/, '')),
  );
  return expected.filter((name) => !ran.has(name));
}
