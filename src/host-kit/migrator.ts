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
  constructor(
    private readonly folder: string,
    private readonly range?: MigrationRange,
  ) {}

  getMigrations(): Promise<string[]> {
    const { range } = this;
    return Promise.resolve(
      migrationFiles(this.folder).filter((file) => !range || inRange(this.getMigrationName(file), range)),
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

function migrationFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((f) => /^\d+.*\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
    .sort();
}

/** The names of a folder's migrations (file names without extension), in the order they run. */
export function migrationNames(folder: string): string[] {
  return migrationFiles(resolve(folder)).map((file) => file.replace(/\.(ts|js)$/, ''));
}

/** Part of a folder's migrations by name: after `after` (exclusive; from the first when absent) up to `upTo` (inclusive). */
export interface MigrationRange {
  after?: string;
  upTo: string;
}

/** Whether a migration of that name is part of the range. */
export function inRange(name: string, range: MigrationRange): boolean {
  return (range.after === undefined || name > range.after) && name <= range.upTo;
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

/**
 * A transaction on a connection another library holds (a Vendure/TypeORM migration's query runner):
 * the caller opens one per call, on that connection.
 */
export type TransactionOnConnection = <T>(work: (trx: Knex.Transaction) => Promise<T>) => Promise<T>;

function rangeConfig(set: MigrationSet, range: MigrationRange): Knex.MigratorConfig {
  return {
    migrationSource: new FolderMigrationSource(resolve(set.folder), range),
    tableName: set.table,
    disableMigrationsListValidation: true,
    // Inside the caller's transaction: no transactions of their own.
    disableTransactions: true,
  };
}

/**
 * Applies the range's migrations the set's table does not record yet, in transactions `inTransaction`
 * opens on another library's connection. Recorded in the same table, batches and lock table as
 * `migrateFolder` records them, so both may take turns on one database. The record tables are made
 * in a transaction of their own first: on MySQL/MariaDB a DDL statement commits the transaction it
 * is in, and knex's migration lock (a savepoint) must come right after a BEGIN.
 */
export async function migrateRangeIn(
  inTransaction: TransactionOnConnection,
  set: MigrationSet,
  range: MigrationRange,
): Promise<string[]> {
  await inTransaction((trx) => trx.migrate.list(rangeConfig(set, range)));
  const [, applied] = (await inTransaction((trx) => trx.migrate.latest(rangeConfig(set, range)))) as [number, string[]];
  return applied;
}

/**
 * Reverts the range's recorded migrations (each one's `down`, newest first), in transactions
 * `inTransaction` opens; once the set's table records none any more, it goes too, with its lock
 * table: nothing of the set is left.
 */
export async function revertRangeIn(
  inTransaction: TransactionOnConnection,
  set: MigrationSet,
  range: MigrationRange,
): Promise<string[]> {
  if (!(await inTransaction((trx) => trx.schema.hasTable(set.table)))) return [];
  const [, reverted] = (await inTransaction((trx) => trx.migrate.rollback(rangeConfig(set, range), true))) as [
    number,
    string[],
  ];
  await inTransaction(async (trx) => {
    if (await trx(set.table).first('name')) return;
    await trx.schema.dropTable(set.table);
    await trx.schema.dropTableIfExists(`${set.table}_lock`);
  });
  return reverted;
}
