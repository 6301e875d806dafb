import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { Knex } from 'knex';
import { loadManifest, type PluginManifest } from '../../host-kit/manifest.js';
import {
  inRange,
  migrateFolder,
  migrateRangeIn,
  migrationNames,
  pendingMigrations,
  revertRangeIn,
  type MigrationRange,
  type MigrationSet,
  type TransactionOnConnection,
} from '../../host-kit/migrator.js';
import { pluginMigrationSet } from '../../host-kit/plugin-loader.js';
import { projectPath } from '../../host-kit/paths.js';
import { createDb, inSavepointOf, type Db, type Dialect } from '../../lib/db.js';

/**
 * The plugin's tables under Vendure's migrations (decision 0064). They are knex migrations — the
 * adapter's (`migrations/vendure`, recorded in `suite_host_migrations`) and the plugin's
 * (`migrations/plugin`, recorded in `plugin_suite_b2b_migrations`) — and each release of the package
 * that adds some ships one TypeORM migration that applies them: `suiteB2BMigrations` lists them all,
 * the shop lists that array in `dbConnectionOptions.migrations` beside its own, and Vendure's
 * `runMigrations` / `revertLastMigration` (`npx vendure migrate`) apply and revert them like the
 * shop's. A TypeORM migration runs once per database, so a release never changes a shipped
 * one: a knex migration added later belongs to the next release's class (test/unit/vendure/schema-releases.test.ts).
 */
export interface SchemaRelease {
  /** The TypeORM migration's name: a class name ending in a JavaScript timestamp, as TypeORM wants. */
  name: string;
  /** The last knex migration of each folder this release applies (the ones after the previous release's). */
  upTo: { vendure: string; plugin: string };
}

export const SCHEMA_RELEASES: readonly SchemaRelease[] = [
  {
    name: 'SuiteB2BTables1796601600000',
    upTo: { vendure: '004_queue_handover', plugin: '034_approvals_on_levels_only' },
  },
];

type Folder = keyof SchemaRelease['upTo'];

/** The adapter's and the plugin's migration sets, in the order they are applied. */
export function schemaSets(
  manifest: PluginManifest = loadManifest(projectPath('plugin.json')),
): Record<Folder, MigrationSet> {
  const plugin = pluginMigrationSet(manifest);
  if (!plugin) throw new Error(`plugin ${manifest.name} declares no migrations folder`);
  return { vendure: { folder: projectPath('migrations', 'vendure'), table: 'suite_host_migrations' }, plugin };
}

function rangeOf(release: SchemaRelease, folder: Folder): MigrationRange {
  const index = SCHEMA_RELEASES.indexOf(release);
  return { after: index > 0 ? SCHEMA_RELEASES[index - 1]!.upTo[folder] : undefined, upTo: release.upTo[folder] };
}

const DIALECTS: Record<string, Dialect> = {
  'better-sqlite3': 'sqlite',
  mariadb: 'mysql',
  mysql: 'mysql',
  postgres: 'postgres',
};

/** A knex of the dialect that never opens a connection of its own: it runs on the connections it is handed. */
const HANDED_CONNECTIONS_ONLY: Record<Dialect, string> = {
  sqlite: 'sqlite::memory:',
  mysql: 'mysql://localhost/suite_b2b_migration',
  postgres: 'postgres://localhost/suite_b2b_migration',
};

/**
 * knex transactions on the connection of the migration's QueryRunner (`queryRunner.connect()`,
 * TypeORM's public way to it). Inside the runner's transaction (Vendure runs each migration in one)
 * they are savepoints of it on SQLite and PostgreSQL, whose DDL is transactional: the migration and
 * TypeORM's record of it commit or roll back together. MySQL/MariaDB commit every DDL statement, so
 * there they are transactions of their own on that connection, as Vendure's own migrations are.
 */
async function onRunnerConnection<T>(
  queryRunner: QueryRunner,
  work: (inTransaction: TransactionOnConnection) => Promise<T>,
): Promise<T> {
  const type = String(queryRunner.connection.options.type);
  const dialect = DIALECTS[type];
  if (!dialect)
    throw new Error(
      `Suite B2B's tables migrate on better-sqlite3, mariadb/mysql and postgres databases (got "${type}")`,
    );
  const db = createDb(HANDED_CONNECTIONS_ONLY[dialect]);
  const connection = (await queryRunner.connect()) as object;
  const savepoints = queryRunner.isTransactionActive && dialect !== 'mysql';
  const inTransaction: TransactionOnConnection = <T>(step: (trx: Knex.Transaction) => Promise<T>) =>
    savepoints ? inSavepointOf(db, connection, step) : db.transaction<T>(step, { connection });
  try {
    return await work(inTransaction);
  } finally {
    await db.destroy();
  }
}

/** Applies a release's knex migrations (the adapter's, then the plugin's) on the migration's connection. */
export async function applyRelease(queryRunner: QueryRunner, release: SchemaRelease): Promise<string[]> {
  const sets = schemaSets();
  return onRunnerConnection(queryRunner, async (inTransaction) => [
    ...(await migrateRangeIn(inTransaction, sets.vendure, rangeOf(release, 'vendure'))),
    ...(await migrateRangeIn(inTransaction, sets.plugin, rangeOf(release, 'plugin'))),
  ]);
}

