import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { createDb, dialectOf, selectRaw, type Db } from '../../src/lib/db.js';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { HOST_MIGRATIONS, migrateFolder } from '../../src/host-kit/migrator.js';
import { loadManifest } from '../../src/host-kit/manifest.js';
import { migratePlugin } from '../../src/host-kit/plugin-loader.js';
import { projectPath } from '../../src/host-kit/paths.js';
import { ensureDefaultSalesChannel } from '../../src/host/seed/base-data.js';
import { insertCustomer } from '../../src/host/customer/customer-repository.js';
import { HOST_ID_COLUMNS } from '../../migrations/plugin/012_host_ids_without_foreign_keys.js';
import { cleanupTestDatabase, prepareScratchDatabase } from '../helpers/database.js';
import { hostTableNames } from '../helpers/host-tables.js';

const manifest = loadManifest(projectPath('plugin.json'));
const PLUGIN_FOLDER = projectPath(manifest.migrations!);
const PLUGIN_MIGRATION_TABLE = `plugin_${manifest.name.replace(/-/g, '_')}_migrations`;

/** The plugin's migrations up to (not including) `before`, as the plugin loader names and records them. */
class PluginMigrationsBefore implements Knex.MigrationSource<string> {
  constructor(private readonly before: string) {}
  async getMigrations() {
    return readdirSync(PLUGIN_FOLDER)
      .filter((f) => /^\d+.*\.ts$/.test(f) && f < this.before)
      .sort();
  }
  getMigrationName(file: string) {
    return file.replace(/\.ts$/, '');
  }
  async getMigration(file: string) {
    return (await import(pathToFileURL(join(PLUGIN_FOLDER, file)).href)) as Knex.Migration;
  }
}

/** Which host table a host-id column named so pointed at in contract v1. */
function hostTableOf(column: string): string {
  if (column.endsWith('address_id')) return 'customer_addresses';
  return {
    customer_id: 'customers',
    customer_group_id: 'customer_groups',
    product_id: 'products',
    category_id: 'categories',
    landing_page_id: 'landing_pages',
    order_id: 'orders',
    document_id: 'documents',
  }[column]!;
}

interface ForeignKey {
  table: string;
  column: string;
  references: string;
}

async function foreignKeys(db: Db, tables: string[]): Promise<ForeignKey[]> {
  if (dialectOf(db) === 'sqlite') {
    const all: ForeignKey[] = [];
    for (const table of tables)
      for (const fk of (await db.raw(`PRAGMA foreign_key_list(\`${table}\`)`)) as Array<{
        from: string;
        table: string;
      }>)
        all.push({ table, column: fk.from, references: fk.table });
    return all;
  }
  const rows = await selectRaw<ForeignKey>(
    db,
    dialectOf(db) === 'postgres'
      ? `SELECT tc.table_name AS "table", kcu.column_name AS "column", ccu.table_name AS "references" FROM information_schema.table_constraints tc
          JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
          JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
          WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()`
      : 'SELECT TABLE_NAME AS `table`, COLUMN_NAME AS `column`, REFERENCED_TABLE_NAME AS `references` FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME IS NOT NULL',
    [],
  );
  return rows.filter((fk) => tables.includes(fk.table));
}

