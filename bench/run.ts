import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createApp } from '../src/host/app.js';
import { projectPath } from '../src/host-kit/paths.js';
import { createServer } from 'node:net';
import { cpuBetween, sampleCpu, type CpuSample } from './cpu.js';
import { fireAt, fireInRounds, ratioOfRounds, startProcess, type RoundFigures } from './load.js';
import { summarise } from './profile-summary.js';
import { DEFAULT_DB_TIMEOUTS } from '../src/lib/db.js';
import type { BenchEnv, BenchRequest, BenchScenario, VendureBenchEnv, VendureComparison } from './types.js';

/**
 * npm run bench: seeds a bench database, starts the app and a bare express baseline as separate
 * processes, and runs autocannon per scenario. Knobs: BENCH_PRODUCTS (default 10000, up to
 * 100000), BENCH_ORDERS (default 10000, up to 1000000), BENCH_SECONDS (default 8), BENCH_ROUNDS (default 4),
 * BENCH_CONNECTIONS (default 10), BENCH_ONLY (comma-separated scenario names), BENCH_PROCESSES
 * (process counts to compare on product listing), DATABASE_URL. The table is also written as JSON
 * to var/bench/last.json, so runs can be compared.
 */
const HELP = `Usage: npm run bench [-- --help]

Seeds a bench database, starts the app and a bare express baseline as separate processes and runs
autocannon per scenario; prints req/s, p50 and p99 and the ratios to /health and to the bare route.
The bare route answers the scenario's own request (method, headers, JSON body read with
express.json()) with the scenario's SQL; the app and the bare routes take turns in rounds; "vs bare GET" is the ratio to the same SQL behind a
plain GET without a body (the first rounds' baseline). The app runs as one process (WEB_CONCURRENCY=1), like the bare route. The table is also written
as JSON to var/bench/last.json.

Knobs (environment variables):
  BENCH_PRODUCTS     products in the bench catalog (default 10000, at most 100000)
  BENCH_ORDERS       approvals and budget orders of the bench company (default 10000, at most 1000000)
  BENCH_SECONDS      measured seconds per scenario and side (default 8)
  BENCH_ROUNDS       rounds those seconds are split into (default 4): the app, the bare route and the
                     bare GET take turns, the order flipped every round, after 2 s unmeasured each;
                     each "vs" ratio is the median of the rounds' ratios
  BENCH_CONNECTIONS  concurrent connections (default 10)
  BENCH_ONLY         comma-separated scenario names to run (default: all)
  BENCH_CART_BUYERS  buyers the cart add scenario adds for in turn, each to a cart of its own (default 10)
  BENCH_PROCESSES    e.g. "1,2": instead of the table, product listing on the app started with each
                     of these WEB_CONCURRENCY values (after 3 s unmeasured), each one's req/s ratio
                     to the first, and the CPU the app, the database and autocannon used
                     (more than 1 needs MySQL/MariaDB)
  DATABASE_URL       database to seed and run against (default: sqlite:var/bench/bench-<products>-<orders>.sqlite, reused)
  BENCH_CPU_PROF     a folder: the app runs with --cpu-prof and its profile is written there and
                     summarised after the table (self time by area and by function; one scenario
                     per run gives a profile of that scenario alone)

Scenarios named "vendure …" also start the example Vendure shop (examples/vendure-shop, its own
database: var/bench/vendure-shop.sqlite, or <DATABASE_URL's database>_vendure on MySQL/MariaDB,
seeded on first start) and fire the same plugin route at it: "Vendure req/s" and "Vendure vs
reference" (its req/s over the reference host's, same run). The Vendure comparisons
run inside that shop only, the two sides in alternating rounds: the plugin's add-to-cart against
Vendure's own addItemToOrder, Shop API products and search with a partial assortment against without.

Example: BENCH_ONLY="product listing,cart add" BENCH_SECONDS=5 npm run bench
         BENCH_ONLY="vendure add-to-cart: plugin route vs addItemToOrder" npm run bench
         DATABASE_URL=mysql://root@127.0.0.1:3306/bench BENCH_PROCESSES=1,2 npm run bench
`;

const args = process.argv.slice(2);
const wantsHelp = args.includes('--help') || args.includes('-h');
const unknownArgs = args.filter((arg) => arg !== '--help' && arg !== '-h');

