import { expect } from 'chai';
import { createServer } from 'node:net';
import { cleanupTestDatabase, prepareScratchDatabase } from '../../helpers/database.js';
import { startShop, type RunningShop } from '../../../examples/vendure-shop/shop.js';

/**
 * The example Vendure shop (examples/vendure-shop) with the unchanged plugin, booted in-process on a
 * free port and its own scratch database (SQLite file, or a MariaDB database beside the test
 * database), with the clients the Vendure e2e tests use.
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

export interface TestShop {
  shop: RunningShop;
  gql(api: 'shop-api' | 'admin-api', query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GqlAnswer>;
  rest(method: string, path: string, headers?: Record<string, string>, body?: unknown): Promise<RestAnswer>;
  /** A Vendure session token (Shop API customer or Admin API administrator). */
  vendureLogin(api: 'shop-api' | 'admin-api', username: string, password: string): Promise<string>;
  /** A plugin context token (employees, sales representatives). */
  pluginLogin(email: string, password: string): Promise<string>;
  /**
   * Waits until Vendure's job queue has no unsettled jobs (search index, collection filters): on
   * SQLite those jobs hold the write lock the plugin's connection then waits for.
   */
  settleJobs(): Promise<void>;
  close(): Promise<void>;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** Boots the shop on the scratch database `label` and waits until Vendure indexed the four demo products. */
export async function bootTestShop(label: string): Promise<TestShop> {
  const databaseUrl = await prepareScratchDatabase(label);
  const shop = await startShop({ databaseUrl, port: await freePort(), quiet: true, validateResponses: true });
  const gql: TestShop['gql'] = async (api, query, variables = {}, headers = {}) => {
    const res = await fetch(`${shop.url}/${api}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data: unknown; errors?: Array<{ message: string }> };
    return { data: body.data, errors: body.errors, token: res.headers.get('vendure-auth-token') };
  };
  const rest: TestShop['rest'] = async (method, path, headers = {}, body) => {
    const res = await fetch(`${shop.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null, headers: res.headers };
  };
  const client: TestShop = {
    shop,
    gql,
    rest,
    async vendureLogin(api, username, password) {
      const answer = await gql(api, 'mutation ($u: String!, $p: String!) { login(username: $u, password: $p) { __typename ... on CurrentUser { id } } }', { u: username, p: password });
      expect(answer.data.login.__typename, JSON.stringify(answer)).to.equal('CurrentUser');
      return answer.token!;
    },
    async pluginLogin(email, password) {
      const res = await rest('POST', '/store-api/account/login', {}, { email, password });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.contextToken as string;
    },
    async settleJobs() {
      const admin = bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
      for (let i = 0; i < 150; i++) {
        const { data } = await gql('admin-api', '{ jobs(options: { filter: { isSettled: { eq: false } } }) { totalItems } }', {}, admin);
        if (data?.jobs.totalItems === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async close() {
      await shop.close();
      await cleanupTestDatabase(databaseUrl);
    },
  };
  for (let i = 0; i < 150; i++) {
    const { data } = await gql('shop-api', '{ search(input: { groupByProduct: true }) { totalItems } }');
    if (data?.search.totalItems === 4) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return client;
}
