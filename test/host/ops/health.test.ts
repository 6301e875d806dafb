import { expect } from 'chai';
import express from 'express';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { createHealth } from '../../../src/host/ops/health.js';
import { HOST_MIGRATIONS } from '../../../src/host-kit/migrator.js';
import { getShop } from '../../helpers/shop.js';
import { sideApp } from '../../helpers/side-app.js';

describe('host: health probes', () => {
  it('live answers 200 without touching the database; ready and /health answer 200 with their checks', async () => {
    const agent = supertest((await getShop()).app);
    const live = await agent.get('/health/live');
    expect(live.status).to.equal(200);
    expect(live.body).to.deep.equal({ status: 'ok' });
    for (const path of ['/health/ready', '/health']) {
      const ready = await agent.get(path);
      expect(ready.status, path).to.equal(200);
      expect(ready.body).to.deep.equal({ status: 'ok', checks: { shutdown: 'ok', database: 'ok', migrations: 'ok' } });
      expect(ready.headers['cache-control']).to.equal('no-store');
    }
  });

  it('ready answers 503 with Retry-After once draining, while live stays 200 and requests are still served', async () => {
    const { shop } = await sideApp();
    const agent = supertest(shop.app);
    shop.health.startDraining();
    const ready = await agent.get('/health/ready');
    expect(ready.status).to.equal(503);
    expect(ready.headers['retry-after']).to.match(/^\d+$/);
    expect(ready.body).to.deep.include({ status: 'unavailable' });
    expect(ready.body.checks.shutdown).to.equal('draining');
    expect((await agent.get('/health')).status).to.equal(503);
    expect((await agent.get('/health/live')).status).to.equal(200);
    const served = await agent.post('/store-api/product').send({ limit: 1 });
    expect(served.status).to.equal(200);
    expect(served.headers.connection, 'keep-alive clients are told to reconnect elsewhere').to.equal('close');
    await shop.close();
  });

  it('ready answers 503 when a migration the code knows has not run', async () => {
    const shop = await getShop();
    const folder = mkdtempSync(join(tmpdir(), 'suite-migrations-'));
    try {
      writeFileSync(
        join(folder, '999_not_run_yet.ts'),
        'export async function up() {}\nexport async function down() {}\n',
      );
      const app = express();
      const current = createHealth(shop.db, [{ folder: HOST_MIGRATIONS, table: 'knex_migrations' }]);
      const behind = createHealth(shop.db, [
        { folder: HOST_MIGRATIONS, table: 'knex_migrations' },
        { folder, table: 'knex_migrations' },
      ]);
      app.use('/current', current.router);
      app.use('/behind', behind.router);
      expect((await supertest(app).get('/current/health/ready')).status).to.equal(200);
      const res = await supertest(app).get('/behind/health/ready');
      expect(res.status).to.equal(503);
      expect(res.body.checks).to.deep.equal({ shutdown: 'ok', database: 'ok', migrations: 'pending' });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('ready turns 200 once the pending migration has run, and stops re-reading a set that was current', async () => {
    const shop = await getShop();
    const folder = mkdtempSync(join(tmpdir(), 'suite-migrations-'));
    const table = 'test_health_migrations';
    try {
      writeFileSync(join(folder, '001_first.ts'), 'export async function up() {}\nexport async function down() {}\n');
      await shop.db.schema.dropTableIfExists(table);
      await shop.db.schema.createTable(table, (t) => t.string('name'));
      const app = express().use(createHealth(shop.db, [{ folder, table }]).router);
      expect((await supertest(app).get('/health/ready')).body.checks.migrations).to.equal('pending');
      await shop.db(table).insert({ name: '001_first.ts' });
      const ready = await supertest(app).get('/health/ready');
      expect(ready.status).to.equal(200);
      expect(ready.body.checks.migrations).to.equal('ok');
      // Probes after that only ask the database to answer: a table that lost its rows is not read again.
      await shop.db(table).delete();
      expect((await supertest(app).get('/health/ready')).status).to.equal(200);
    } finally {
      await shop.db.schema.dropTableIfExists(table);
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
