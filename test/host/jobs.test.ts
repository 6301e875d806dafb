import { expect } from 'chai';
import { createDb, type Db } from '../../src/lib/db.js';
import { newId } from '../../src/lib/ids.js';
import { addSeconds, fromDbTime, toDbTime } from '../../src/lib/time.js';
import { createJobsModule, STALE_JOB_SECONDS, type JobsModule } from '../../src/host/jobs/index.js';
import type { HostInternals } from '../../src/host/internals.js';
import { createApp, type ShopApp } from '../../src/host/app.js';
import type { HostPlugin, JobContext } from '../../src/contract/index.js';
import type { PluginManifest } from '../../src/host-kit/manifest.js';
import { getShop, TEST_APP_SECRET, testDatabaseUrl, testMailbox } from '../helpers/shop.js';

const unique = (prefix: string) => `test.${prefix}.${newId().slice(0, 10)}`;
const secondsFromNow = (value: string) => (new Date(fromDbTime(value)!).getTime() - Date.now()) / 1000;

/** Another worker on the same database, as a second app process would run it: own pool, own registries. */
function otherWorker(shop: ShopApp, db: Db): JobsModule {
  const internals = {
    ...shop.internals,
    db,
    registries: { ...shop.internals.registries, jobHandlers: new Map(), jobSchedules: new Map() },
  } as HostInternals;
  return createJobsModule(internals);
}

