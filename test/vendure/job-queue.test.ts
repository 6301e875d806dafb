import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { loadManifest } from '../../src/host-kit/manifest.js';
import { projectPath } from '../../src/host-kit/paths.js';
import { parseDatabaseUrl } from '../../src/lib/db.js';
import { newId } from '../../src/lib/ids.js';
import { STALE_JOB_SECONDS } from '../../src/lib/job-worker.js';
import { HANDOVER_LEASE_SECONDS, type SuiteQueueJob } from '../../src/adapters/vendure/job-queue.js';
import { PLACE_DUE_JOB } from '../../src/plugin/recurring-order/index.js';
import { OCCURRENCES } from '../../src/plugin/recurring-order/repository.js';
import { startSmtp, type TestMailbox } from '../helpers/smtp.js';
import { bullmqPlugin, REDIS } from './helpers/bullmq.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';
import type { WorkerReport } from './fixtures/queue-worker.js';

interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  report(): Promise<WorkerReport>;
  moveClock(ms: number): Promise<WorkerReport>;
}

const until = async (
  what: string,
  done: () => Promise<boolean>,
  timeoutMs = 90_000,
  state: () => Promise<unknown> = async () => undefined,
) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${JSON.stringify((await state()) ?? '') || ''}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

/** A calendar date `days` after today (UTC). */
function dayFromToday(days: number): string {
  const today = new Date();
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days))
    .toISOString()
    .slice(0, 10);
}

/**
 * The plugin's work runs on Vendure's JobQueue (here BullMQ on Redis) in the shop's
 * worker processes. The shop in this test process is the server (`bootstrap`, no job queue started,
 * Vendure's scheduled tasks in the workers only); two worker processes (`bootstrapWorker`,
 * test/vendure/fixtures/queue-worker.ts) share the queue. Mails and jobs are written in the plugin's
 * transactions and handed to the queue after commit; each is done once however the deliveries fall,
 * and a worker killed mid-run loses none.
 */
