import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type ShopApp } from '../../src/host/app.js';
import { hashPassword } from '../../src/host-kit/passwords.js';
import { insertCustomer } from '../../src/host/customer/customer-repository.js';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { TEST_APP_SECRET } from './shop.js';

/** An app of its own (own database, listening on a free port, job worker on) for tests that break its database. */
export interface OutageShop {
  shop: ShopApp;
  url: string;
  customers: Array<{ email: string; password: string }>;
  productIds: string[];
  adminToken: string;
  close(): Promise<void>;
}

export async function startOutageShop(databaseUrl: string, customerCount = 4): Promise<OutageShop> {
  const varDir = mkdtempSync(join(tmpdir(), 'suite-outage-'));
  const adminClient = { id: `outage-${newId().slice(0, 8)}`, secret: newId() };
  const shop = await createApp({
    config: {
      databaseUrl,
      appSecret: TEST_APP_SECRET,
      publicUrl: 'http://shop.test',
      logLevel: 'silent',
      workers: true,
      validateResponses: true,
      listingTotalCacheSeconds: 0,
      mailerUrl: null,
      varDir,
      adminClientId: adminClient.id,
      adminClientSecret: adminClient.secret,
    },
  });
  const salesChannelId = (await shop.db('sales_channels').orderBy('created_at').first('id')).id as string;
  const customers = [];
  for (let i = 0; i < customerCount; i++) {
    const email = `outage-${i}-${newId().slice(0, 8)}@example.test`;
    const password = `pw-${newId().slice(0, 12)}`;
    const customer = await insertCustomer(shop.db, {
      salesChannelId,
      email,
      passwordHash: await hashPassword(password),
      firstName: 'Out',
      lastName: 'Age',
      company: `Outage ${i}`,
      groupId: null,
      tags: [],
    });
    const addressId = newId();
    await shop.db('customer_addresses').insert({
      id: addressId,
      customer_id: customer.id,
      company: `Outage ${i}`,
      first_name: 'Out',
      last_name: 'Age',
      street: 'Street 1',
      zipcode: '12345',
      city: 'Town',
      country_code: 'DE',
      created_at: nowDb(),
    });
    await shop
      .db('customers')
      .where({ id: customer.id })
      .update({ default_billing_address_id: addressId, default_shipping_address_id: addressId });
    customers.push({ email, password });
  }
  const productIds = [];
  for (let i = 0; i < 3; i++) {
    const id = newId();
    await shop.db('products').insert({
      id,
      version_id: newId(),
      product_number: `OUT-${id.slice(0, 10)}`,
      name: `Outage product ${i}`,
      description: null,
      stock: 1_000_000,
      active: true,
      tax_rate_bp: 1900,
      price_net: 1000 + i,
      created_at: nowDb(),
    });
    productIds.push(id);
  }
  const server: Server = createServer(shop.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const tokenRes = await fetch(`${url}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: adminClient.id,
      client_secret: adminClient.secret,
    }),
  });
  const adminToken = ((await tokenRes.json()) as { access_token: string }).access_token;
  return {
    shop,
    url,
    customers,
    productIds,
    adminToken,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await shop.close();
      rmSync(varDir, { recursive: true, force: true });
    },
  };
}

export interface LoadResult {
  op: string;
  startedAt: number;
  endedAt: number;
  status: number;
  code: string | null;
  retryAfter: string | null;
  requestId: string | null;
  bodyRequestId: string | null;
}

let ipCounter = 0;

/** One request as a client sees it; network failures are status 0. */
export async function call(target: OutageShop, op: string, token: string | null): Promise<LoadResult> {
  const startedAt = Date.now();
  ipCounter++;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-forwarded-for': `10.77.${(ipCounter >> 8) & 255}.${ipCounter & 255}`,
  };
  if (token) headers['suite-context-token'] = token;
  let path = '';
  let method = 'POST';
  let body: unknown = {};
  switch (op) {
    case 'login-wrong':
      path = '/store-api/account/login';
      body = { email: `nobody-${newId().slice(0, 10)}@example.test`, password: 'not-the-password' };
      break;
    case 'listing':
      path = '/store-api/product';
      body = { limit: 5 };
      break;
    case 'cart-add':
      path = '/store-api/checkout/cart/line-item';
      body = { items: [{ productId: target.productIds[ipCounter % target.productIds.length], quantity: 1 }] };
      break;
    case 'checkout':
      path = '/store-api/checkout/order';
      break;
    case 'storefront':
      path = '/';
      method = 'GET';
      body = undefined;
      break;
    case 'admin-list':
      path = '/api/product?limit=5';
      method = 'GET';
      body = undefined;
      headers.authorization = `Bearer ${target.adminToken}`;
      break;
    default:
      throw new Error(`unknown op ${op}`);
  }
  try {
    const res = await fetch(`${target.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: { errors?: Array<{ code?: string; meta?: { requestId?: string } }> } | null = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return {
      op,
      startedAt,
      endedAt: Date.now(),
      status: res.status,
      code: json?.errors?.[0]?.code ?? null,
      retryAfter: res.headers.get('retry-after'),
      requestId: res.headers.get('x-request-id'),
      bodyRequestId: json?.errors?.[0]?.meta?.requestId ?? null,
    };
  } catch {
    return {
      op,
      startedAt,
      endedAt: Date.now(),
      status: 0,
      code: null,
      retryAfter: null,
      requestId: null,
      bodyRequestId: null,
    };
  }
}

export const LOAD_OPS = ['login-wrong', 'listing', 'cart-add', 'checkout', 'storefront', 'admin-list'];

/** `workers` clients, each logged in as its own customer, cycling through LOAD_OPS until stopped. */
export function startLoad(target: OutageShop, workers = 4): { results: LoadResult[]; stop(): Promise<void> } {
  const results: LoadResult[] = [];
  let running = true;
  const loops = Array.from({ length: workers }, async (_, index) => {
    const customer = target.customers[index % target.customers.length]!;
    const loginRes = await fetch(`${target.url}/store-api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.78.0.${index + 1}` },
      body: JSON.stringify(customer),
    });
    const token = ((await loginRes.json()) as { contextToken: string }).contextToken;
    for (let i = index; running; i++) {
      results.push(await call(target, LOAD_OPS[i % LOAD_OPS.length]!, token));
      await new Promise((r) => setTimeout(r, 10));
    }
  });
  return {
    results,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/**
 * Lets the load run at least `minMs` and until it has placed an order (at most `limitMs`), so the
 * outage hits a shop that was taking orders even on a machine busy enough to slow the first ones.
 */
export async function untilOrdersFlow(load: { results: LoadResult[] }, minMs: number, limitMs = 20000): Promise<void> {
  const started = Date.now();
  await new Promise((r) => setTimeout(r, minMs));
  while (!load.results.some((r) => r.op === 'checkout' && r.status === 200)) {
    if (Date.now() - started > limitMs)
      throw new Error(`the load placed no order within ${limitMs} ms before the outage`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls every op until each has succeeded once; returns how long that took (ms). */
export async function timeToRecovery(target: OutageShop, token: string, limitMs: number): Promise<number> {
  const started = Date.now();
  const pending = new Set(['listing', 'storefront', 'admin-list', 'login-wrong']);
  while (pending.size > 0) {
    if (Date.now() - started > limitMs)
      throw new Error(`not recovered within ${limitMs} ms: still failing ${[...pending].join(', ')}`);
    for (const op of [...pending]) {
      const result = await call(target, op, token);
      if (result.status > 0 && result.status < 500) pending.delete(op);
    }
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

export async function loginToken(target: OutageShop, customerIndex = 0): Promise<string> {
  const res = await fetch(`${target.url}/store-api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.79.0.1' },
    body: JSON.stringify(target.customers[customerIndex]),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return ((await res.json()) as { contextToken: string }).contextToken;
}

/** Orders without a single line item: what an interrupted, half-written checkout would leave. */
export async function ordersWithoutLines(shop: ShopApp): Promise<number> {
  const rows = await shop
    .db('orders')
    .leftJoin('order_line_items', 'order_line_items.order_id', 'orders.id')
    .whereNull('order_line_items.id')
    .count({ n: 'orders.id' });
  return Number((rows[0] as { n: number | string }).n);
}
