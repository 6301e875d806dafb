import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { getShop, isServerDb, TEST_APP_SECRET, testDatabaseUrl } from '../../helpers/shop.js';
import { exitWithin, serverUrl, spawnServer, type ServerProcess } from '../../helpers/server-process.js';
import { webConcurrency } from '../../../src/host/ops/cluster.js';

const GRACE_MS = 15000;

interface LogLine {
  msg?: string;
  pid?: number;
  pids?: number[];
}

function logLines(server: ServerProcess): LogLine[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

async function waitFor<T>(
  what: string,
  server: ServerProcess,
  probe: () => T | undefined,
  timeoutMs = 60000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(
        `${what} did not happen within ${timeoutMs} ms: ${server.stdout().slice(-2000)} ${server.stderr()}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('host: cluster mode (WEB_CONCURRENCY)', function () {
  this.timeout(180000);
  let varDir = '';
  before(() => (varDir = mkdtempSync(join(tmpdir(), 'suite-cluster-'))));
  after(() => varDir && rmSync(varDir, { recursive: true, force: true }));

  it('runs one web process per core on MySQL/MariaDB and one on SQLite unless WEB_CONCURRENCY says otherwise', () => {
    expect(webConcurrency({}, 'mysql://shop@db:3306/shop')).to.equal(availableParallelism());
    expect(webConcurrency({}, 'sqlite:var/suite.sqlite')).to.equal(1);
    expect(webConcurrency({ WEB_CONCURRENCY: '3' }, 'mysql://shop@db:3306/shop')).to.equal(3);
    expect(webConcurrency({ WEB_CONCURRENCY: '1' }, 'sqlite:var/suite.sqlite')).to.equal(1);
    expect(() => webConcurrency({ WEB_CONCURRENCY: '0' }, 'mysql://shop@db:3306/shop')).to.throw(
      'WEB_CONCURRENCY must be a whole number of processes, 1 or more (got "0")',
    );
    expect(() => webConcurrency({ WEB_CONCURRENCY: 'many' }, 'mysql://shop@db:3306/shop')).to.throw(
      'WEB_CONCURRENCY must be a whole number',
    );
  });

  if (!isServerDb()) {
    it('refuses more than one process on SQLite with a line that says why', async () => {
      const server = spawnServer({
        DATABASE_URL: `sqlite:${join(varDir, 'cluster.sqlite')}`,
        APP_SECRET: TEST_APP_SECRET,
        PORT: '0',
        VAR_DIR: varDir,
        WEB_CONCURRENCY: '2',
      });
      const exit = await exitWithin(server, 60000, 'of refusing to start');
      expect(exit.code).to.equal(1);
      expect(server.stderr().trim()).to.equal(
        'Suite B2B could not start: WEB_CONCURRENCY=2 needs MySQL/MariaDB: SQLite is single-process (set WEB_CONCURRENCY=1 or use a MariaDB DATABASE_URL)',
      );
    });
    return;
  }

  it('restarts a killed web process while the others keep answering, and drains all of them on SIGTERM to the primary', async () => {
    await getShop();
    const server = spawnServer({
      DATABASE_URL: await testDatabaseUrl(),
      APP_SECRET: TEST_APP_SECRET,
      PORT: '0',
      VAR_DIR: varDir,
      LOG_LEVEL: 'info',
      WEB_CONCURRENCY: '2',
      // Job workers run in every web process: on MariaDB they claim jobs with SKIP LOCKED.
      SHUTDOWN_READY_DELAY_MS: '500',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    });
    const webPids: number[] = [];
    try {
      const base = await serverUrl(server, 120000);
      const allListening = await waitFor('both web processes listening', server, () =>
        logLines(server).find((line) => line.msg === 'cluster: all web processes listen'),
      );
      const pids = allListening.pids!;
      webPids.push(...pids);
      expect(pids).to.have.length(2);
      expect(server.stdout()).to.include('Processes:         2 (WEB_CONCURRENCY)');

      let loading = true;
      const outcomes: { sent: number; at: number; status: number | null; error: string | null }[] = [];
      const load = Array.from({ length: 3 }, async () => {
        while (loading) {
          const sent = Date.now();
          try {
            // Bounded: a connection the primary handed to the process just as it was killed gets no answer at all.
            const res = await fetch(`${base}/store-api/product`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{"limit":2}',
              signal: AbortSignal.timeout(10000),
            });
            await res.arrayBuffer();
            outcomes.push({ sent, at: Date.now(), status: res.status, error: null });
          } catch (error) {
            outcomes.push({
              sent,
              at: Date.now(),
              status: null,
              error: String((error as { cause?: { code?: string } }).cause?.code ?? error),
            });
            await new Promise((r) => setTimeout(r, 20));
          }
        }
      });
      await new Promise((r) => setTimeout(r, 300));

      const killedAt = Date.now();
      process.kill(pids[0]!, 'SIGKILL');
      const restarted = await waitFor('a new web process listening', server, () =>
        logLines(server).find(
          (line) => line.msg === 'cluster: web process listens' && line.pid !== undefined && !pids.includes(line.pid),
        ),
      );
      webPids.push(restarted.pid!);
      const restartedAt = Date.now();
      await new Promise((r) => setTimeout(r, 300));
      loading = false;
      await Promise.all(load);

      expect(
        logLines(server).some(
          (line) => line.msg === 'cluster: a web process died; restarting it' && line.pid === pids[0],
        ),
      ).to.equal(true);
      expect(isAlive(pids[0]!)).to.equal(false);
      expect(isAlive(restarted.pid!)).to.equal(true);
      expect(
        outcomes.filter((o) => o.status !== null && o.status !== 200),
        'only 200s',
      ).to.deep.equal([]);
      const servedWhileDown = outcomes.filter((o) => o.status === 200 && o.at > killedAt + 200 && o.at < restartedAt);
      expect(servedWhileDown.length, 'requests answered while one process was down').to.be.greaterThan(3);
      for (const failure of outcomes.filter((o) => o.error !== null)) {
        // Only a request that the killed process held can fail: one sent before it died or right at it.
        expect(failure.sent - killedAt, `${failure.error} of a request sent right at the kill`).to.be.below(1000);
      }

      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      const exit = await exitWithin(server, GRACE_MS + 20000, 'of SIGTERM to the primary');
      expect(exit.code, server.stderr()).to.equal(0);
      expect(exit.at - signalledAt, 'exit within the grace period').to.be.below(GRACE_MS);
      for (const pid of [pids[1]!, restarted.pid!]) expect(isAlive(pid), `web process ${pid} exited`).to.equal(false);
      expect(logLines(server).filter((line) => line.msg === 'shut down cleanly')).to.have.length(2);
      expect(server.stdout()).to.include('cluster: all processes shut down cleanly');
    } finally {
      // The web processes too: left running, their job workers would take the next tests' jobs (mails) from the shared database.
      for (const pid of webPids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });
});
