import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { createApp } from '../../src/host/app.js';
import { projectPath } from '../../src/host-kit/paths.js';

interface CliResult {
  code: number;
  json: any;
  stderr: string;
}

describe('host: operator CLI', function () {
  this.timeout(120000);
  let varDir: string;
  let databaseUrl: string;

  before(() => {
    varDir = mkdtempSync(join(tmpdir(), 'suite-cli-'));
    databaseUrl = `sqlite:${join(varDir, 'cli.sqlite')}`;
  });
  after(() => rmSync(varDir, { recursive: true, force: true }));

  function operatorEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, VAR_DIR: varDir };
    for (const name of ['LOG_LEVEL', 'APP_SECRET', 'MAILER_URL', 'SEED_DEMO']) delete env[name];
    return env;
  }

  /** `src/cli.ts …` through tsx against a temporary SQLite file, as an operator runs it. */
  function cli(...args: string[]): Promise<CliResult> {
    return new Promise((resolve) => {
      // node --import tsx, as `npm run cli` does, without npx's own start-up for each of the file's 18 runs.
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/cli.ts', ...args],
        { cwd: projectPath(), env: operatorEnv() },
        (error, stdout, stderr) => {
          const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
          let json: unknown = null;
          try {
            json = JSON.parse(
              code === 0
                ? stdout
                : (stderr
                    .split('\n')
                    .filter((l) => l.startsWith('{'))
                    .pop() ?? 'null'),
            );
          } catch {
            json = null;
          }
          resolve({ code, json, stderr });
        },
      );
    });
  }

  it('migrate applies the host and plugin migrations and reports them; a second run has nothing to do', async () => {
    const first = await cli('migrate');
    expect(first.code, first.stderr).to.equal(0);
    expect(first.json.migrated.host).to.include('001_core');
    expect(first.json.migrated).to.have.property('suite-b2b');
    const second = await cli('migrate');
    expect(second.code, second.stderr).to.equal(0);
    expect(second.json.migrated.host).to.deep.equal([]);
  });

  it('customer:create makes a customer who can then log in; a second one with the same e-mail is refused', async () => {
    const created = await cli(
      'customer:create',
      '--email',
      'Ops.Buyer@Example.test',
      '--password',
      'secret-pass-1',
      '--company',
      'Ops GmbH',
      '--first-name',
      'Olga',
      '--last-name',
      'Ops',
    );
    expect(created.code, created.stderr).to.equal(0);
    expect(created.json.customer).to.include({
      email: 'ops.buyer@example.test',
      company: 'Ops GmbH',
      firstName: 'Olga',
      lastName: 'Ops',
      active: true,
    });
    expect(created.json.customer.id).to.match(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(created.json)).not.to.contain('secret-pass-1');

    const shop = await createApp({ config: { databaseUrl, varDir, logLevel: 'silent', workers: false }, plugins: [] });
    try {
      const res = await supertest(shop.app)
        .post('/store-api/account/login')
        .send({ email: 'ops.buyer@example.test', password: 'secret-pass-1' });
      expect(res.status).to.equal(200);
    } finally {
      await shop.close();
    }

    const again = await cli('customer:create', '--email', 'ops.buyer@example.test', '--password', 'another-pass-2');
    expect(again.code).to.equal(2);
    expect(again.json.error).to.contain('exists already');
  });

  it('admin-user:create makes an admin user (read-only with --read-only) who can log in; admin-user:role changes the console role', async () => {
    const created = await cli(
      'admin-user:create',
      '--username',
      'ops-reader',
      '--email',
      'Reader@Example.test',
      '--password',
      'reader-password-1',
      '--read-only',
    );
    expect(created.code, created.stderr).to.equal(0);
    expect(created.json.adminUser).to.include({
      username: 'ops-reader',
      email: 'reader@example.test',
      role: 'read-only',
    });
    expect(JSON.stringify(created.json)).not.to.contain('reader-password-1');
    const shop = await createApp({ config: { databaseUrl, varDir, logLevel: 'silent', workers: false }, plugins: [] });
    try {
      const token = await supertest(shop.app)
        .post('/api/oauth/token')
        .send({ grant_type: 'password', username: 'ops-reader', password: 'reader-password-1' });
      expect(token.status).to.equal(200);
      expect(await shop.db('admin_users').where({ username: 'ops-reader' }).first('read_only')).to.satisfy(
        (row: { read_only: unknown }) => Boolean(row.read_only),
      );
      const changed = await cli('admin-user:role', '--username', 'ops-reader', '--role', 'managing');
      expect(changed.code, changed.stderr).to.equal(0);
      expect(await shop.db('admin_users').where({ username: 'ops-reader' }).first('read_only')).to.satisfy(
        (row: { read_only: unknown }) => !row.read_only,
      );
    } finally {
      await shop.close();
    }
    expect(
      (
        await cli(
          'admin-user:create',
          '--username',
          'ops-reader',
          '--email',
          'x@example.test',
          '--password',
          'another-password-2',
        )
      ).json.error,
    ).to.contain('exists already');
    expect((await cli('admin-user:role', '--username', 'nobody', '--role', 'managing')).code).to.equal(2);
    expect((await cli('admin-user:role', '--username', 'ops-reader', '--role', 'boss')).json.error).to.contain(
      'managing or read-only',
    );
  });

  it('customer:create explains missing or bad options', async () => {
    const missing = await cli('customer:create', '--email', 'x@example.test');
    expect(missing.code).to.equal(2);
    expect(missing.json.error).to.equal('--password is required');
    const short = await cli('customer:create', '--email', 'x@example.test', '--password', 'short');
    expect(short.json.error).to.contain('at least 8 characters');
    const unknown = await cli('customer:create', '--mail', 'x@example.test');
    expect(unknown.code).to.equal(2);
    expect(unknown.json.error).to.contain('--mail');
  });

  it('integration:create prints a client id and secret that obtain an Admin API token', async () => {
    const created = await cli('integration:create', '--label', 'ERP sync');
    expect(created.code, created.stderr).to.equal(0);
    expect(created.json).to.include({ label: 'ERP sync' });
    const shop = await createApp({ config: { databaseUrl, varDir, logLevel: 'silent', workers: false }, plugins: [] });
    try {
      const res = await supertest(shop.app).post('/api/oauth/token').send({
        grant_type: 'client_credentials',
        client_id: created.json.client_id,
        client_secret: created.json.client_secret,
      });
      expect(res.status).to.equal(200);
      expect(res.body.access_token).to.be.a('string');
    } finally {
      await shop.close();
    }
  });

  it('seed:demo adds the demo shop once and prints its logins', async () => {
    const first = await cli('seed:demo');
    expect(first.code, first.stderr).to.equal(0);
    expect(first.json.lines.join('\n')).to.contain('buyer@demo-company.test');
    const second = await cli('seed:demo');
    expect(second.code, second.stderr).to.equal(0);
    expect(second.json.lines).to.deep.equal(first.json.lines);
  });

  it('jobs:run runs what is due and says how much ran', async () => {
    const res = await cli('jobs:run');
    expect(res.code, res.stderr).to.equal(0);
    expect(res.json.ran).to.be.a('number').and.to.be.at.least(1);
  });

  it('recurring-orders:place-due queues the catch-up as of a time and runs it; --queue only queues', async () => {
    const bad = await cli('recurring-orders:place-due', '--now', 'yesterday');
    expect(bad.code).to.equal(2);
    expect(bad.json.error).to.contain('--now');
    expect((await cli('recurring-orders:place-due', '--missed', 'later')).json.error).to.contain('place-once or skip');
    const ran = await cli('recurring-orders:place-due', '--now', '2030-01-15T08:00:00Z', '--missed', 'skip');
    expect(ran.code, ran.stderr).to.equal(0);
    expect(ran.json).to.deep.include({
      queued: { name: 'recurring-order.place-due', payload: { now: '2030-01-15T08:00:00.000Z', missed: 'skip' } },
      state: 'done',
      error: null,
    });
    const queued = await cli('recurring-orders:place-due', '--queue');
    expect(queued.code, queued.stderr).to.equal(0);
    expect(queued.json.queued.name).to.equal('recurring-order.place-due');
    expect(queued.json).to.not.have.property('ran');
  });

  it('lists the commands for help and refuses an unknown one', async () => {
    const help = await cli('help');
    expect(help.code).to.equal(0);
    expect(Object.keys(help.json.commands)).to.include.members([
      'migrate',
      'integration:create',
      'customer:create',
      'seed:demo',
      'jobs:run',
    ]);
    const unknown = await cli('drop-everything');
    expect(unknown.code).to.equal(2);
  });
});
