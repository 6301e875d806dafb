/**
 * Two checkouts side by side (not part of `npm run bench`): the app of this checkout ("a") and of
 * another ("b", e.g. a worktree of an older commit) on copies of one bench database, autocannon
 * rounds alternating between them per scenario, so load from other work on the machine hits both
 * alike. Prints per scenario the median req/s and app CPU ms per request of each side and b ÷ a.
 *
 *   npm run bench                                   # once: seeds var/bench/bench-10000-10000.sqlite
 *   npx tsx bench/ab.ts ../other-checkout "cart add,product listing"
 *
 * Knobs: AB_ROUNDS (6 per side), AB_SECONDS (3 per round), BENCH_CONNECTIONS (10); AB_DB (the SQLite
 * file copied for both, default this checkout's 10k bench database: both checkouts must know its
 * migrations), or DATABASE_URL_A and DATABASE_URL_B (e.g. two MySQL/MariaDB bench databases).
 */
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { projectPath } from '../src/host-kit/paths.js';
import { fireAt, median, startProcess } from './load.js';
import type { BenchEnv, BenchRequest, BenchScenario } from './types.js';

const [otherArg, onlyArg] = process.argv.slice(2);
if (!otherArg) throw new Error('usage: npx tsx bench/ab.ts <other checkout> [scenario,scenario…]');
const otherCheckout: string = otherArg;
const rounds = Number(process.env.AB_ROUNDS ?? 6);
const roundSeconds = Number(process.env.AB_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const only = onlyArg?.split(',').map((name) => name.trim());
const appSecret = 'bench-secret-bench-secret-bench-secret-0000';

function databases(): [string, string] {
  if (process.env.DATABASE_URL_A && process.env.DATABASE_URL_B)
    return [process.env.DATABASE_URL_A, process.env.DATABASE_URL_B];
  const source = process.env.AB_DB ?? projectPath('var', 'bench', 'bench-10000-10000.sqlite');
  if (!existsSync(source)) throw new Error(`${source} is missing: run npm run bench once first`);
  return (['a', 'b'] as const).map((side) => {
    const copy = projectPath('var', 'bench', `ab-${side}.sqlite`);
    copyFileSync(source, copy);
    return `sqlite:${copy}`;
  }) as [string, string];
}

interface Side {
  name: 'a' | 'b';
  child: ChildProcess;
  baseUrl: string;
  env: BenchEnv;
}

async function startSide(name: Side['name'], checkout: string, databaseUrl: string): Promise<Side> {
  const env = {
    DATABASE_URL: databaseUrl,
    APP_SECRET: appSecret,
    WORKERS: '0',
    LOG_LEVEL: 'warn',
    PORT: '0',
    WEB_CONCURRENCY: '1',
    SHUTDOWN_READY_DELAY_MS: '0',
  };
  const { child, port } = await startProcess(['src/server.ts'], env, /running on http:\/\/localhost:(\d+)/, checkout);
  const baseUrl = `http://127.0.0.1:${port}`;
  const { createDb } = await import('../src/lib/db.js');
  const benchEnv: BenchEnv = {
    db: createDb(databaseUrl),
    size: { products: 10000, orders: 10000 },
    baseUrl,
    async login(email, password) {
      const res = await fetch(`${baseUrl}/store-api/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.8.${Math.floor(Math.random() * 250)}.1` },
        body: JSON.stringify({ email, password }),
      });
      if (!res.ok) throw new Error(`login on ${name} failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { contextToken: string }).contextToken;
    },
    adminToken: () => Promise.reject(new Error('bench/ab.ts has no admin token')),
  };
  return { name, child, baseUrl, env: benchEnv };
}

async function main(): Promise<void> {
  const folder = projectPath('bench', 'scenarios');
  const scenarios: BenchScenario[] = [];
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith('.ts'))
    .sort())
    scenarios.push(
      ...(((await import(pathToFileURL(join(folder, file)).href)) as { scenarios?: BenchScenario[] }).scenarios ?? []),
    );
  const chosen = scenarios.filter((s) => !s.name.startsWith('vendure') && (!only || only.includes(s.name)));
  const [urlA, urlB] = databases();
  const sides = [await startSide('a', projectPath(), urlA), await startSide('b', resolve(otherCheckout), urlB)];
  process.stdout.write(
    `a = ${projectPath()}, b = ${resolve(otherCheckout)}; ${rounds} rounds × ${roundSeconds}s per side, ${connections} connections\n\n`,
  );
  const table = [['scenario', 'req/s a', 'req/s b', 'b ÷ a', 'CPU ms/req a', 'CPU ms/req b', 'b ÷ a']];
  try {
    for (const scenario of chosen) {
      const requests = new Map<Side, BenchRequest>();
      for (const side of sides) requests.set(side, (await scenario.requests(side.env)).app);
      const figures = new Map<Side, { rps: number[]; cpu: number[] }>(
        sides.map((side) => [side, { rps: [], cpu: [] }]),
      );
      for (const side of sides)
        await fireAt(`${side.baseUrl}${requests.get(side)!.path}`, requests.get(side)!, { duration: 1, connections });
      for (let round = 0; round < rounds; round++) {
        for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
          const result = await fireAt(`${side.baseUrl}${requests.get(side)!.path}`, requests.get(side)!, {
            duration: roundSeconds,
            connections,
            server: side.child,
          });
          if (result.errors > 0)
            process.stdout.write(`  ${scenario.name}, ${side.name}: ${result.errors} errors in round ${round + 1}\n`);
          figures.get(side)!.rps.push(result.rps);
          if (result.cpuMsPerRequest !== null) figures.get(side)!.cpu.push(result.cpuMsPerRequest);
        }
      }
      const [a, b] = sides.map((side) => ({
        rps: median(figures.get(side)!.rps),
        cpu: median(figures.get(side)!.cpu),
      }));
      table.push([
        scenario.name,
        a!.rps.toFixed(0),
        b!.rps.toFixed(0),
        (b!.rps / a!.rps).toFixed(2),
        a!.cpu.toFixed(3),
        b!.cpu.toFixed(3),
        (b!.cpu / a!.cpu).toFixed(2),
      ]);
      process.stdout.write(`${table.at(-1)!.join('  ')}\n`);
    }
  } finally {
    for (const side of sides) {
      side.child.kill('SIGTERM');
      await side.env.db.destroy();
    }
  }
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  process.stdout.write(
    `\n${table.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')).join('\n')}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench/ab.ts failed: ${String(error)}\n`);
  process.exit(1);
});
