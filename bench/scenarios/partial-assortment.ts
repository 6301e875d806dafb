import autocannon from 'autocannon';
import type { Knex } from 'knex';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../src/host/app.js';
import { projectPath } from '../../src/host-kit/paths.js';
import { hashPassword } from '../../src/host-kit/passwords.js';
import { newId } from '../../src/lib/ids.js';
import { writeJson } from '../../src/lib/db.js';
import { nowDb } from '../../src/lib/time.js';
import { insertInBatches, type BenchRequest, type BenchScenario } from '../types.js';
import { seedCatalog } from './catalog-cart.js';

/**
 * Partial assortments under load: the product listing of a customer who matches 2 of 1,000 rules,
 * with 50,000 product assignments on 100,000 products (every other product restricted, so a page
 * is interleaved), against the same listing before any assignment exists.
 */
export const PA_CUSTOMER = { email: 'bench-pa-buyer@bench.test', password: 'bench-pa-buyer-password', tag: 'bench-pa' };
export const PA_SIZE = { products: 100_000, rules: 1_000, assignments: 50_000 };
const RULE_PREFIX = 'Bench PA rule ';
const ASSIGNMENT_TABLE = 'suite_partial_assortment_product_rule';

export type PartialAssortmentSize = typeof PA_SIZE;

/** Rules (the first two match PA_CUSTOMER, the rest nobody) and the customer; idempotent. Products come from seedCatalog. */
export async function seedRulesAndCustomer(db: Knex, rules: number): Promise<string[]> {
  let group = await db('customer_groups').where({ name: 'Bench PA group' }).first('id');
  if (!group) {
    group = { id: newId() };
    await db('customer_groups').insert({ id: group.id, name: 'Bench PA group', created_at: nowDb() });
  }
  if (!(await db('customers').where({ email: PA_CUSTOMER.email }).first('id'))) {
    const salesChannel = await db('sales_channels').orderBy('created_at').first('id');
    await db('customers').insert({
      id: newId(),
      sales_channel_id: salesChannel.id,
      group_id: group.id,
      customer_number: 'BENCH-PA-1',
      email: PA_CUSTOMER.email,
      password_hash: await hashPassword(PA_CUSTOMER.password),
      first_name: 'Bench',
      last_name: 'Assortment',
      company: 'Bench PA Ltd',
      tags: writeJson([PA_CUSTOMER.tag]),
      active: true,
      created_at: nowDb(),
    });
  }
  const have = Number((await db('rules').where('name', 'like', `${RULE_PREFIX}%`).count({ n: '*' }))[0]!.n);
  const rows = [];
  for (let i = have; i < rules; i++) {
    const conditions =
      i === 0
        ? { type: 'customerGroup', operator: '=', value: group.id }
        : i === 1
          ? { type: 'customerTag', operator: '=', value: [PA_CUSTOMER.tag] }
          : { type: 'customerNumber', operator: '=', value: `BENCH-PA-NOBODY-${i}` };
    rows.push({
      id: newId(),
      name: `${RULE_PREFIX}${String(i).padStart(4, '0')}`,
      priority: 0,
      conditions: writeJson(conditions),
      created_at: nowDb(),
    });
  }
  await insertInBatches(db, 'rules', rows, 250);
  return (await db('rules').where('name', 'like', `${RULE_PREFIX}%`).orderBy('name').select('id')).map(
    (r) => r.id as string,
  );
}

/**
 * The data generator: `assignments` product assignments spread over `restrictedProducts` of the
 * bench products (every other one, so a listing page is interleaved); product k gets rules
 * k, k + 1, … (mod the rule count). Bulk inserts of 500 rows in one transaction; pairs that exist
 * are ignored, so it is safe to run again.
 */
