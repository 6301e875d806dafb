import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateMigration, resetConfig, runMigrations, type VendureConfig } from '@vendure/core';
import knexFactory from 'knex';
import { shopConfig } from '../../examples/vendure-shop/vendure-config.js';
import { cleanupTestDatabase, prepareScratchDatabase } from '../helpers/database.js';

/**
 * A shop that does not `synchronize` (docs/vendure.md, "Without synchronize"): its schema exists
 * before the plugin, adding the plugin needs one Vendure migration for the plugin's Order and
 * OrderLine custom fields, and Vendure's own `generateMigration` writes it.
 */
describe('Vendure: the migration of the plugin\'s custom fields (shops without synchronize)', function () {
  this.timeout(240_000);
  let databaseUrl: string;
  let folder: string;

  before(async function () {
    databaseUrl = await prepareScratchDatabase('vendure_migrations');
    if (!databaseUrl.startsWith('sqlite:')) this.skip();
    folder = mkdtempSync(join(tmpdir(), 'suite-b2b-vendure-migrations-'));
  });

  after(async () => {
    resetConfig();
    if (folder) rmSync(folder, { recursive: true, force: true });
    if (databaseUrl) await cleanupTestDatabase(databaseUrl);
  });

  /** The example shop's config on the scratch database, migrated instead of synchronized; with or without Suite B2B. */
  function config(withPlugin: boolean): VendureConfig {
    const base = shopConfig({ databaseUrl, runJobs: false });
    const plugins = (base.plugins ?? []).filter((plugin) => withPlugin || !(typeof plugin === 'function' && 'state' in plugin));
    return { ...base, plugins, dbConnectionOptions: { ...base.dbConnectionOptions, synchronize: false, migrations: [join(folder, '*.ts')] } as VendureConfig['dbConnectionOptions'] };
  }

  const columnsOf = async (table: string) => {
    const db = knexFactory({ client: 'better-sqlite3', connection: { filename: databaseUrl.slice('sqlite:'.length) }, useNullAsDefault: true });
    try {
      return ((await db.raw(`PRAGMA table_info("${table}")`)) as Array<{ name: string }>).map((c) => c.name);
    } finally {
      await db.destroy();
    }
  };

  it('generateMigration after adding the plugin writes its Order and OrderLine custom field columns; after runMigrations nothing is left to generate', async () => {
    // The shop before the plugin: Vendure's schema from its own first migration.
    expect(await generateMigration(config(false), { name: 'shop', outputDir: folder })).to.be.a('string');
    await runMigrations(config(false));
    expect(await columnsOf('order')).to.not.include('customFieldsSuiteb2bplacedbytype');

    const file = await generateMigration(config(true), { name: 'suite-b2b', outputDir: folder });
    expect(file).to.be.a('string');
    const migration = readFileSync(file!, 'utf8');
    for (const column of ['customFieldsSuiteb2bplacedbytype', 'customFieldsSuiteb2bplacedbyid', 'customFieldsSuiteparticipant', 'customFieldsSuiteeventid', 'customFieldsSuiteb2bunitnet'])
      expect(migration).to.contain(column);
    await runMigrations(config(true));
    expect(await columnsOf('order')).to.include.members(['customFieldsSuiteb2bplacedbytype', 'customFieldsSuiteb2bplacedbyid']);
    expect(await columnsOf('order_line')).to.include.members(['customFieldsSuiteparticipant', 'customFieldsSuiteeventid', 'customFieldsSuiteb2bunitnet']);
    // The schema matches the configuration with the plugin: nothing more to migrate.
    expect(await generateMigration(config(true), { name: 'after', outputDir: folder })).to.equal(undefined);
  });
});