/** Per table: its columns (name, type, null, default) and indexes (name, unique, columns), comparable across a rebuild. */
async function schemaOf(db: Db, tables: string[]): Promise<Record<string, { columns: string[]; indexes: string[] }>> {
  const schema: Record<string, { columns: string[]; indexes: string[] }> = {};
  for (const table of tables) {
    if (dialectOf(db) === 'sqlite') {
      const columns = ((await db.raw(`PRAGMA table_info(\`${table}\`)`)) as Array<Record<string, unknown>>).map(
        (c) => `${c.name} ${c.type} ${c.notnull} ${c.dflt_value} ${c.pk}`,
      );
      const indexes: string[] = [];
      for (const index of (await db.raw(`PRAGMA index_list(\`${table}\`)`)) as Array<{
        name: string;
        unique: number;
      }>) {
        const cols = ((await db.raw(`PRAGMA index_info(\`${index.name}\`)`)) as Array<{ name: string }>).map(
          (c) => c.name,
        );
        // SQLite names the indexes of inline constraints after the table's creation order; compare them by content.
        indexes.push(
          `${index.name.startsWith('sqlite_autoindex') ? 'auto' : index.name} ${index.unique} ${cols.join(',')}`,
        );
      }
      schema[table] = { columns, indexes: indexes.sort() };
    } else if (dialectOf(db) === 'postgres') {
      const columns = await selectRaw<{ c: string }>(
        db,
        `SELECT concat_ws(' ', column_name, data_type, character_maximum_length, is_nullable, coalesce(column_default, 'none')) AS c FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`,
        [table],
      );
      const indexes = await selectRaw<{ i: string }>(
        db,
        `SELECT concat_ws(' ', i.relname, CASE WHEN ix.indisunique THEN 0 ELSE 1 END, string_agg(a.attname, ',' ORDER BY array_position(ix.indkey::int2[], a.attnum))) AS i
          FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY(ix.indkey)
          WHERE t.relname = ? AND t.relnamespace = current_schema()::regnamespace GROUP BY i.relname, ix.indisunique`,
        [table],
      );
      schema[table] = { columns: columns.map((r) => r.c), indexes: indexes.map((r) => r.i).sort() };
    } else {
      const [columns] = await db.raw(
        'SELECT CONCAT_WS(" ", COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COALESCE(COLUMN_DEFAULT, "none")) AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION',
        [table],
      );
      const [indexes] = await db.raw(
        'SELECT CONCAT_WS(" ", INDEX_NAME, NON_UNIQUE, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX)) AS i FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? GROUP BY INDEX_NAME, NON_UNIQUE',
        [table],
      );
      schema[table] = {
        columns: (columns as Array<{ c: string }>).map((r) => r.c),
        indexes: (indexes as Array<{ i: string }>).map((r) => r.i).sort(),
      };
    }
  }
  return schema;
}

async function pluginTables(db: Db): Promise<string[]> {
  const host = await hostTableNames();
  const names =
    dialectOf(db) === 'sqlite'
      ? ((await db('sqlite_master').where({ type: 'table' }).pluck('name')) as string[])
      : (
          await selectRaw<{ name: string }>(
            db,
            dialectOf(db) === 'postgres'
              ? 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()'
              : 'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
            [],
          )
        ).map((r) => r.name);
  return names
    .filter(
      (name) =>
        !host.has(name) &&
        !name.startsWith('sqlite_') &&
        !name.startsWith('knex_') &&
        !name.endsWith('_migrations') &&
        !name.endsWith('_migrations_lock'),
    )
    .sort();
}

async function leadingIndexColumns(db: Db, table: string): Promise<string[]> {
  const schema = (await schemaOf(db, [table]))[table]!;
  return schema.indexes.map((index) => index.split(' ')[2]!.split(',')[0]!);
}

async function expectContractV2Schema(db: Db): Promise<void> {
  const host = await hostTableNames();
  const tables = await pluginTables(db);
  expect(tables).to.include.members(Object.keys(HOST_ID_COLUMNS));
  const intoHost = (await foreignKeys(db, tables)).filter((fk) => host.has(fk.references));
  expect(intoHost, 'foreign keys from plugin tables to host tables').to.deep.equal([]);
  for (const [table, columns] of Object.entries(HOST_ID_COLUMNS))
    expect(await leadingIndexColumns(db, table), `indexes of ${table}`).to.include.members(columns);
}