export async function seedAssignments(
  db: Knex,
  ruleIds: string[],
  assignments: number,
  restrictedProducts = assignments,
): Promise<void> {
  const products = await db('products')
    .where('product_number', 'like', 'BENCH-%')
    .orderBy('product_number')
    .limit(restrictedProducts * 2)
    .select('id', 'version_id');
  const restricted = products.filter((_, i) => i % 2 === 0);
  const perProduct = Math.min(ruleIds.length, Math.ceil(assignments / Math.max(1, restricted.length)));
  const rows: Array<Record<string, unknown>> = [];
  for (let m = 0; m < perProduct; m++) {
    for (let k = 0; k < restricted.length && rows.length < assignments; k++) {
      rows.push({
        product_id: restricted[k]!.id,
        product_version_id: restricted[k]!.version_id,
        rule_id: ruleIds[(k + m) % ruleIds.length],
        created_at: nowDb(),
      });
    }
  }
  await db.transaction(async (trx) => {
    for (let i = 0; i < rows.length; i += 500)
      await trx(ASSIGNMENT_TABLE)
        .insert(rows.slice(i, i + 500))
        .onConflict(['product_id', 'rule_id'])
        .ignore();
  });
}

export async function removeAssignments(db: Knex, ruleIds: string[]): Promise<void> {
  for (let i = 0; i < ruleIds.length; i += 500)
    await db(ASSIGNMENT_TABLE)
      .whereIn('rule_id', ruleIds.slice(i, i + 500))
      .del();
}

/**
 * The two request definitions: the same listing call, measured once before the assignments exist
 * (`unfiltered`: the filter finds no product assignment and adds nothing) and once after (`filtered`).
 */
export function listingRequests(
  token: string,
  countMode?: string,
): { unfiltered: BenchRequest; filtered: BenchRequest } {
  const body = countMode ? { limit: 25, 'total-count-mode': countMode } : { limit: 25 };
  const request: BenchRequest = {
    method: 'POST',
    path: '/store-api/product',
    headers: { 'suite-context-token': token },
    body: JSON.stringify(body),
  };
  return { unfiltered: { ...request }, filtered: { ...request } };
}

/** The SQL of the filtered listing as the app runs it with more than 999 restricted products (page and count), for the bare-express baseline. */
async function filteredListingSql(db: Knex, ruleIds: string[]): Promise<Array<{ sql: string; bindings: unknown[] }>> {
  const unlocked = (await db(ASSIGNMENT_TABLE).distinct('product_id').whereIn('rule_id', ruleIds.slice(0, 2))).map(
    (r) => r.product_id as string,
  );
  const visible = `(products.id not in (select product_id from ${ASSIGNMENT_TABLE}) or products.id in (${unlocked.map(() => '?').join(', ') || 'null'}))`;
  return [
    {
      sql: `select id, version_id, product_number, name, description, stock, tax_rate_bp, price_net from products where active = ? and ${visible} order by name asc, id asc limit 25`,
      bindings: [1, ...unlocked],
    },
    { sql: `select count(*) as n from products where active = ? and ${visible}`, bindings: [1, ...unlocked] },
  ];
}

/** For `npm run bench` (bench/run.ts): the filtered listing; its baseline is the same SQL on bare express. */
export const scenarios: BenchScenario[] = [
  {
    name: 'partial assortment listing',
    async seed({ db, size }) {
      await seedCatalog(db, size.products);
      const ruleIds = await seedRulesAndCustomer(db, PA_SIZE.rules);
      await seedAssignments(db, ruleIds, Math.min(PA_SIZE.assignments, Math.floor(size.products / 2)));
    },
    async requests(env) {
      const ruleIds = (await env.db('rules').where('name', 'like', `${RULE_PREFIX}%`).orderBy('name').select('id')).map(
        (r) => r.id as string,
      );
      return {
        app: listingRequests(await env.login(PA_CUSTOMER.email, PA_CUSTOMER.password)).filtered,
        baselineSql: await filteredListingSql(env.db, ruleIds),
      };
    },
  },
];

/**
 * `npx tsx bench/scenarios/partial-assortment.ts`: filtered vs unfiltered in one run, on one app
 * process. Knobs: BENCH_PRODUCTS (100000), BENCH_PA_RESTRICTED (products carrying the assignments,
 * default one per assignment), BENCH_PA_COUNT_MODE (a `total-count-mode` for both requests), BENCH_SECONDS (8),
 * BENCH_CONNECTIONS (10), DATABASE_URL.
 */
