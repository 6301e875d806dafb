import { expect } from 'chai';
import { createServer } from 'node:net';
import { cleanupTestDatabase, CONCURRENCY_STATEMENT_MS, prepareScratchDatabase } from '../../helpers/database.js';
import { DEMO_CUSTOMER, startShop, type RunningShop } from '../../../examples/vendure-shop/shop.js';
import type { ShopConfigOptions } from '../../../examples/vendure-shop/vendure-config.js';
import { buildStoreContext } from '../../../src/adapters/vendure/store-api.js';
import type { StoreContext } from '../../../src/contract/index.js';

/**
 * The example shop (Vendure 3.7 + the unchanged plugin) booted in-process for one test file, on its
 * own database (SQLite file, or a MariaDB or PostgreSQL database beside the test database), and the clients the
 * tests talk to it with: Vendure's GraphQL APIs and the plugin's REST APIs.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface GqlAnswer {
  data: any;
  errors?: Array<{ message: string }>;
  token: string | null;
}

export interface RestAnswer {
  status: number;
  body: any;
  headers: Headers;
}

export interface ShopClient {
  shop: RunningShop;
  /** The shop's own database (a second knex pool on it plays another process). */
  databaseUrl: string;
  gql(
    api: 'shop-api' | 'admin-api',
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GqlAnswer>;
  rest(method: string, path: string, headers?: Record<string, string>, body?: unknown): Promise<RestAnswer>;
  vendureLogin(api: 'shop-api' | 'admin-api', username: string, password: string): Promise<string>;
  pluginLogin(email: string, password: string): Promise<string>;
  /** An employee's Shop API headers: the Vendure session of the company's customer plus the plugin context token. */
  employeeHeaders(email: string, password: string): Promise<Record<string, string>>;
  /**
   * Waits until Vendure's job queue has no unsettled jobs (search index, collection filters): on
   * SQLite those jobs hold the write lock the plugin's connection then waits for.
   */
  settleJobs(): Promise<void>;
  close(): Promise<void>;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/**
 * Boots the shop (call in a `before` with a generous timeout) and waits until Vendure indexed the
 * four demo products. `label` names the scratch database (default `vendure`), so test files need not share one.
 */
export async function bootShop({
  label = 'vendure',
  ...options
}: Omit<ShopConfigOptions, 'databaseUrl' | 'port'> & { label?: string } = {}): Promise<ShopClient> {
  const databaseUrl = await prepareScratchDatabase(label);
  const shop = await startShop({
    databaseUrl,
    port: await freePort(),
    quiet: true,
    validateResponses: true,
    // Vendure's bcrypt at 4 rounds instead of 12: every boot hashes three passwords, every login checks one.
    passwordHashRounds: 4,
    databaseTimeouts: { statementMs: CONCURRENCY_STATEMENT_MS },
    ...options,
  });

  const gql: ShopClient['gql'] = async (api, query, variables = {}, headers = {}) => {
    const res = await fetch(`${shop.url}/${api}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data: unknown; errors?: Array<{ message: string }> };
    return { data: body.data, errors: body.errors, token: res.headers.get('vendure-auth-token') };
  };
  const rest: ShopClient['rest'] = async (method, path, headers = {}, body) => {
    const res = await fetch(`${shop.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null, headers: res.headers };
  };
  const vendureLogin: ShopClient['vendureLogin'] = async (api, username, password) => {
    const answer = await gql(
      api,
      'mutation ($u: String!, $p: String!) { login(username: $u, password: $p) { __typename ... on CurrentUser { id } } }',
      { u: username, p: password },
    );
    expect(answer.data.login.__typename, JSON.stringify(answer)).to.equal('CurrentUser');
    return answer.token!;
  };
  const pluginLogin: ShopClient['pluginLogin'] = async (email, password) => {
    const res = await rest('POST', '/store-api/account/login', {}, { email, password });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.contextToken as string;
  };
  const employeeHeaders: ShopClient['employeeHeaders'] = async (email, password) => {
    const contextToken = await pluginLogin(email, password);
    const answer = await gql(
      'shop-api',
      'mutation ($t: String!) { authenticate(input: { suiteB2B: { contextToken: $t } }) { __typename ... on CurrentUser { identifier } } }',
      { t: contextToken },
    );
    expect(answer.data.authenticate, JSON.stringify(answer)).to.deep.equal({
      __typename: 'CurrentUser',
      identifier: DEMO_CUSTOMER.email,
    });
    return { ...bearer(answer.token!), 'suite-context-token': contextToken };
  };

  // With worker processes of its own the index waits for them (the test starts them).
  for (let i = 0; i < 150 && !options.separateWorkers; i++) {
    const { data } = await gql('shop-api', '{ search(input: { groupByProduct: true }) { totalItems } }');
    if (data?.search.totalItems === 4) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    shop,
    databaseUrl,
    gql,
    rest,
    vendureLogin,
    pluginLogin,
    employeeHeaders,
    async settleJobs() {
      const admin = bearer(await vendureLogin('admin-api', 'superadmin', 'superadmin'));
      for (let i = 0; i < 150; i++) {
        const { data } = await gql(
          'admin-api',
          '{ jobs(options: { filter: { isSettled: { eq: false } } }) { totalItems } }',
          {},
          admin,
        );
        if (data?.jobs.totalItems === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async close() {
      await shop.close();
      await cleanupTestDatabase(databaseUrl);
    },
  };
}

/** A Vendure collection of the variants whose name contains `term` (Admin API); answers its Vendure id. */
export async function createNameCollection(
  client: Pick<ShopClient, 'gql'>,
  admin: Record<string, string>,
  name: string,
  term: string,
  parentId?: string,
): Promise<string> {
  const created = await client.gql(
    'admin-api',
    'mutation ($input: CreateCollectionInput!) { createCollection(input: $input) { id } }',
    {
      input: {
        translations: [{ languageCode: 'en', name, slug: name.toLowerCase(), description: '' }],
        ...(parentId ? { parentId } : {}),
        filters: [
          {
            code: 'variant-name-filter',
            arguments: [
              { name: 'operator', value: 'contains' },
              { name: 'term', value: term },
            ],
          },
        ],
      },
    },
    admin,
  );
  expect(created.errors, JSON.stringify(created)).to.equal(undefined);
  return String(created.data.createCollection.id);
}

/** The Store API context of a plugin login (its `suite-context-token` header), as the plugin's routes get it. */
export function storeContextOf(
  client: Pick<ShopClient, 'shop'>,
  headers: Record<string, string>,
): Promise<StoreContext> {
  const token = headers['suite-context-token'];
  return buildStoreContext(
    client.shop.state,
    {
      header: (name) => (name.toLowerCase() === 'suite-context-token' ? token : undefined),
      ip: '127.0.0.1',
      requestId: '',
    },
    true,
  );
}