describe('host: jobs', () => {
  let shop: ShopApp;
  /**
   * A worker over the shop's database that knows only the handlers these tests register, so the work
   * that earlier test files left queued in this database (mail, recurring orders) does not run here.
   */
  let worker: JobsModule;
  const extraDbs: Db[] = [];
  before(async () => {
    shop = await getShop();
    worker = otherWorker(shop, shop.db);
  });
  after(async () => {
    for (const db of extraDbs) await db.destroy();
  });
  async function secondPool(): Promise<Db> {
    const db = createDb(await testDatabaseUrl());
    extraDbs.push(db);
    return db;
  }

  it('runs a queued job with its payload and the runtime, then marks it done', async () => {
    const name = unique('ok');
    const seen: Array<Omit<JobContext, 'host'> & { contract: string }> = [];
    worker.jobs.register(name, async ({ host, ...job }) => void seen.push({ ...job, contract: host.contractVersion }));
    await shop.db.transaction((trx) => worker.jobs.enqueue(trx, name, { orderId: 'abc', count: 2 }));
    expect(await worker.runDue()).to.be.greaterThan(0);
    const row = await shop.db('jobs').where({ name }).first();
    expect(seen).to.deep.equal([
      { name, id: row.id, attempt: 1, payload: { orderId: 'abc', count: 2 }, contract: shop.runtime.contractVersion },
    ]);
    expect(row.state).to.equal('done');
    expect(row.attempts).to.equal(1);
    expect(row.locked_by).to.equal(null);
    await worker.runDue();
    expect(seen).to.have.length(1);
  });

  it('does not run a job enqueued in a transaction that rolled back', async () => {
    const name = unique('rolled-back');
    let runs = 0;
    worker.jobs.register(name, async () => void runs++);
    await shop.db
      .transaction(async (trx) => {
        await worker.jobs.enqueue(trx, name, {});
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    await worker.runDue();
    expect(runs).to.equal(0);
    expect(await shop.db('jobs').where({ name }).first()).to.equal(undefined);
  });

  it('retries a failing job with growing backoff, then marks it failed with the last error', async () => {
    const name = unique('failing');
    let runs = 0;
    const attempts: number[] = [];
    worker.jobs.register(name, async ({ attempt }) => {
      runs++;
      attempts.push(attempt);
      throw new Error(`SMTP down (attempt ${runs})`);
    });
    await worker.jobs.enqueue(shop.db, name, {});
    await shop.db('jobs').where({ name }).update({ max_attempts: 3 });

    await worker.runDue();
    let row = await shop.db('jobs').where({ name }).first();
    expect(row).to.include({ state: 'queued', attempts: 1 });
    expect(row.last_error).to.contain('SMTP down (attempt 1)');
    const firstDelay = secondsFromNow(row.run_at);
    expect(firstDelay).to.be.within(5, 11);

    await worker.runDue();
    expect(runs, 'not due again before its backoff').to.equal(1);

    await shop
      .db('jobs')
      .where({ name })
      .update({ run_at: toDbTime(addSeconds(new Date(), -1)) });
    await worker.runDue();
    row = await shop.db('jobs').where({ name }).first();
    expect(row).to.include({ state: 'queued', attempts: 2 });
    expect(secondsFromNow(row.run_at)).to.be.greaterThan(firstDelay + 5);

    await shop
      .db('jobs')
      .where({ name })
      .update({ run_at: toDbTime(addSeconds(new Date(), -1)) });
    await worker.runDue();
    row = await shop.db('jobs').where({ name }).first();
    expect(row).to.include({ state: 'failed', attempts: 3 });
    expect(row.last_error).to.contain('SMTP down (attempt 3)');
    expect(row.finished_at).to.be.a('string');
    expect(runs).to.equal(3);

    await shop
      .db('jobs')
      .where({ name })
      .update({ run_at: toDbTime(addSeconds(new Date(), -1)) });
    await worker.runDue();
    expect(runs, 'a failed job stays failed').to.equal(3);
    expect(attempts, 'each run is told its attempt').to.deep.equal([1, 2, 3]);
  });

  it('queues a job with a unique key only once, even after it ran', async () => {
    const name = unique('keyed');
    const uniqueKey = `reminder:${newId()}`;
    let runs = 0;
    worker.jobs.register(name, async () => void runs++);
    await worker.jobs.enqueue(shop.db, name, { n: 1 }, { uniqueKey });
    await worker.jobs.enqueue(shop.db, name, { n: 2 }, { uniqueKey });
    expect(await shop.db('jobs').where({ name })).to.have.length(1);
    await worker.runDue();
    await worker.jobs.enqueue(shop.db, name, { n: 3 }, { uniqueKey });
    await worker.runDue();
    expect(runs).to.equal(1);
  });

  it('waits for runAt before running a job', async () => {
    const name = unique('later');
    let runs = 0;
    worker.jobs.register(name, async () => void runs++);
    await worker.jobs.enqueue(shop.db, name, {}, { runAt: addSeconds(new Date(), 3600) });
    await worker.runDue();
    expect(runs).to.equal(0);
    await shop
      .db('jobs')
      .where({ name })
      .update({ run_at: toDbTime(addSeconds(new Date(), -1)) });
    await worker.runDue();
    expect(runs).to.equal(1);
  });

  it('reclaims a job left running by a crashed worker, but not one another worker holds right now', async () => {
    const name = unique('stale');
    let runs = 0;
    worker.jobs.register(name, async () => void runs++);
    const base = {
      name,
      payload: '{}',
      run_at: toDbTime(addSeconds(new Date(), -3600)),
      max_attempts: 5,
      created_at: toDbTime(),
    };
    await shop.db('jobs').insert([
      {
        ...base,
        id: newId(),
        state: 'running',
        attempts: 1,
        locked_by: 'crashed-worker',
        locked_at: toDbTime(addSeconds(new Date(), -STALE_JOB_SECONDS - 60)),
      },
      {
        ...base,
        id: newId(),
        state: 'running',
        attempts: 1,
        locked_by: 'busy-worker',
        locked_at: toDbTime(addSeconds(new Date(), -5)),
      },
    ]);
    await worker.runDue();
    expect(runs).to.equal(1);
    const rows = await shop.db('jobs').where({ name }).orderBy('locked_by');
    expect(rows.map((r: { state: string; attempts: number }) => [r.state, r.attempts])).to.deep.include.members([
      ['done', 2],
      ['running', 1],
    ]);
  });

  it('runs each job exactly once when two workers with their own pools claim concurrently', async function () {
    this.timeout(30000);
    const name = unique('contended');
    const runsById = new Map<string, number>();
    const handler = async ({ payload }: { payload: Record<string, unknown> }) => {
      await new Promise((r) => setTimeout(r, 5));
      runsById.set(String(payload.id), (runsById.get(String(payload.id)) ?? 0) + 1);
    };
    const a = otherWorker(shop, await secondPool());
    const b = otherWorker(shop, await secondPool());
    a.jobs.register(name, handler);
    b.jobs.register(name, handler);
    for (let i = 0; i < 30; i++) await worker.jobs.enqueue(shop.db, name, { id: i });
    const [ranA, ranB] = await Promise.all([a.runDue({ schedules: 'due' }), b.runDue({ schedules: 'due' })]);
    expect(runsById.size).to.equal(30);
    expect([...runsById.values()].every((n) => n === 1)).to.equal(true);
    expect(await shop.db('jobs').where({ name, state: 'done' }).count({ n: '*' }).first()).to.deep.equal({ n: 30 });
    expect(ranA + ranB).to.be.at.least(30);
  });

  it('runs a due schedule on exactly one of several workers, then not again before its interval', async function () {
    this.timeout(30000);
    const name = unique('schedule');
    let runs = 0;
    const workers = [
      otherWorker(shop, await secondPool()),
      otherWorker(shop, await secondPool()),
      otherWorker(shop, shop.db),
    ];
    for (const worker of workers) {
      worker.jobs.register(name, async () => {
        runs++;
        await new Promise((r) => setTimeout(r, 20));
      });
      worker.jobs.schedule(name, 600);
    }
    await Promise.all(workers.map((w) => w.runDue({ schedules: 'due' })));
    expect(runs).to.equal(1);
    const row = await shop.db('job_schedules').where({ name }).first();
    expect(secondsFromNow(row.next_run_at)).to.be.within(590, 601);

    await Promise.all(workers.map((w) => w.runDue({ schedules: 'due' })));
    expect(runs, 'not due before its interval').to.equal(1);

    const [explicit, ...polling] = workers;
    await Promise.all([explicit!.runDue(), ...polling.map((w) => w.runDue({ schedules: 'due' }))]);
    expect(runs, 'an explicit run (CLI jobs:run) runs it once more while the others poll').to.equal(2);
  });

  it('polls once started, and stop() waits for the running handler', async function () {
    this.timeout(10000);
    const name = unique('polled');
    const events: string[] = [];
    const worker = otherWorker(shop, shop.db);
    worker.jobs.register(name, async () => {
      events.push('started');
      await new Promise((r) => setTimeout(r, 300));
      events.push('finished');
    });
    await worker.jobs.enqueue(shop.db, name, {});
    worker.start();
    const deadline = Date.now() + 5000;
    while (!events.includes('started') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(events).to.deep.equal(['started']);
    await worker.stop();
    expect(events).to.deep.equal(['started', 'finished']);
    expect((await shop.db('jobs').where({ name }).first()).state).to.equal('done');
  });

  it("hands a plugin's job handler the plugin's runtime, with the plugin's settings", async () => {
    const manifest: PluginManifest = {
      name: `test-plugin-${newId().slice(0, 6)}`,
      version: '1.0.0',
      entry: 'none',
      contractVersion: '^2.0.0',
      config: {
        type: 'object',
        properties: { greeting: { type: 'string', default: 'hello from the plugin settings' } },
      },
      permissions: [],
      mailTemplates: [],
    };
    const seen: unknown[] = [];
    const plugin: HostPlugin = {
      name: manifest.name,
      async register(host) {
        host.jobs.register(
          `${manifest.name}.greet`,
          async ({ host }) => void seen.push(await host.config.get('greeting')),
        );
      },
    };
    const other = await createApp({
      db: shop.db,
      plugins: [{ manifest, plugin }],
      config: {
        databaseUrl: await testDatabaseUrl(),
        appSecret: TEST_APP_SECRET,
        logLevel: 'silent',
        workers: false,
        mailerUrl: (await testMailbox()).url,
      },
    });
    try {
      await other.jobs.jobs.enqueue(other.db, `${manifest.name}.greet`, {});
      await other.jobs.runDue();
      expect(seen).to.deep.equal(['hello from the plugin settings']);
    } finally {
      await other.close();
    }
  });

  it('refuses a schedule interval that is not a positive whole number of seconds', async () => {
    expect(() => shop.runtime.jobs.schedule(unique('bad'), 0)).to.throw(/positive integer/);
    expect(() => shop.runtime.jobs.schedule(unique('bad'), 1.5)).to.throw(/positive integer/);
  });
});