async function compare(): Promise<void> {
  const products = Number(process.env.BENCH_PRODUCTS ?? PA_SIZE.products);
  const assignments = Math.min(PA_SIZE.assignments, Math.floor(products / 2));
  const restrictedProducts = Math.min(assignments, Number(process.env.BENCH_PA_RESTRICTED ?? assignments));
  const seconds = Number(process.env.BENCH_SECONDS ?? 8);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
  mkdirSync(projectPath('var', 'bench'), { recursive: true });
  const databaseUrl =
    process.env.DATABASE_URL ?? `sqlite:${join(projectPath('var', 'bench'), `partial-assortment-${products}.sqlite`)}`;
  const appSecret = 'bench-secret-bench-secret-bench-secret-0000';

  const seeding = await createApp({ config: { databaseUrl, appSecret, workers: false, logLevel: 'warn' } });
  const started = Date.now();
  await seedCatalog(seeding.db, products);
  const ruleIds = await seedRulesAndCustomer(seeding.db, PA_SIZE.rules);
  await removeAssignments(seeding.db, ruleIds);
  await seeding.runtime.catalog.visibilityChanged(seeding.db);
  process.stdout.write(
    `seeded ${products} products, ${ruleIds.length} rules in ${((Date.now() - started) / 1000).toFixed(1)}s (${databaseUrl.split(':')[0]})\n`,
  );

  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    APP_SECRET: appSecret,
    WORKERS: '0',
    LOG_LEVEL: 'warn',
    PORT: '0',
  };
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: projectPath(),
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let output = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /running on http:\/\/localhost:(\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      server.on('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.status === 204 ? null : ((await res.json()) as Record<string, unknown>);
    };
    const token = String(
      (await post('/store-api/account/login', { email: PA_CUSTOMER.email, password: PA_CUSTOMER.password }))!
        .contextToken,
    );
    const requests = listingRequests(token, process.env.BENCH_PA_COUNT_MODE);
    const fire = async (request: BenchRequest) => {
      const result = await autocannon({
        url: `${baseUrl}${request.path}`,
        connections,
        duration: seconds,
        method: request.method,
        headers: { 'content-type': 'application/json', ...request.headers },
        body: request.body,
      });
      return {
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx,
      };
    };
    const totalOf = async () =>
      Number((await post('/store-api/product', { limit: 1 }, { 'suite-context-token': token }))!.total);

    const unfilteredTotal = await totalOf();
    const unfiltered = await fire(requests.unfiltered);
    const seedStarted = Date.now();
    await seedAssignments(seeding.db, ruleIds, assignments, restrictedProducts);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    // A bulk import bumps the visibility version once, as the Admin API does per change.
    await seeding.runtime.catalog.visibilityChanged(seeding.db);
    const filteredTotal = await totalOf();
    const filtered = await fire(requests.filtered);

    const count = Number((await seeding.db(ASSIGNMENT_TABLE).count({ n: '*' }))[0]!.n);
    process.stdout.write(
      [
        `assignments: ${count} on ${restrictedProducts} products (seeded in ${seedSeconds.toFixed(1)}s); the customer sees ${filteredTotal} of ${unfilteredTotal} products`,
        `${seconds}s x ${connections} connections, POST /store-api/product ${requests.filtered.body}`,
        `unfiltered: ${unfiltered.rps.toFixed(0)} req/s, p50 ${unfiltered.p50} ms, p99 ${unfiltered.p99} ms, errors ${unfiltered.errors}`,
        `filtered:   ${filtered.rps.toFixed(0)} req/s, p50 ${filtered.p50} ms, p99 ${filtered.p99} ms, errors ${filtered.errors}`,
        `ratio filtered / unfiltered: ${(filtered.rps / unfiltered.rps).toFixed(2)} (goal >= 0.80)`,
      ].join('\n') + '\n',
    );
  } finally {
    server.kill('SIGTERM');
    await seeding.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  compare().catch((error: unknown) => {
    process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
    process.exit(1);
  });
}
