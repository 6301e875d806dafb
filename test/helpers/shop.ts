import { MAIL_SEND_JOB } from '../../src/lib/mail-outbox.js';
import supertest from 'supertest';
import { randomInt } from 'node:crypto';
import { createApp, type ShopApp } from '../../src/host/app.js';
import { newId, newSecret } from '../../src/lib/ids.js';
import { nowDb, nowMs } from '../../src/lib/time.js';
import { DEFAULT_DB_TIMEOUTS } from '../../src/lib/db.js';
import { hashPassword } from '../../src/host-kit/passwords.js';
import { insertCustomer } from '../../src/host/customer/customer-repository.js';
import type { CustomerRef } from '../../src/contract/index.js';
import { cleanupTestDatabase, CONCURRENCY_STATEMENT_MS, prepareTestDatabase } from './database.js';
import { rememberBaseline } from './config-guard.js';
import { startSmtp, type TestMailbox } from './smtp.js';

export const TEST_APP_SECRET = 'test-secret-test-secret-test-secret-0123456789';

let shopPromise: Promise<ShopApp> | null = null;
let databaseUrl: string | null = null;
let mailbox: TestMailbox | null = null;

export async function testDatabaseUrl(): Promise<string> {
  databaseUrl ??= await prepareTestDatabase();
  return databaseUrl;
}

/** One app per test run, on a fresh database; every test makes its own data, so none depends on another. */
export function getShop(): Promise<ShopApp> {
  shopPromise ??= (async () => {
    // One real SMTP server on loopback for the whole run; TEST_MAILER_URL points elsewhere instead.
    if (!process.env.TEST_MAILER_URL) mailbox ??= await startSmtp();
    const app = await createApp({
      config: {
        databaseUrl: await testDatabaseUrl(),
        appSecret: TEST_APP_SECRET,
        publicUrl: 'http://shop.test',
        logLevel: process.env.LOG_LEVEL ?? 'silent',
        workers: false,
        validateResponses: true,
        // Tests insert products straight into the tables, which no cache could notice.
        listingTotalCacheSeconds: 0,
        dbTimeouts: { ...DEFAULT_DB_TIMEOUTS, statementMs: CONCURRENCY_STATEMENT_MS },
        mailerUrl: process.env.TEST_MAILER_URL ?? mailbox!.url,
      },
    });
    await rememberBaseline(app);
    return app;
  })();
  return shopPromise;
}

/** The shared app if a test of this process has started it, else null (starts nothing). */
export function startedShop(): Promise<ShopApp> | null {
  return shopPromise;
}

/** The SMTP server the shared app sends to: every mail it delivered, parsed. */
export async function testMailbox(): Promise<TestMailbox> {
  await getShop();
  if (!mailbox) throw new Error('TEST_MAILER_URL is set: mail goes to that server, not to the test mailbox');
  return mailbox;
}

/** Runs the jobs once (the 'mail.send' job among them), so queued mails reach the test mailbox. */
/**
 * Runs the queued jobs and the mail sender, no other schedule: reminders, expiry and recurring
 * orders run only in the tests that ask for them (`{ schedules: 'all' }`).
 */
export async function deliverMail(options: { schedules?: 'all' | 'mail' } = {}): Promise<void> {
  const shop = await getShop();
  await shop.jobs.runDue(options.schedules === 'all' ? {} : { only: [MAIL_SEND_JOB] });
}

export async function closeShop(): Promise<void> {
  if (!shopPromise) return;
  const shop = await shopPromise;
  await shop.close();
  shopPromise = null;
  await mailbox?.stop();
  mailbox = null;
  if (databaseUrl) await cleanupTestDatabase(databaseUrl);
}

export function isMysql(): boolean {
  return /^(mysql|mariadb):/.test(process.env.DATABASE_URL ?? '');
}

export function isPostgres(): boolean {
  return /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? '');
}

/** A database server (MySQL/MariaDB or PostgreSQL): many connections, row locks; SQLite serialises every writer. */
export function isServerDb(): boolean {
  return isMysql() || isPostgres();
}

/**
 * A client. Each agent comes from its own address (X-Forwarded-For, trusted from loopback), as real
 * clients do, so per-IP rate limits apply per agent and not to the whole test run.
 */