const size = {
  products: Math.min(Number(process.env.BENCH_PRODUCTS ?? 10000), 100000),
  orders: Math.min(Number(process.env.BENCH_ORDERS ?? 10000), 1000000),
};
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
/** Measured rounds per side of a scenario, BENCH_SECONDS ÷ rounds seconds each. */
const rounds = Math.max(1, Math.round(Number(process.env.BENCH_ROUNDS ?? 4)));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Seconds of unmeasured requests to each app (BENCH_PROCESSES) and to each side of a scenario before its measured runs. */
const WARMUP_SECONDS = 3;
const SCENARIO_WARMUP_SECONDS = 2;
const processCounts = process.env.BENCH_PROCESSES?.split(',').map((s) => Number(s.trim()));
if (processCounts && processCounts.some((count) => !Number.isInteger(count) || count < 1))
  throw new Error(`BENCH_PROCESSES must be whole numbers ≥ 1, comma-separated (got "${process.env.BENCH_PROCESSES}")`);
/** The process-count mode measures product listing only. */
const only = processCounts ? ['product listing'] : process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const benchDir = projectPath('var', 'bench');
if (!wantsHelp && unknownArgs.length === 0) mkdirSync(benchDir, { recursive: true });
const databaseUrl =
  process.env.DATABASE_URL ?? `sqlite:${join(benchDir, `bench-${size.products}-${size.orders}.sqlite`)}`;
const appSecret = 'bench-secret-bench-secret-bench-secret-0000';

const cpuProfileDir = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;

const fire = (url: string, request: BenchRequest, duration = seconds, server?: ChildProcess) =>
  fireAt(url, request, { duration, connections, server });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The example Vendure shop's database beside the bench database. */
function vendureDatabaseUrl(): string {
  if (databaseUrl.startsWith('sqlite:')) return `sqlite:${join(benchDir, 'vendure-shop.sqlite')}`;
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  url.pathname = `${url.pathname.replace(/^\//, '') || 'bench'}_vendure`;
  return url.toString();
}

