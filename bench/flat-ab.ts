/**
 * Flat with data, side by side (not part of `npm run bench`): the app started on two MySQL/MariaDB bench
 * databases (DBS, default bench_10k,bench_1m, seeded by `npm run bench` with BENCH_ORDERS=10000 and
 * 1000000), sequential requests on one connection alternating between them in ROUNDS rounds of
 * PER_ROUND requests per scenario, so the load of a shared machine hits both alike. Prints p50 per
 * database and scenario, the app CPU per request, and the ratio of the second to the first.
 * MYSQL_URL is the server (default mysql://root@127.0.0.1:3306).
 *   npx tsx bench/flat-ab.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { projectPath } from '../src/host-kit/paths.js';
import { createDb } from '../src/lib/db.js';
import { orderApprovalRequests } from './scenarios/order-approval.js';
import { sampleCpu, cpuBetween } from './cpu.js';
import type { BenchRequest } from './types.js';

const rounds = Number(process.env.ROUNDS ?? 10);
const perRound = Number(process.env.PER_ROUND ?? 20);
const dbs = (process.env.DBS ?? 'bench_10k,bench_1m').split(',');
/** the server, without a database */
const server = (process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');
const appSecret = 'bench-secret-bench-secret-bench-secret-0000';

function start(url: string): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: url,
        APP_SECRET: appSecret,
        WORKERS: '0',
        LOG_LEVEL: 'warn',
        PORT: '0',
        WEB_CONCURRENCY: '1',
        SHUTDOWN_READY_DELAY_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: projectPath(),
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c;
      const m = /running on http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`exit ${code} ${out}`)));
  });
}

const servers = [];
for (const name of dbs) {
  const url = `${server}/${name}`;
  const app = await start(url);
  const baseUrl = `http://127.0.0.1:${app.port}`;
  const db = createDb(url);
  const env = {
    db,
    size: { products: 0, orders: 0 },
    baseUrl,
    async login(email: string, password: string) {
      const res = await fetch(`${baseUrl}/store-api/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.7.${Math.floor(Math.random() * 250)}.1` },
        body: JSON.stringify({ email, password }),
      });
      return ((await res.json()) as { contextToken: string }).contextToken;
    },
    adminToken: async () => '',
  };
  const { list, budgetOrders } = await orderApprovalRequests(env);
  await db.destroy();
  servers.push({
    name,
    app,
    baseUrl,
    requests: { 'order approval list': list, 'budget orders': budgetOrders } as Record<string, BenchRequest>,
    lat: {} as Record<string, number[]>,
    cpu: {} as Record<string, number>,
  });
}
async function once(baseUrl: string, r: BenchRequest): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${baseUrl}${r.path}`, {
    method: r.method,
    headers: { 'content-type': 'application/json', ...r.headers },
    body: r.body,
  });
  await res.text();
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  return performance.now() - t;
}
// warm up
for (const s of servers)
  for (const r of Object.values(s.requests)) for (let i = 0; i < 10; i++) await once(s.baseUrl, r);
for (let round = 0; round < rounds; round++)
  for (const scenario of ['order approval list', 'budget orders'])
    for (const s of round % 2 ? [...servers].reverse() : servers) {
      const before = sampleCpu(s.app.child.pid);
      for (let i = 0; i < perRound; i++) (s.lat[scenario] ??= []).push(await once(s.baseUrl, s.requests[scenario]!));
      s.cpu[scenario] = (s.cpu[scenario] ?? 0) + cpuBetween(before, sampleCpu(s.app.child.pid)).app!;
    }
const median = (xs: number[]) => {
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.floor(a.length / 2)]!;
};
for (const scenario of ['order approval list', 'budget orders']) {
  const line = servers.map(
    (s) =>
      `${s.name}: p50 ${median(s.lat[scenario]!).toFixed(2)} ms, app CPU ${((s.cpu[scenario]! * 1000) / s.lat[scenario]!.length).toFixed(2)} ms/req`,
  );
  const ratio = median(servers[1]!.lat[scenario]!) / median(servers[0]!.lat[scenario]!);
  console.log(`${scenario}: ${line.join('; ')}; ratio ${ratio.toFixed(2)}`);
}
for (const s of servers) s.app.child.kill('SIGTERM');
