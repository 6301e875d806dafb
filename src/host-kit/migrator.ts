import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { projectPath } from './paths.js';

interface MigrationModule {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * Knex migrations from TypeScript modules in one folder, in file-name order. The host's run
 * first (table `knex_migrations`), each plugin's after them in its own table.
 */
class FolderMigrationSource implements Knex.MigrationSource<string> {
  constructor(private readonly folder: string) {}

  getMigrations(): Promise<string[]> {
    return Promise.resolve(readdirSync(this.folder)
      .filter((f) => /^\d+.*\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
      .sort());
  }

  getMigrationName(migration: string): string {
    return migration.replace(/\.(ts|js)$/, '');
  }

  async getMigration(migration: string): Promise<MigrationModule> {
    return (await import(pathToFileURL(join(this.folder, migration)).href)) as MigrationModule;
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
  const ran = new Set((await db(set.table).select('name')).map((row: { name: string }) => row.name.replace(/\.(ts|js)$/, '')));
  return expected.filter((name) => !ran.has(name));
}
