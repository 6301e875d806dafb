import { expect } from 'chai';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getShop, isServerDb, TEST_APP_SECRET, testDatabaseUrl } from '../../helpers/shop.js';
import { serverUrl, spawnServer } from '../../helpers/server-process.js';

const READY_DELAY_MS = 1500;
const GRACE_MS = 10000;

interface Outcome {
  at: number;
  status: number | null;
  error: string | null;
}

/** A POST whose body arrives in two parts, `gapMs` apart: in flight for that long whatever the server does. */
function slowPost(base: string, path: string, body: string, gapMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    setTimeout(() => req.end(body.slice(half)), gapMs);
  });
}

describe('host: graceful shutdown under load', function () {
  this.timeout(90000);
  let varDir = '';
  after(() => varDir && rmSync(varDir, { recursive: true, force: true }));

  it('on SIGTERM turns ready to 503 first, serves and finishes in-flight requests without a 5xx, and exits 0 within the grace period', async () => {
    varDir = mkdtempSync(join(tmpdir(), 'suite-drain-'));
    // On SQLite a file of its own (the server seeds the demo shop into it); on MariaDB the migrated test database.
    const databaseUrl = isServerDb()
      ? (await getShop(), await testDatabaseUrl())
      : `sqlite:${join(varDir, 'drain.sqlite')}`;
    const server = spawnServer({
      DATABASE_URL: databaseUrl,
      APP_SECRET: TEST_APP_SECRET,
      PORT: '0',
      VAR_DIR: varDir,
      WORKERS: '0',
      // The drain of one web process; the cluster primary passing the signal on is test/host/ops/cluster.test.ts.
      WEB_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
      SHUTDOWN_READY_DELAY_MS: String(READY_DELAY_MS),
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    });
    try {
      const base = await serverUrl(server);
      expect((await fetch(`${base}/health/ready`)).status).to.equal(200);

      let loading = true;
      const load: Outcome[] = [];
      const probes: Outcome[] = [];
      const record = async (into: Outcome[], run: () => Promise<Response>) => {
        try {
          const res = await run();
          await res.arrayBuffer();
          into.push({ at: Date.now(), status: res.status, error: null });
        } catch (error) {
          into.push({
            at: Date.now(),
            status: null,
            error: String((error as { cause?: { code?: string } }).cause?.code ?? error),
          });
        }
      };
      const workers = Array.from({ length: 4 }, async () => {
        while (loading) {
          await record(load, () =>
            fetch(`${base}/store-api/product`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{"limit":3}',
            }),
          );
          if (load.at(-1)!.error) await new Promise((r) => setTimeout(r, 50));
        }
      });
      const prober = (async () => {
        while (loading) {
          await record(probes, () => fetch(`${base}/health/ready`));
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      await new Promise((r) => setTimeout(r, 500));

      const inFlight = slowPost(base, '/store-api/product', '{"limit":2}', READY_DELAY_MS + 700);
      await new Promise((r) => setTimeout(r, 100));
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      const exit = await server.exited;
      loading = false;
      await Promise.all([...workers, prober]);
      const slow = await inFlight;

      expect(exit.code, server.stderr()).to.equal(0);
      expect(exit.at - signalledAt, 'exit within the grace period').to.be.below(GRACE_MS);
      expect(slow.status, 'the request in flight when the listener closed completed').to.equal(200);
      expect(JSON.parse(slow.body).elements, slow.body.slice(0, 300)).to.be.an('array');

      const firstNotReady = probes.find((p) => p.at > signalledAt && p.status === 503);
      expect(firstNotReady, 'ready turned 503').to.not.equal(undefined);
      // What a load balancer needs: the 503 while the listener still accepts (the ready delay), not a figure in ms (a busy machine answers late).
      expect(firstNotReady!.at - signalledAt, 'ready turned 503 before the listener closed').to.be.below(
        READY_DELAY_MS,
      );
      expect(
        probes.filter((p) => p.at > signalledAt && p.status === 200),
        'never ready again after SIGTERM',
      ).to.have.length.at.most(1);

      expect(
        load.filter((o) => o.status !== null && o.status >= 500),
        'no 5xx',
      ).to.deep.equal([]);
      const servedWhileDraining = load.filter((o) => o.at > signalledAt + 100 && o.status === 200);
      expect(servedWhileDraining.length, 'requests still served while ready was 503').to.be.greaterThan(3);
      const failures = load.filter((o) => o.error !== null);
      for (const failure of failures) {
        expect(failure.at - signalledAt, `${failure.error} only after the listener closed`).to.be.at.least(
          READY_DELAY_MS,
        );
        // New connections meet a closed listener: refused, or reset when the kernel had queued them as it closed.
        expect(failure.error).to.be.oneOf(['ECONNREFUSED', 'ECONNRESET']);
      }
      expect(server.stdout()).to.include('shutting down: readiness off, draining');
      expect(server.stdout()).to.include('shut down cleanly');
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });
});