/** Starts the example Vendure shop (seeded on its first start) for the scenarios that measure the plugin inside Vendure. */
async function startVendure(): Promise<{ child: ChildProcess; env: VendureBenchEnv }> {
  const started = Date.now();
  const shop = await startProcess(
    ['--conditions=suite-b2b-source', 'examples/vendure-shop/start.ts'],
    { DATABASE_URL: vendureDatabaseUrl(), PORT: String(await freePort()) },
    /Vendure Shop API:\s+http:\/\/localhost:(\d+)/,
  );
  process.stdout.write(`  started the example Vendure shop in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
  const baseUrl = `http://127.0.0.1:${shop.port}`;
  const login = async (api: 'shop-api' | 'admin-api', username: string, password: string) => {
    const res = await fetch(`${baseUrl}/${api}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation ($u: String!, $p: String!) { login(username: $u, password: $p) { __typename } }',
        variables: { u: username, p: password },
      }),
    });
    const token = res.headers.get('vendure-auth-token');
    if (!token) throw new Error(`bench: Vendure login of ${username} failed: ${await res.text()}`);
    return token;
  };
  return {
    child: shop.child,
    env: {
      baseUrl,
      login: (email, password) => login('shop-api', email, password),
      // The example shop's superadmin (examples/vendure-shop/vendure-config.ts).
      adminLogin: () =>
        login(
          'admin-api',
          process.env.SUPERADMIN_USERNAME ?? 'superadmin',
          process.env.SUPERADMIN_PASSWORD ?? 'superadmin',
        ),
    },
  };
}

async function loadScenarios(): Promise<BenchScenario[]> {
  const folder = projectPath('bench', 'scenarios');
  const scenarios: BenchScenario[] = [];
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const module = (await import(pathToFileURL(join(folder, file)).href)) as { scenarios?: BenchScenario[] };
    scenarios.push(...(module.scenarios ?? []));
  }
  return scenarios.filter((s) => !only || only.includes(s.name));
}

async function loadVendureComparisons(): Promise<VendureComparison[]> {
  const { vendureComparisons } = await import('./scenarios/vendure.js');
  return vendureComparisons.filter((c) => !only || only.includes(c.name));
}

/** The Vendure comparisons: both sides against the example shop, in alternating rounds; the ratio is the median of the rounds'. */
async function runVendureComparisons(
  comparisons: VendureComparison[],
  vendure: { child: ChildProcess; env: VendureBenchEnv },
): Promise<object[]> {
  const results = [];
  for (const comparison of comparisons) {
    const { measured, against } = await comparison.sides(vendure.env);
    const side = (s: typeof measured) => ({
      url: `${vendure.env.baseUrl}${s.request.path}`,
      request: s.request,
      server: vendure.child,
      before: s.before,
    });
    const [m, a] = (await fireInRounds([side(measured), side(against)], {
      rounds,
      seconds: seconds / rounds,
      warmupSeconds: SCENARIO_WARMUP_SECONDS,
      connections,
    })) as [RoundFigures, RoundFigures];
    for (const [label, { errorKinds }] of [
      [measured.label, m],
      [against.label, a],
    ] as const)
      if (errorKinds) process.stdout.write(`  ${comparison.name}, ${label}: ${errorKinds}\n`);
    results.push({
      comparison: comparison.name,
      measured: { label: measured.label, ...m },
      against: { label: against.label, ...a },
      ratio: ratioOfRounds(m, a),
      target: comparison.target,
    });
  }
  const rows = [
    [
      'comparison',
      'measured',
      'req/s',
      'p50 ms',
      'CPU ms/req',
      'errors',
      'against',
      'req/s',
      'p50 ms',
      'CPU ms/req',
      'errors',
      'ratio',
      'target',
    ],
  ];
  const ms = (value: number | null) => (value === null ? '' : value.toFixed(2));
  for (const r of results as Array<{
    comparison: string;
    measured: RoundFigures & { label: string };
    against: RoundFigures & { label: string };
    ratio: number;
    target: number;
  }>)
    rows.push([
      r.comparison,
      r.measured.label,
      r.measured.rps.toFixed(0),
      String(r.measured.p50),
      ms(r.measured.cpuMsPerRequest),
      String(r.measured.errors),
      r.against.label,
      r.against.rps.toFixed(0),
      String(r.against.p50),
      ms(r.against.cpuMsPerRequest),
      String(r.against.errors),
      r.ratio.toFixed(2),
      `≥ ${r.target}`,
    ]);
  printTable(rows);
  return results;
}

async function main(): Promise<void> {
  if (wantsHelp || unknownArgs.length > 0) {
    if (unknownArgs.length > 0 && !wantsHelp)
      process.stderr.write(
        `bench: unknown argument ${unknownArgs.join(' ')} (the knobs are environment variables)\n\n`,
      );
    const names = [...(await loadScenarios()), ...(await loadVendureComparisons())].map((scenario) => scenario.name);
    (wantsHelp ? process.stdout : process.stderr).write(`${HELP}\nScenarios: ${names.join(', ')}\n`);
    process.exitCode = wantsHelp ? 0 : 2;
    return;
  }
  const scenarios = await loadScenarios();
  const comparisons = await loadVendureComparisons();
  if (scenarios.length === 0 && comparisons.length > 0) {
    // Only Vendure comparisons: the reference host is not needed.
    const vendure = await startVendure();
    try {
      const results = await runVendureComparisons(comparisons, vendure);
      writeSummary({
        at: new Date().toISOString(),
        database: databaseUrl.split(':')[0],
        seconds,
        connections,
        vendureComparisons: results,
      });
    } finally {
      vendure.child.kill('SIGTERM');
    }
    return;
  }
  process.stdout.write(
    `bench: ${size.products} products, ${size.orders} orders, ${seconds}s × ${connections} connections per scenario, ${databaseUrl.split(':')[0]}\n`,
  );
  // Seeding writes up to a million rows a statement at a time (bench/scenarios/order-approval.ts): on
  // MySQL/MariaDB without the request statement bounds, which would abandon such a statement after 4 s.
  const seedTimeouts = databaseUrl.startsWith('sqlite:') ? undefined : { ...DEFAULT_DB_TIMEOUTS, statementMs: 0 };
  const seedShop = await createApp({
    config: { databaseUrl, appSecret, workers: false, logLevel: 'warn', dbTimeouts: seedTimeouts },
  });
  for (const scenario of scenarios) {
    const started = Date.now();
    await scenario.seed({ db: seedShop.db, size });
    process.stdout.write(`  seeded ${scenario.name} in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
  }
  await seedShop.close();

  const env = {
    DATABASE_URL: databaseUrl,
    APP_SECRET: appSecret,
    WORKERS: '0',
    LOG_LEVEL: 'warn',
    PORT: '0',
    ADMIN_CLIENT_ID: 'bench',
    ADMIN_CLIENT_SECRET: 'bench-secret-0123456789',
    WEB_CONCURRENCY: '1',
    SHUTDOWN_READY_DELAY_MS: '0',
  };
  const profileFlags = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
  const startApp = (processes: number) =>
    startProcess(
      [...profileFlags, 'src/server.ts'],
      { ...env, WEB_CONCURRENCY: String(processes) },
      /running on http:\/\/localhost:(\d+)/,
    );
  const appStarted = Date.now();
  const app = await startApp(1);
  const baseUrl = `http://127.0.0.1:${app.port}`;
  const benchEnv: BenchEnv = {
    db: null as never,
    size,
    baseUrl,
    async login(email, password) {
      const res = await fetch(`${baseUrl}/store-api/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.1` },
        body: JSON.stringify({ email, password }),
      });
      if (!res.ok) throw new Error(`bench login failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { contextToken: string }).contextToken;
    },
    async adminToken() {
      const res = await fetch(`${baseUrl}/api/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: 'bench',
          client_secret: 'bench-secret-0123456789',
        }),
      });
      return ((await res.json()) as { access_token: string }).access_token;
    },
  };
  const { createDb } = await import('../src/lib/db.js');
  benchEnv.db = createDb(databaseUrl);
  const vendure =
    scenarios.some((scenario) => scenario.vendure) || comparisons.length > 0 ? await startVendure() : null;
  const plans = [];
  for (const scenario of scenarios)
    plans.push({
      scenario,
      ...(await scenario.requests(benchEnv)),
      vendure: vendure && scenario.vendure ? await scenario.vendure(vendure.env) : null,
    });
  await benchEnv.db.destroy();
  const sqlFile = join(benchDir, 'baseline-sql.json');
  writeFileSync(sqlFile, JSON.stringify(Object.fromEntries(plans.map((p) => [p.scenario.name, p.baselineSql]))));
  const baseline = await startProcess(
    ['bench/baseline-server.ts'],
    { ...env, BENCH_SQL_FILE: sqlFile },
    /listening (\d+)/,
  );

  const summary = { at: new Date().toISOString(), database: databaseUrl.split(':')[0], size, seconds, connections };
  if (processCounts) {
    await runProcessCounts(processCounts, plans[0]!.app, app, startApp, summary);
    baseline.child.kill('SIGTERM');
    vendure?.child.kill('SIGTERM');
    return;
  }

  // Profiling: the app's profile should hold the scenarios only, so /health is not fired (no "vs /health").
  const firstFireAfterMs = Date.now() - appStarted;
  const health = cpuProfileDir ? null : await fire(`${baseUrl}/health`, { method: 'GET', path: '/health' });
  type VendureFigures = { rps: number; p50: number; p99: number; errors: number; vsReference: number };
  type Row = {
    scenario: string;
    rps: number;
    p50: number;
    p99: number;
    errors: number;
    bareSqlRps: number | null;
    vsHealth: number | null;
    vsBareSql: number | null;
    bareGetRps: number | null;
    vsBareGet: number | null;
  };
  type CpuFigures = { cpuMsPerRequest: number | null; bareCpuMsPerRequest: number | null; cpuVsBareSql: number | null };
  const scenarioRows: Array<
    Row &
      CpuFigures & {
        rounds?: { app: number[]; bareSql: number[]; bareGet: number[] | null };
        vendure: VendureFigures | null;
      }
  > = [];
  if (health)
    scenarioRows.push({
      scenario: '/health (baseline)',
      ...health,
      bareSqlRps: null,
      vsHealth: 1,
      vsBareSql: null,
      bareGetRps: null,
      vsBareGet: null,
      bareCpuMsPerRequest: null,
      cpuVsBareSql: null,
      vendure: null,
    });
  for (const plan of plans) {
    // The app, the bare route with the app's own request (method, headers, body) and, for a request
    // with a body, the same SQL behind a plain GET (the first rounds' baseline, whose ratio counts the
    // body's reading against the app): in alternating rounds, each ratio the median of its rounds'.
    const withBody = plan.app.method !== 'GET' || plan.app.body !== undefined || plan.app.bodies !== undefined;
    const figures = await fireInRounds(
      [
        { url: `${baseUrl}${plan.app.path}`, request: plan.app, server: app.child },
        {
          url: `http://127.0.0.1:${baseline.port}/sql/${plan.scenario.name}`,
          request: { ...plan.app, path: '' },
          server: baseline.child,
        },
        ...(withBody
          ? [
              {
                url: `http://127.0.0.1:${baseline.port}/get/${plan.scenario.name}`,
                request: { method: 'GET', path: '' } as BenchRequest,
                server: baseline.child,
              },
            ]
          : []),
      ],
      { rounds, seconds: seconds / rounds, warmupSeconds: SCENARIO_WARMUP_SECONDS, connections },
    );
    const [measured, bare] = figures as [RoundFigures, RoundFigures];
    const bareGet = figures[2] ?? bare;
    for (const [side, { errorKinds }] of [
      ['app', measured],
      ['bare route', bare],
    ] as const)
      if (errorKinds) process.stdout.write(`  ${plan.scenario.name}, ${side}: ${errorKinds}\n`);
    const inVendure =
      plan.vendure && vendure ? await fire(`${vendure.env.baseUrl}${plan.vendure.path}`, plan.vendure) : null;
    scenarioRows.push({
      scenario: plan.scenario.name,
      rps: measured.rps,
      p50: measured.p50,
      p99: measured.p99,
      errors: measured.errors,
      cpuMsPerRequest: measured.cpuMsPerRequest,
      rounds: { app: measured.rounds, bareSql: bare.rounds, bareGet: withBody ? bareGet.rounds : null },
      bareSqlRps: bare.rps,
      vsHealth: health ? measured.rps / health.rps : null,
      vsBareSql: ratioOfRounds(measured, bare),
      bareGetRps: bareGet.rps,
      vsBareGet: ratioOfRounds(measured, bareGet),
      bareCpuMsPerRequest: bare.cpuMsPerRequest,
      cpuVsBareSql:
        measured.cpuMsPerRequest && bare.cpuMsPerRequest ? bare.cpuMsPerRequest / measured.cpuMsPerRequest : null,
      vendure: inVendure ? { ...inVendure, vsReference: inVendure.rps / measured.rps } : null,
    });
  }
  await stopProcess(app.child);
  baseline.child.kill('SIGTERM');
  const comparisonResults = vendure && comparisons.length > 0 ? await runVendureComparisons(comparisons, vendure) : [];
  vendure?.child.kill('SIGTERM');
  const header = [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'bare SQL req/s',
    'vs /health',
    'vs bare SQL',
    'CPU ms/req',
    'bare CPU ms/req',
    'CPU vs bare SQL',
    'bare GET req/s',
    'vs bare GET',
  ];
  const ms = (value: number | null, digits = 3) => (value === null ? '' : value.toFixed(digits));
  const rows: string[][] = [
    vendure ? [...header, 'Vendure req/s', 'Vendure p50 ms', 'Vendure errors', 'Vendure vs reference'] : header,
  ];
  for (const row of scenarioRows) {
    const cells = [
      row.scenario,
      row.rps.toFixed(0),
      String(row.p50),
      String(row.p99),
      String(row.errors),
      row.bareSqlRps === null ? '' : row.bareSqlRps.toFixed(0),
      row.vsHealth === null ? '' : row.vsHealth.toFixed(2),
      row.vsBareSql === null ? '' : row.vsBareSql.toFixed(2),
      ms(row.cpuMsPerRequest),
      ms(row.bareCpuMsPerRequest),
      ms(row.cpuVsBareSql, 2),
      row.bareGetRps === null ? '' : row.bareGetRps.toFixed(0),
      row.vsBareGet === null ? '' : row.vsBareGet.toFixed(2),
    ];
    if (vendure)
      cells.push(
        ...(row.vendure
          ? [
              row.vendure.rps.toFixed(0),
              String(row.vendure.p50),
              String(row.vendure.errors),
              row.vendure.vsReference.toFixed(2),
            ]
          : ['', '', '', '']),
      );
    rows.push(cells);
  }
  printTable(rows);
  writeSummary({ ...summary, scenarios: scenarioRows, vendureComparisons: comparisonResults });
  if (cpuProfileDir) printProfile(cpuProfileDir, app.child.pid, firstFireAfterMs);
}

