import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from '../../src/host-kit/paths.js';
import { cleanupTestDatabase, prepareScratchDatabase } from '../helpers/database.js';

/**
 * A shop that does not `synchronize` (docs/vendure.md, "Without synchronize"): its schema exists
 * before the plugin, adding the plugin needs one Vendure migration for the plugin's Order and
 * OrderLine custom fields, and Vendure's own `generateMigration` writes it. The steps run in a process
 * of their own (fixtures/migration-scenario.ts): Vendure keeps custom field columns per process.
 */
describe("Vendure: the migration of the plugin's custom fields (shops without synchronize)", function () {
  this.timeout(240_000);
  let databaseUrl: string;
  let folder: string;

  before(async function () {
    databaseUrl = await prepareScratchDatabase('vendure_migrations');
    if (!databaseUrl.startsWith('sqlite:')) this.skip();
    folder = mkdtempSync(join(tmpdir(), 'suite-b2b-vendure-migrations-'));
  });

  after(async () => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    if (databaseUrl) await cleanupTestDatabase(databaseUrl);
  });

  it('generateMigration after adding the plugin writes its Order and OrderLine custom field columns; after runMigrations nothing is left to generate', async () => {
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=suite-b2b-source',
        projectPath('test', 'vendure', 'fixtures', 'migration-scenario.ts'),
        databaseUrl,
        folder,
      ],
      { encoding: 'utf8', timeout: 200_000 },
    );
    const last = child.stdout.trim().split('\n').pop() ?? '';
    expect(child.status, child.stderr.slice(-2000)).to.equal(0);
    const seen = JSON.parse(last) as {
      shopMigration: boolean;
      orderColumnsBefore: string[];
      pluginMigration: string | null;
      orderColumns: string[];
      orderLineColumns: string[];
      left: string | null;
    };
    expect(seen.shopMigration).to.equal(true);
    expect(seen.orderColumnsBefore).to.not.include('customFieldsSuiteb2bplacedbytype');
    expect(seen.pluginMigration).to.be.a('string');
    for (const column of [
      'customFieldsSuiteb2bplacedbytype',
      'customFieldsSuiteb2bplacedbyid',
      'customFieldsSuiteb2bbuyer',
      'customFieldsSuiteparticipant',
      'customFieldsSuiteeventid',
      'customFieldsSuiteb2bunitnet',
      'customFieldsSuiteb2brule',
    ])
      expect(seen.pluginMigration).to.contain(column);
    expect(seen.orderColumns).to.include.members([
      'customFieldsSuiteb2bplacedbytype',
      'customFieldsSuiteb2bplacedbyid',
      'customFieldsSuiteb2bbuyer',
    ]);
    expect(seen.orderLineColumns).to.include.members([
      'customFieldsSuiteparticipant',
      'customFieldsSuiteeventid',
      'customFieldsSuiteb2bunitnet',
    ]);
    expect(seen.left).to.equal(null);
  });
});