describe('plugin migration 012: host ids without foreign keys', function () {
  this.timeout(120000);
  let url: string;
  let db: Db;

  beforeEach(async () => {
    url = await prepareScratchDatabase('fk');
    db = createDb(url, { poolMax: 2 });
    await migrateFolder(db, HOST_MIGRATIONS, 'knex_migrations');
  });

  afterEach(async () => {
    await db.destroy();
    await cleanupTestDatabase(url);
  });

  it('a fresh database never has them, and every host-id column leads an index', async () => {
    await migratePlugin(db, manifest);
    await expectContractV2Schema(db);
    // The plugin's own foreign keys stay (a budget's employees go with the budget).
    expect(await foreignKeys(db, ['suite_budget_employees'])).to.deep.include({
      table: 'suite_budget_employees',
      column: 'budget_id',
      references: 'suite_budgets',
    });
  });

  it('a database migrated before loses them with all its rows, keeps its other columns, indexes and foreign keys, and may run it twice', async () => {
    await db.migrate.latest({
      migrationSource: new PluginMigrationsBefore('012'),
      tableName: PLUGIN_MIGRATION_TABLE,
      disableMigrationsListValidation: true,
    });
    // The contract v1 schema: a foreign key from every host-id column to its host table, as migrations 001–010 created them.
    let n = 0;
    for (const [table, columns] of Object.entries(HOST_ID_COLUMNS))
      await db.schema.alterTable(table, (t) => {
        for (const column of columns)
          t.foreign(column, `v1_host_fk_${++n}`)
            .references(`${hostTableOf(column)}.id`)
            .onDelete(column === 'order_id' && table !== 'suite_budget_orders' ? 'SET NULL' : 'CASCADE');
      });
    const host = await hostTableNames();
    const tables = await pluginTables(db);
    expect((await foreignKeys(db, tables)).filter((fk) => host.has(fk.references))).to.have.length(29);

    // Rows in parent and child tables: a rebuild must not cascade-delete the children.
    const salesChannelId = await ensureDefaultSalesChannel(db, 'http://shop.test');
    const customer = await insertCustomer(db, {
      salesChannelId,
      email: `fk-${newId()}@example.test`,
      passwordHash: null,
      firstName: 'F',
      lastName: 'K',
    });
    const productId = newId();
    await db('products').insert({
      id: productId,
      version_id: newId(),
      product_number: `FK-${newId().slice(0, 8)}`,
      name: 'P',
      price_net: 100,
      created_at: nowDb(),
    });
    const budgetId = newId();
    await db('suite_budgets').insert({
      id: budgetId,
      customer_id: customer.id,
      name: 'B',
      amount: 1000,
      currency_iso: 'EUR',
      period_type: 'monthly',
      start_date: '2026-01-01',
      created_at: nowDb(),
    });
    await db('suite_budget_employees').insert({ budget_id: budgetId, employee_id: newId() });
    const listId = newId();
    await db('suite_product_lists').insert({
      id: listId,
      customer_id: customer.id,
      name: 'L',
      created_by_type: 'customer',
      created_at: nowDb(),
    });
    await db('suite_product_list_items').insert({
      id: newId(),
      product_list_id: listId,
      product_id: productId,
      quantity: 2,
      position: 1,
      created_at: nowDb(),
    });
    const countRows = async () =>
      Object.fromEntries(
        await Promise.all(tables.map(async (t) => [t, Number((await db(t).count({ n: '*' }))[0]!.n)] as const)),
      );
    const rowsBefore = await countRows();
    expect(rowsBefore.suite_budget_employees).to.equal(1);
    const schemaBefore = await schemaOf(db, tables);
    const ownForeignKeysBefore = (await foreignKeys(db, tables)).filter((fk) => !host.has(fk.references));

    // Only 012: later migrations change these tables on purpose.
    const [, applied] = (await db.migrate.latest({
      migrationSource: new PluginMigrationsBefore('013'),
      tableName: PLUGIN_MIGRATION_TABLE,
      disableMigrationsListValidation: true,
    })) as [number, string[]];
    expect(applied).to.deep.equal(['012_host_ids_without_foreign_keys']);
    await expectContractV2Schema(db);
    expect(await countRows()).to.deep.equal(rowsBefore);
    expect((await foreignKeys(db, tables)).filter((fk) => !host.has(fk.references))).to.have.deep.members(
      ownForeignKeysBefore,
    );
    const schemaAfter = await schemaOf(db, tables);
    for (const table of tables) {
      expect(schemaAfter[table]!.columns, `columns of ${table}`).to.deep.equal(schemaBefore[table]!.columns);
      expect(schemaAfter[table]!.indexes, `indexes of ${table}`).to.include.members(schemaBefore[table]!.indexes);
    }
    // The plugin's own cascade still works on the rebuilt tables.
    await db('suite_budgets').where({ id: budgetId }).delete();
    expect(await db('suite_budget_employees').where({ budget_id: budgetId }).first()).to.equal(undefined);

    const again = (await import(
      pathToFileURL(join(PLUGIN_FOLDER, '012_host_ids_without_foreign_keys.ts')).href
    )) as Knex.Migration;
    await again.up(db);
    expect(await schemaOf(db, tables)).to.deep.equal(schemaAfter);
    await expectContractV2Schema(db);
  });
});
