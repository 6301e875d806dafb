/**
 * Walks every page of the Store API product listing by cursor, twice, against the app started as in
 * `npm run bench` (one process, WORKERS=0) on the seeded bench database, and prints the app's
 * resident memory (VmRSS) after start, after each walk, and the walk's pages, time and totals. Not
 * part of `npm run bench`: it answers whether a whole-catalog walk (a product sync) holds memory.
 *
 *   BENCH_PRODUCTS=100000 npm run bench            # once: seeds var/bench/bench-100000-10000.sqlite
 *   BENCH_PRODUCTS=100000 npx tsx bench/walk.ts
 *
 * Knobs: BENCH_PRODUCTS (10000), WALK_LIMIT (page size, 100), WALK_TIMES (2), DATABASE_URL.
 */
import { readFileSync } from 'node:fs';
import { projectPath } from '../src/host-kit/paths.js';
import { BENCH_CUSTOMER } from './scenarios/catalog-cart.js';
import { startProcess } from './load.js';

const products = Number(process.env.BENCH_PRODUCTS ?? 10000);
const limit = Number(process.env.WALK_LIMIT ?? 100);
const times = Number(process.env.WALK_TIMES ?? 2);
const databaseUrl =
  process.env.DATABASE_URL ?? `sqlite:${projectPath('var', 'bench', `bench-${products}-10000.sqlite`)}`;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? NaN) / 1024;
}

const { child, port } = await startProcess(
  ['src/server.ts'],
  {
    DATABASE_URL: databaseUrl,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
    WORKERS: '0',
    LOG_LEVEL: 'warn',
    PORT: '0',
    WEB_CONCURRENCY: '1',
    SHUTDOWN_READY_DELAY_MS: '0',
  },
  /running on http:\/\/localhost:(\d+)/,
);
const baseUrl = `http://127.0.0.1:${port}`;
try {
  const login = await fetch(`${baseUrl}/store-api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_CUSTOMER),
  });
  const { contextToken } = (await login.json()) as { contextToken: string };
  const pid = child.pid!;
  process.stdout.write(`${databaseUrl}, pages of ${limit}\nRSS after start: ${rssMb(pid).toFixed(0)} MB\n`);
  for (let walk = 1; walk <= times; walk++) {
    const started = Date.now();
    let cursor: string | null = '';
    let pages = 0;
    let rows = 0;
    const totals = new Set<number>();
    let slowest = 0;
    while (cursor !== null) {
      const pageStarted = Date.now();
      const res = await fetch(`${baseUrl}/store-api/product`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'suite-context-token': contextToken },
        body: JSON.stringify({ limit, cursor }),
      });
      if (!res.ok) throw new Error(`page ${pages + 1}: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { elements: unknown[]; total: number; nextCursor: string | null };
      slowest = Math.max(slowest, Date.now() - pageStarted);
      rows += body.elements.length;
      totals.add(body.total);
      cursor = body.nextCursor;
      pages++;
    }
    process.stdout.write(
      `walk ${walk}: ${pages} pages, ${rows} products in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
        `(slowest page ${slowest} ms), totals answered ${[...totals].join(', ')}; RSS ${rssMb(pid).toFixed(0)} MB\n`,
    );
  }
} finally {
  child.kill('SIGTERM');
}