describe("Vendure: the plugin's work on Vendure's job queue (BullMQ, two worker processes)", function () {
  this.timeout(240_000);
  const prefix = `suite-b2b-test-${process.pid}-${newId().slice(0, 6)}`;
  const template = loadManifest(projectPath('plugin.json')).mailTemplates[0]!;
  let client: ShopClient;
  let mailbox: TestMailbox;
  const workers: WorkerProcess[] = [];
  const onServer = { mailsSent: 0, jobsRun: 0, handlers: 0 };

  function startWorker(): Promise<WorkerProcess> {
    const child = spawn(
      process.execPath,
      [
        '--import=tsx',
        '--conditions=suite-b2b-source',
        '--no-experimental-require-module',
        projectPath('test', 'vendure', 'fixtures', 'queue-worker.ts'),
      ],
      {
        env: { ...process.env, DATABASE_URL: client.databaseUrl, MAILER_URL: mailbox.url, QUEUE_PREFIX: prefix },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    let seq = 0;
    const ask = (message: Record<string, unknown>) =>
      new Promise<WorkerReport>((resolve, reject) => {
        const mine = ++seq;
        const listen = (answer: WorkerReport) => {
          if (answer.seq !== mine) return;
          child.off('message', listen);
          resolve(answer);
        };
        child.on('message', listen);
        child.send({ ...message, seq: mine }, (error) => error && reject(error));
      });
    return new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`worker exited (${String(code)}) before it was ready`)));
      child.on('message', (message: WorkerReport) => {
        if (!message.ready) return;
        resolve({
          child,
          pid: message.pid,
          report: () => ask({}),
          moveClock: (ms) => ask({ moveClock: ms }),
        });
      });
    });
  }

  const outbox = () => client.shop.state.db('suite_host_mail_outbox');
  const enqueueMails = async (recipients: string[]) => {
    const { state } = client.shop;
    // Each in a transaction of its own, as the plugin's use cases write them; handed over after each commit.
    for (const to of recipients)
      await state.db.transaction((trx) =>
        state.runtime.mail.enqueue(trx, { template, to, data: { firstName: 'Queue', lastName: 'Test' } }),
      );
  };
  const unsent = async (recipients: string[]) =>
    Number((await outbox().whereIn('recipient', recipients).whereNot('state', 'sent').count({ n: '*' }).first())?.n);

  before(async function () {
    const url = process.env.DATABASE_URL;
    if (!url || parseDatabaseUrl(url).dialect === 'sqlite')
      // Worker processes beside the server share one SQLite file; its one writer and Vendure's own SQLite
      // connection per process make several processes no test of scale-out (Vendure advises a server database for workers).
      this.skip();
    this.timeout(240_000);
    mailbox = await startSmtp();
    client = await bootShop({
      label: 'vendure_job_queue',
      mailerUrl: mailbox.url,
      separateWorkers: true,
      jobQueuePlugin: bullmqPlugin(prefix),
    });
    // The server must hand over only: count whatever of the work it would run itself.
    const { state } = client.shop;
    const { sendQueued } = state.mail;
    const sendOne = state.mail.sendOne!;
    state.mail.sendOne = (id) => {
      onServer.mailsSent++;
      return sendOne(id);
    };
    state.mail.sendQueued = () => {
      onServer.mailsSent++;
      return sendQueued();
    };
    const { runOne, runHandler } = state.jobs;
    state.jobs.runOne = (id) => {
      onServer.jobsRun++;
      return runOne(id);
    };
    state.jobs.runHandler = (name, payload) => {
      onServer.handlers++;
      return runHandler(name, payload);
    };
    workers.push(await startWorker(), await startWorker());
  });

  after(async function () {
    this.timeout(60_000);
    for (const worker of workers) worker.child.kill('SIGKILL');
    await client?.close();
    await mailbox?.stop();
    if (client) {
      const redis = new Redis(REDIS);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });

  it('sends 100 mails written in the plugin’s transactions exactly once, in the worker processes (both take some), none in the server', async () => {
    const tag = newId().slice(0, 8);
    const recipients = Array.from({ length: 100 }, (_, i) => `queue-${i}-${tag}@example.test`);
    await enqueueMails(recipients);
    await until('the 100 mails sent', async () => (await unsent(recipients)) === 0);

    for (const to of recipients)
      expect(
        mailbox.messages.filter((m) => m.envelopeTo.includes(to)),
        to,
      ).to.have.length(1);
    const rows = await outbox().whereIn('recipient', recipients).select('attempts');
    expect(rows.map((row: { attempts: unknown }) => Number(row.attempts))).to.deep.equal(recipients.map(() => 1));
    const reports = await Promise.all(workers.map((worker) => worker.report()));
    expect(reports.reduce((sum, report) => sum + report.mailsSent, 0)).to.equal(100);
    for (const report of reports) expect(report.mailsSent, `worker ${report.pid}`).to.be.greaterThan(0);
    expect(onServer).to.deep.equal({ mailsSent: 0, jobsRun: 0, handlers: 0 });
  });

  it('places 20 due recurring orders exactly once, two deliveries of the placement job running in the two workers at once', async () => {
    const buyer = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const added = await client.rest('POST', '/store-api/b2b/add-to-cart', buyer, {
      items: [{ productNumber: 'PAPER-001', quantity: 2 }],
    });
    expect(added.body, JSON.stringify(added.body)).to.include({ success: true });
    const start = dayFromToday(3);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const created = await client.rest('POST', '/store-api/b2b/recurring-order', buyer, {
        name: `Paper ${i}`,
        source: 'cart',
        interval: { unit: 'week', count: 1 },
        startDate: start,
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      ids.push(created.body.id as string);
    }
    const { state } = client.shop;
    // The operator's catch-up as of the start date (the CLI's job), queued twice: both workers place at once.
    for (let i = 0; i < 2; i++)
      await state.db.transaction((trx) =>
        state.jobs.jobs.enqueue(trx, PLACE_DUE_JOB, { now: `${start}T08:00:00.000Z`, missed: 'place-once' }),
      );
    const occurrences = () => state.db(OCCURRENCES).whereIn('recurring_order_id', ids);
    await until('20 occurrences', async () => (await occurrences()).length >= 20);
    const placementJobsLeft = () =>
      state
        .db('suite_host_jobs')
        .where({ name: PLACE_DUE_JOB })
        .whereNot('state', 'done')
        .select('state', 'attempts', 'run_at', 'last_error', 'handed_over_at');
    // A delivery that lost a race is retried after its backoff: give it that time, and say where it stands.
    await until(
      'both placement jobs done',
      async () => (await placementJobsLeft()).length === 0,
      150_000,
      () => placementJobsLeft(),
    );

    const rows = (await occurrences()) as Array<{ recurring_order_id: string; status: string; order_id: string }>;
    expect(rows).to.have.length(20);
    expect(new Set(rows.map((row) => row.recurring_order_id)).size).to.equal(20);
    expect(rows.map((row) => row.status)).to.deep.equal(ids.map(() => 'placed'));
    const orderIds = rows.map((row) => state.ids.toVendure(row.order_id)!);
    expect(new Set(orderIds.map(String)).size).to.equal(20);
    const orders = await state.db('order').whereIn('id', orderIds).select('active', 'state');
    expect(orders).to.have.length(20);
    for (const order of orders as Array<{ active: unknown; state: string }>) {
      expect(Boolean(Number(order.active))).to.equal(false);
      expect(order.state).to.equal('PaymentAuthorized');
    }
    const reports = await Promise.all(workers.map((worker) => worker.report()));
    expect(reports.reduce((sum, report) => sum + report.jobsRun, 0)).to.equal(2);
    expect(onServer).to.deep.equal({ mailsSent: 0, jobsRun: 0, handlers: 0 });
  });

  it("runs a plugin schedule as Vendure's ScheduledTask once per period across both workers, its run a job in a worker", async function () {
    this.timeout(180_000);
    const admin = bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    // The import start (every 60 s: `0 */1 * * * *`), the plugin's shortest schedule.
    const runs = async () => {
      const answer = await client.gql(
        'admin-api',
        '{ jobs(options: { filter: { queueName: { eq: "suite-b2b-jobs" } }, take: 1000 }) { items { data createdAt state } } }',
        {},
        admin,
      );
      expect(answer.errors, JSON.stringify(answer.errors)).to.equal(undefined);
      return (answer.data.jobs.items as Array<{ data: SuiteQueueJob; createdAt: string; state: string }>).filter(
        (job) => job.data.kind === 'schedule' && job.data.name === 'import-run.start-queued',
      );
    };
    const before = (await runs()).length;
    await until('two periods', async () => (await runs()).length >= before + 2, 150_000);
    // A second run of a period would have been added by now.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const minutes = (await runs()).map((job) => job.createdAt.slice(0, 16));
    expect(minutes.length, JSON.stringify(minutes)).to.equal(new Set(minutes).size);
    await until('the runs done', async () => (await runs()).every((job) => job.state === 'COMPLETED'));
    const reports = await Promise.all(workers.map((worker) => worker.report()));
    expect(reports.reduce((sum, report) => sum + report.handlersRun, 0)).to.be.at.least(2);
    expect(onServer).to.deep.equal({ mailsSent: 0, jobsRun: 0, handlers: 0 });
  });

  it('loses none of 100 mails when a worker is killed mid-run (SIGKILL): the other sends what it had claimed once the lease ran out', async () => {
    const tag = newId().slice(0, 8);
    const recipients = Array.from({ length: 100 }, (_, i) => `killed-${i}-${tag}@example.test`);
    const received = () =>
      mailbox.messages.filter((m) => m.envelopeTo.some((to) => to.endsWith(`-${tag}@example.test`)));
    const [victim, survivor] = workers as [WorkerProcess, WorkerProcess];
    const enqueued = enqueueMails(recipients);
    await until('the first mails sent', () => Promise.resolve(received().length >= 10));
    victim.child.kill('SIGKILL');
    await new Promise((resolve) => victim.child.once('exit', resolve));
    await enqueued;
    const orphans = (
      (await outbox()
        .whereIn('recipient', recipients)
        .where('state', 'sending')
        .where('locked_by', 'like', `%:${victim.pid}:%`)
        .select('recipient')) as Array<{ recipient: string }>
    ).map((row) => row.recipient);

    // The survivor sends everything but what the dead worker held: rows it had claimed, and rows its
    // outbox sweep had marked handed over but not yet added to the queue…
    let last = -1;
    let unchanged = 0;
    await until('the survivor idle', async () => {
      const left = await unsent(recipients);
      unchanged = left === last ? unchanged + 1 : 0;
      last = left;
      return unchanged >= 20;
    });
    const held = (await outbox()
      .whereIn('recipient', recipients)
      .whereNot('state', 'sent')
      .select('recipient', 'state', 'locked_by', 'handed_over_at')) as Array<Record<string, unknown>>;
    for (const row of held)
      expect(
        (row.state === 'sending' && orphans.includes(String(row.recipient))) ||
          (row.state === 'queued' && row.handed_over_at !== null),
        JSON.stringify(row),
      ).to.equal(true);
    // …and that, once the leases ran out (its clock moved on; its sweep hands the rows over again).
    await survivor.moveClock((Math.max(STALE_JOB_SECONDS, HANDOVER_LEASE_SECONDS) + 60) * 1000);
    await until('every mail sent', async () => (await unsent(recipients)) === 0);

    for (const to of recipients) {
      const copies = mailbox.messages.filter((m) => m.envelopeTo.includes(to)).length;
      // A mail the killed worker had handed to SMTP but not yet marked sent may go out twice (the same
      // Message-ID, for the receiver to drop); any other exactly once.
      if (orphans.includes(to)) expect(copies, to).to.be.within(1, 2);
      else expect(copies, to).to.equal(1);
    }
    workers.splice(0, 1);
  });
});
