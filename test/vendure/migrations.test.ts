import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from '../../src/host-kit/paths.js';
import { cleanupTestDatabase, prepareScratchDatabase } from '../helpers/database.js';

/**
 * A shop that does not `synchronize` (docs/vendure.md, "Without synchronize"; decision 0064): its
 * schema exists before the plugin; adding the plugin needs one Vendure migration for the plugin's
 * custom fields, which Vendure's own `generateMigration` writes, and the plugin's tables come with
 * `suiteB2BMigrations` listed beside the shop's migrations. The steps run in a process of their own
 * (fixtures/migration-scenario.ts): Vendure keeps custom field columns per process. On SQLite,
 * MariaDB and PostgreSQL (DATABASE_URL).
 */
describe("Vendure: the plugin's custom fields and tables under Vendure's migrations (shops without synchronize)", function () {
  this.timeout(400_000);
  let databaseUrl: string;
  let folder: string;
  let seen: Scenario;

  before(async function () {
    databaseUrl = await prepareScratchDatabase('vendure_migrations');
    folder = mkdtempSync(join(tmpdir(), 'suite-b2b-vendure-migrations-'));
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
      { encoding: 'utf8', timeout: 360_000 },
    );
    const last = child.stdout.trim().split('\n').pop() ?? '';
    expect(child.status, child.stderr.slice(-2000) + child.stdout.slice(-2000)).to.equal(0);
    seen = JSON.parse(last) as Scenario;
  });

  after(async () => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    if (databaseUrl) await cleanupTestDatabase(databaseUrl);
  });

  it("the Dashboard's schema generation runs the plugin's configuration without a database", () => {
    expect(seen.dashboard.pluginFields).to.equal(true);
    expect(seen.dashboard.databaseCreated).to.equal(false);
  });

  it('generateMigration after adding the plugin writes its custom field columns and creates no table', () => {
    expect(seen.shopMigration).to.equal(true);
    expect(seen.orderColumnsBefore).to.not.include('customFieldsSuiteb2bplacedbytype');
    expect(seen.tablesBefore).to.not.include.members(['suite_host_migrations']);
    expect(seen.tablesAfterGenerate).to.deep.equal(seen.tablesBefore);
    expect(seen.pluginMigration).to.be.a('string');
    for (const column of CUSTOM_FIELD_COLUMNS) expect(seen.pluginMigration).to.contain(column);
    // The generated migration is the custom fields' only: the plugin's tables are not TypeORM entities.
    expect(seen.pluginMigration).to.not.match(/suite_host_|b2b_employees/);
  });

  it('the plugin refuses to start while its tables are missing, naming the migration to run', () => {
    expect(seen.behindBeforeRun).to.contain('SuiteB2BTables1796601600000');
    expect(seen.behindBeforeRun).to.contain('suiteB2BMigrations');
    expect(seen.behindBeforeRun).to.contain('vendure/001_adapter_tables');
  });

  it("runMigrations applies the custom fields and the plugin's tables; nothing is left to generate", () => {
    expect(seen.ran).to.have.members(['SuiteB2BTables1796601600000', seen.ran.find((n) => n.startsWith('SuiteB2b'))!]);
    expect(seen.ran).to.have.length(2);
    const added = seen.tablesAfterRun.filter((table) => !seen.tablesBefore.includes(table));
    expect(added).to.include.members([
      'suite_host_migrations',
      'plugin_suite_b2b_migrations',
      'suite_host_jobs',
      'suite_host_mail_outbox',
      'idempotency_keys',
      'b2b_employees',
      'suite_order_approvals',
      'suite_customer_prices',
    ]);
    expect(added.length).to.be.greaterThan(80);
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
    expect(seen.behindAfterRun).to.equal(null);
    expect(seen.left).to.equal(null);
  });

  it("revertLastMigration reverts them, newest first: the plugin's tables and columns are gone", () => {
    expect(seen.reverted).to.have.length(2);
    expect(seen.reverted).to.include('SuiteB2BTables1796601600000');
    expect(seen.executedAfterRevert.some((name) => name.startsWith('Shop'))).to.equal(true);
    expect(seen.executedAfterRevert).to.have.length(1);
    expect(seen.tablesAfterRevert).to.deep.equal(seen.tablesBefore);
    expect(seen.orderColumnsAfterRevert.filter((column) => /suite/i.test(column))).to.deep.equal([]);
    expect(seen.behindAfterRevert).to.contain('SuiteB2BTables1796601600000');
  });

  it('applying them again works, and leaves nothing to generate', () => {
    expect(seen.ranAgain).to.have.length(2);
    expect(seen.ranAgain).to.include('SuiteB2BTables1796601600000');
    expect(seen.tablesAfterRunAgain).to.deep.equal(seen.tablesAfterRun);
    expect(seen.leftAgain).to.equal(null);
  });

  it("a shop's migration removing the plugin (dropSuiteB2BTables) leaves no table of it; its revert makes them again", () => {
    expect(seen.ranRemoval).to.deep.equal(['RemoveSuiteB2B1899999999999']);
    expect(seen.tablesAfterRemoval).to.deep.equal(seen.tablesBefore);
    // A shop process started then (the plugin still in its config) refuses, naming the migration to run.
    expect(seen.refusedAtStart).to.equal(seen.behindAfterRevert);
    expect(seen.tablesAfterRemovalReverted).to.deep.equal(seen.tablesAfterRun);
  });
});

const CUSTOM_FIELD_COLUMNS = [
  'customFieldsSuiteb2bplacedbytype',
  'customFieldsSuiteb2bplacedbyid',
  'customFieldsSuiteb2bbuyer',
  'customFieldsSuiteparticipant',
  'customFieldsSuiteeventid',
  'customFieldsSuiteb2bunitnet',
  'customFieldsSuiteb2brule',
];

interface Scenario {
  dashboard: { pluginFields: boolean; databaseCreated: boolean };
  shopMigration: boolean;
  tablesBefore: string[];
  orderColumnsBefore: string[];
  pluginMigration: string | null;
  tablesAfterGenerate: string[];
  behindBeforeRun: string | null;
  ran: string[];
  tablesAfterRun: string[];
  orderColumns: string[];
  orderLineColumns: string[];
  behindAfterRun: string | null;
  left: string | null;
  reverted: string[];
  executedAfterRevert: string[];
  tablesAfterRevert: string[];
  orderColumnsAfterRevert: string[];
  behindAfterRevert: string | null;
  refusedAtStart: string | null;
  ranAgain: string[];
  tablesAfterRunAgain: string[];
  leftAgain: string | null;
  ranRemoval: string[];
  tablesAfterRemoval: string[];
  tablesAfterRemovalReverted: string[];
}