export async function http(): Promise<supertest.Agent> {
  return supertest.agent((await getShop()).app).set('x-forwarded-for', clientAddress());
}

/** A random private address for one test client (see `http`). */
export const clientAddress = (): string => `10.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`;

export async function defaultSalesChannelId(shop: ShopApp): Promise<string> {
  return (await shop.db('sales_channels').orderBy('created_at').first('id')).id;
}

export interface TestCustomer {
  customer: CustomerRef;
  email: string;
  password: string;
}

/** A business customer with a password login and a default address. */
export async function createTestCustomer(
  overrides: Partial<{ company: string; groupId: string | null; tags: string[] }> = {},
): Promise<TestCustomer> {
  const shop = await getShop();
  const email = `customer-${newId().slice(0, 12)}@example.test`;
  const password = `pw-${newSecret(9)}`;
  const customer = await insertCustomer(shop.db, {
    salesChannelId: await defaultSalesChannelId(shop),
    email,
    passwordHash: await hashPassword(password),
    firstName: 'Test',
    lastName: 'Customer',
    company: overrides.company ?? `Company ${email.slice(9, 15)}`,
    groupId: overrides.groupId ?? null,
    tags: overrides.tags ?? [],
  });
  const addressId = newId();
  await shop.db('customer_addresses').insert({
    id: addressId,
    customer_id: customer.id,
    company: customer.company,
    first_name: 'Test',
    last_name: 'Customer',
    street: 'Test Street 1',
    zipcode: '12345',
    city: 'Testcity',
    country_code: 'DE',
    created_at: nowDb(),
  });
  await shop
    .db('customers')
    .where({ id: customer.id })
    .update({ default_billing_address_id: addressId, default_shipping_address_id: addressId });
  return { customer, email, password };
}

/** Logs in through the Store API and returns the context token. */
export async function login(email: string, password: string): Promise<string> {
  const res = await (await http()).post('/store-api/account/login').send({ email, password });
  if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.contextToken as string;
}

export async function loginNewCustomer(): Promise<TestCustomer & { token: string }> {
  const created = await createTestCustomer();
  return { ...created, token: await login(created.email, created.password) };
}

/**
 * The tests' admin integration, created once: the promise is kept from the start, so a caller that
 * comes while the row is still being written (a timed-out test's request goes on running) waits for
 * it instead of presenting credentials the database does not know yet.
 */
let adminCredentials: Promise<{ clientId: string; secret: string }> | null = null;

/** An Admin API bearer token from a test integration. */
let cachedAdminToken: { token: string; fetchedAt: number } | null = null;

/**
 * A bearer token of the tests' admin integration. Reused for a few minutes, well inside the admin
 * token lifetime (10 minutes), so long runs never present an expired one.
 */
export async function adminToken(): Promise<string> {
  if (cachedAdminToken && nowMs() - cachedAdminToken.fetchedAt < 4 * 60_000) return cachedAdminToken.token;
  const shop = await getShop();
  adminCredentials ??= (async () => {
    const credentials = { clientId: `test-${newId().slice(0, 8)}`, secret: newSecret(24) };
    await shop.db('admin_integrations').insert({
      id: newId(),
      client_id: credentials.clientId,
      secret_hash: await hashPassword(credentials.secret),
      label: 'tests',
      created_at: nowDb(),
    });
    return credentials;
  })();
  adminCredentials.catch(() => (adminCredentials = null));
  const credentials = await adminCredentials;
  const res = await (
    await http()
  )
    .post('/api/oauth/token')
    .send({ grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.secret });
  if (res.status !== 200) throw new Error(`admin token failed: ${res.status} ${JSON.stringify(res.body)}`);
  cachedAdminToken = { token: res.body.access_token as string, fetchedAt: nowMs() };
  return cachedAdminToken.token;
}

/** Asserts the one error body shape and returns its first error. */
export function expectError(
  res: supertest.Response,
  status: number,
  code?: string,
): { code: string; detail?: string; source?: { pointer?: string } } {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const first = res.body?.errors?.[0];
  if (!first || first.status !== String(status) || typeof first.code !== 'string' || typeof first.title !== 'string')
    throw new Error(`not the error body: ${JSON.stringify(res.body)}`);
  if (code && first.code !== code)
    throw new Error(`expected code ${code}, got ${first.code}: ${JSON.stringify(res.body)}`);
  return first;
}