/** The app's profile (its file name carries the pid), summarised. */
function printProfile(folder: string, pid: number | undefined, skipMs: number): void {
  const file = readdirSync(folder).find((name) => name.endsWith('.cpuprofile') && name.includes(`.${pid}.`));
  if (!file) return void process.stdout.write(`no profile of process ${pid} in ${folder}\n`);
  process.stdout.write(
    `\nprofile of the app from the first request on (${join(folder, file)}):\n${summarise(JSON.parse(readFileSync(join(folder, file), 'utf8')) as Parameters<typeof summarise>[0], 30, skipMs)}\n`,
  );
}

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  process.stdout.write(`\n${rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n')}\n`);
}

function writeSummary(summary: object): void {
  const file = join(benchDir, 'last.json');
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`(also written to ${file})\n`);
}

/** BENCH_PROCESSES: the same product listing request against the app started with each process count in turn. */
async function runProcessCounts(
  counts: number[],
  request: BenchRequest,
  firstApp: { child: ChildProcess; port: number },
  startApp: (processes: number) => Promise<{ child: ChildProcess; port: number }>,
  summary: object,
): Promise<void> {
  await stopProcess(firstApp.child);
  const measured: Array<{
    processes: number;
    rps: number;
    p50: number;
    p99: number;
    errors: number;
    vsFirst: number;
    cpu: CpuSample;
  }> = [];
  for (const processes of counts) {
    const app = await startApp(processes);
    // Unmeasured first: each process compiles its hot paths on its first requests, and two processes
    // do it twice (at 8 s per run that doubled the app's CPU per request of the second run).
    await fire(`http://127.0.0.1:${app.port}${request.path}`, request, WARMUP_SECONDS);
    // The CPU each side used while autocannon fired: on a small machine the load generator and the
    // database share the cores with the app, which bounds what more processes can add.
    const before = sampleCpu(app.child.pid);
    const result = await fire(`http://127.0.0.1:${app.port}${request.path}`, request);
    const cpu = cpuBetween(before, sampleCpu(app.child.pid));
    measured.push({ processes, ...result, vsFirst: measured.length === 0 ? 1 : result.rps / measured[0]!.rps, cpu });
    await stopProcess(app.child);
  }
  const cores = (value: number | null) => (value === null ? '' : (value / seconds).toFixed(2));
  const perRequest = (value: number | null, rps: number) =>
    value === null || rps === 0 ? '' : ((value * 1000) / (rps * seconds)).toFixed(2);
  const rows = [
    [
      'product listing, processes',
      'req/s',
      'p50 ms',
      'p99 ms',
      'errors',
      `vs ${counts[0]} process(es)`,
      'CPU cores: app',
      'database',
      'autocannon',
      'CPU ms/request: app',
      'database',
      'autocannon',
    ],
  ];
  for (const row of measured)
    rows.push([
      String(row.processes),
      row.rps.toFixed(0),
      String(row.p50),
      String(row.p99),
      String(row.errors),
      row.vsFirst.toFixed(2),
      cores(row.cpu.app),
      cores(row.cpu.database),
      cores(row.cpu.loadGenerator),
      perRequest(row.cpu.app, row.rps),
      perRequest(row.cpu.database, row.rps),
      perRequest(row.cpu.loadGenerator, row.rps),
    ]);
  printTable(rows);
  process.stdout.write(
    `(CPU: seconds used while autocannon fired ÷ ${seconds}s, from /proc; the database only when it runs on this machine; ${availableParallelism()} cores)\n`,
  );
  writeSummary({ ...summary, processes: measured });
}

/** SIGTERM and wait for the exit, so the next run does not share the cores with a draining one. */
function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
  process.exit(1);
});