/** Reverts a release's knex migrations (the plugin's, then the adapter's, newest first); the first release's leaves no table. */
export async function revertRelease(queryRunner: QueryRunner, release: SchemaRelease): Promise<string[]> {
  const sets = schemaSets();
  return onRunnerConnection(queryRunner, async (inTransaction) => [
    ...(await revertRangeIn(inTransaction, sets.plugin, rangeOf(release, 'plugin'))),
    ...(await revertRangeIn(inTransaction, sets.vendure, rangeOf(release, 'vendure'))),
  ]);
}

/**
 * Release 0.1.0 of the plugin's tables: every table of the adapter (`suite_host_*`, `idempotency_keys`,
 * `rate_limit_counters`) and of the plugin (`b2b_*`, `suite_*`), with their migration records. `down`
 * drops them all, with their data. On a database whose tables the plugin migrated itself at start
 * (`migrations: 'on-boot'`), `up` finds them applied and only records itself.
 */
export class SuiteB2BTables1796601600000 implements MigrationInterface {
  name = 'SuiteB2BTables1796601600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await applyRelease(queryRunner, SCHEMA_RELEASES[0]!);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await revertRelease(queryRunner, SCHEMA_RELEASES[0]!);
  }
}

/**
 * Every TypeORM migration of the plugin's tables, oldest first: list them in the shop's
 * `dbConnectionOptions.migrations` (`migrations: [...suiteB2BMigrations, path.join(__dirname, './migrations/*.+(js|ts)')]`).
 * An upgrade of the package may add one; the shop's next `runMigrations` applies it.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's `migrations` option takes classes as `Function`
export const suiteB2BMigrations: Function[] = [SuiteB2BTables1796601600000];

/**
 * For the shop's migration that removes the plugin (docs/vendure-guide.md, "Removing the plugin"):
 * reverts every release's knex migrations, newest first — no table of the plugin is left, with its
 * data. `createSuiteB2BTables` is its `down`: every release applied again (empty tables).
 */
export async function dropSuiteB2BTables(queryRunner: QueryRunner): Promise<void> {
  for (const release of [...SCHEMA_RELEASES].reverse()) await revertRelease(queryRunner, release);
}

export async function createSuiteB2BTables(queryRunner: QueryRunner): Promise<void> {
  for (const release of SCHEMA_RELEASES) await applyRelease(queryRunner, release);
}

/** How the plugin's tables come to be: Vendure's migrations (`suiteB2BMigrations`) or the plugin itself at start. */
export type TablesMigratedBy = 'vendure' | 'on-boot';

/** The knex migrations the database does not record yet, as `<folder>/<name>`. */
async function pendingTables(db: Db, manifest: PluginManifest): Promise<string[]> {
  const pending: string[] = [];
  for (const [folder, set] of Object.entries(schemaSets(manifest)))
    for (const name of await pendingOf(db, set)) pending.push(`${folder}/${name}`);
  return pending;
}

async function pendingOf(db: Knex, set: MigrationSet): Promise<string[]> {
  // No record table yet: every migration of the folder is pending.
  return (await db.schema.hasTable(set.table)) ? pendingMigrations(db, set) : migrationNames(set.folder);
}

/**
 * Why the plugin cannot start on this database, or null: the knex migrations it does not record,
 * named with the TypeORM migration of `suiteB2BMigrations` that applies them.
 */
export async function tablesBehind(db: Db, manifest: PluginManifest): Promise<string | null> {
  const pending = await pendingTables(db, manifest);
  if (pending.length === 0) return null;
  const releases = SCHEMA_RELEASES.filter((release) =>
    pending.some((entry) => {
      const [folder, name] = entry.split('/') as [Folder, string];
      return inRange(name, rangeOf(release, folder));
    }),
  ).map((release) => release.name);
  const shown = pending.length > 4 ? [...pending.slice(0, 4), `… ${pending.length - 4} more`] : pending;
  return (
    `Suite B2B: the plugin's tables are missing or behind (not applied: ${shown.join(', ')}). They are migrated ` +
    `by Vendure's migrations: list suiteB2BMigrations (from 'suite-b2b/vendure') in dbConnectionOptions.migrations ` +
    `and run them (runMigrations, or npx vendure migrate); the migration to run: ${releases.join(', ') || 'none shipped yet'}. ` +
    `For development, SuiteB2BPlugin.init({ migrations: 'on-boot' }) lets the plugin migrate them at start ` +
    `(docs/vendure-guide.md, "Migrations").`
  );
}

/**
 * At start, after Vendure's database connection is up (the plugin's `onModuleInit`; never in
 * `configure`, which Vendure also runs to generate migrations and the Dashboard to build): `on-boot`
 * applies the pending knex migrations on the plugin's connection (development, the example shop, the
 * tests), `vendure` refuses to start while any is missing.
 */
export async function prepareTables(db: Db, manifest: PluginManifest, by: TablesMigratedBy): Promise<void> {
  if (by === 'on-boot') {
    const sets = schemaSets(manifest);
    await migrateFolder(db, sets.vendure.folder, sets.vendure.table);
    await migrateFolder(db, sets.plugin.folder, sets.plugin.table);
    return;
  }
  const behind = await tablesBehind(db, manifest);
  if (behind) throw new Error(behind);
}
