import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { writeJson } from '../../src/lib/db.js';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { adminToken, expectError, getShop, http, isServerDb, loginNewCustomer } from '../helpers/shop.js';
import { appProcessesForSuite, type AppProcess } from '../helpers/processes.js';
import { assign, createProduct, createRule, KINDS } from '../plugin/partial-assortment/fixtures.js';

/**
 * What the per-process caches of a request's context (verified tokens, rule ids per context and
 * visibility version) must keep: a change made through one app process counts on the next request
 * to any other.
 */
async function call(
  app: AppProcess,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

const sees = async (app: AppProcess, token: string, productId: string): Promise<boolean> => {
  const res = await call(app, 'POST', '/store-api/product', { 'suite-context-token': token }, { ids: [productId] });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.elements.some((p: { id: string }) => p.id === productId);
};

describe('host: the sales channel of a logged-in request (read with its session)', () => {
  it("answers with the session's channel, and refuses another channel's or an unknown access key as before", async () => {
    const { token } = await loginNewCustomer();
    const agent = await http();
    const me = await agent.get('/store-api/account/customer').set('suite-context-token', token);
    expect(me.status).to.equal(200);
    const db = (await getShop()).db;
    const session = await db('sessions')
      .where({ id: (jwt.decode(token) as { jti: string }).jti })
      .first('sales_channel_id');
    const own = await db('sales_channels').where({ id: session.sales_channel_id }).first('access_key');
    // The session's own channel named by its access key: served.
    expect(
      (
        await agent
          .get('/store-api/account/customer')
          .set('suite-context-token', token)
          .set('suite-access-key', own.access_key)
      ).status,
    ).to.equal(200);
    // Another active channel's key: the token belongs to a session of another channel.
    const otherKey = `SWSC${newId().slice(0, 20).toUpperCase()}`;
    await db('sales_channels').insert({
      id: newId(),
      name: 'Other channel',
      access_key: otherKey,
      currency_iso: 'EUR',
      currency_precision: 2,
      language_code: 'en-GB',
      time_zone: 'UTC',
      domains: writeJson(['http://other.test']),
      active: true,
      created_at: nowDb(),
    });
    expect(
      expectError(
        await agent
          .get('/store-api/account/customer')
          .set('suite-context-token', token)
          .set('suite-access-key', otherKey),
        401,
      ).code,
    ).to.equal('SUITE__INVALID_CONTEXT_TOKEN');
    // An unknown key is refused as such, before the token is looked at.
    expect(
      expectError(
        await agent
          .get('/store-api/account/customer')
          .set('suite-context-token', token)
          .set('suite-access-key', 'SWSCUNKNOWN'),
        401,
      ).code,
    ).to.equal('SUITE__INVALID_ACCESS_KEY');
    // A newer channel does not change the default: without a key the session's (default) channel still serves.
    expect((await agent.get('/store-api/account/customer').set('suite-context-token', token)).status).to.equal(200);
  });
});

describe('host: context caches across two app processes (MariaDB)', function () {
  this.timeout(180000);
  const twoProcesses = appProcessesForSuite(2);

  it('a session logged out on one process is refused by the other on its next request', async function () {
    // Several processes on one database need a database server; SQLite runs one process.
    if (!isServerDb()) this.skip();
    const [a, b] = await twoProcesses();
    const { token } = await loginNewCustomer();
    const header = { 'suite-context-token': token };
    // Warm both processes' caches with the token first.
    for (const app of [a!, b!, a!, b!])
      expect((await call(app, 'GET', '/store-api/account/customer', header)).status).to.equal(200);
    expect((await call(a!, 'POST', '/store-api/account/logout', header, {})).status).to.equal(200);
    const refused = await call(b!, 'GET', '/store-api/account/customer', header);
    expect(refused.status).to.equal(401);
    expect(refused.body.errors[0].code).to.equal('SUITE__INVALID_CONTEXT_TOKEN');
    expect((await call(a!, 'GET', '/store-api/account/customer', header)).status).to.equal(401);
  });

  it('a customer deactivated through one process is refused by the other at once', async function () {
    if (!isServerDb()) this.skip();
    const [a, b] = await twoProcesses();
    const { token, customer } = await loginNewCustomer();
    const id = customer.id;
    const header = { 'suite-context-token': token };
    expect((await call(b!, 'GET', '/store-api/account/customer', header)).status).to.equal(200);
    const patched = await call(
      a!,
      'PATCH',
      `/api/customer/${id}`,
      { authorization: `Bearer ${await adminToken()}` },
      { active: false },
    );
    expect(patched.status, JSON.stringify(patched.body)).to.be.oneOf([200, 204]);
    expect((await call(b!, 'GET', '/store-api/account/customer', header)).status).to.equal(401);
  });

  it('a visibility change and a customer change made through one process show on the other on the next request', async function () {
    if (!isServerDb()) this.skip();
    const [a, b] = await twoProcesses();
    const { token, customer } = await loginNewCustomer();
    const id = customer.id;
    const product = await createProduct();
    // Unrestricted: visible on both (and the rule ids of this context are cached on both).
    expect(await sees(a!, token, product.id)).to.equal(true);
    expect(await sees(b!, token, product.id)).to.equal(true);
    // Restricted to customers tagged "vip" (the assignment goes through the Admin API of process a).
    const vip = await createRule({ type: 'customerTag', operator: '=', value: 'vip' });
    const assigned = await call(
      a!,
      'POST',
      '/api/suite-partial-assortment-product-rule',
      { authorization: `Bearer ${await adminToken()}` },
      { productId: product.id, ruleId: vip },
    );
    expect(assigned.status, JSON.stringify(assigned.body)).to.equal(204);
    expect(await sees(b!, token, product.id)).to.equal(false);
    expect(await sees(a!, token, product.id)).to.equal(false);
    // The customer gets the tag through process a: process b matches the rule on its next request.
    const tagged = await call(
      a!,
      'PATCH',
      `/api/customer/${id}`,
      { authorization: `Bearer ${await adminToken()}` },
      { tags: ['vip'] },
    );
    expect(tagged.status, JSON.stringify(tagged.body)).to.be.oneOf([200, 204]);
    expect(await sees(b!, token, product.id)).to.equal(true);
    // And a second restriction the customer does not match hides nothing (any matching rule unlocks).
    await assign(KINDS[2], product.id, await createRule({ type: 'customerTag', operator: '=', value: 'other' }));
    expect(await sees(b!, token, product.id)).to.equal(true);
  });
});

describe('host: live sessions kept per process, checked against the session version', () => {
  const sessionVersion = async (): Promise<number> =>
    Number((await (await getShop()).db('catalog_counters').where({ name: 'sessions' }).first('value')).value);
  const sessionIdOf = (token: string): string => (jwt.decode(token) as { jti: string }).jti;

  it('a session revoked, or its customer deactivated, by plain SQL (an import, an operator) is refused on the next request', async () => {
    const db = (await getShop()).db;
    const agent = await http();
    const first = await loginNewCustomer();
    expect((await agent.get('/store-api/account/customer').set('suite-context-token', first.token)).status).to.equal(
      200,
    );
    await db('sessions')
      .where({ id: sessionIdOf(first.token) })
      .update({ revoked_at: nowDb() });
    expect(
      expectError(await agent.get('/store-api/account/customer').set('suite-context-token', first.token), 401).code,
    ).to.equal('SUITE__INVALID_CONTEXT_TOKEN');

    const second = await loginNewCustomer();
    expect((await agent.get('/store-api/account/customer').set('suite-context-token', second.token)).status).to.equal(
      200,
    );
    await db('customers').where({ id: second.customer.id }).update({ active: false });
    expect((await agent.get('/store-api/account/customer').set('suite-context-token', second.token)).status).to.equal(
      401,
    );
  });

  it("a guest's sales channel, remembered by its access key, is refused once deactivated by plain SQL", async () => {
    const db = (await getShop()).db;
    const agent = await http();
    const key = `SWSC${newId().slice(0, 20).toUpperCase()}`;
    await db('sales_channels').insert({
      id: newId(),
      name: 'Guest channel',
      access_key: key,
      currency_iso: 'EUR',
      currency_precision: 2,
      language_code: 'en-GB',
      time_zone: 'UTC',
      domains: writeJson(['http://guest.test']),
      active: true,
      created_at: nowDb(),
    });
    for (let i = 0; i < 2; i++)
      expect((await agent.get('/store-api/context').set('suite-access-key', key)).status).to.equal(200);
    await db('sales_channels').where({ access_key: key }).update({ active: false });
    expect(expectError(await agent.get('/store-api/context').set('suite-access-key', key), 401).code).to.equal(
      'SUITE__INVALID_ACCESS_KEY',
    );
  });

  it('a customer renamed by plain SQL shows under the new name on the next request', async () => {
    const { token, customer } = await loginNewCustomer();
    const agent = await http();
    expect((await agent.get('/store-api/account/customer').set('suite-context-token', token)).status).to.equal(200);
    await (await getShop()).db('customers').where({ id: customer.id }).update({ first_name: 'Renamed' });
    const me = await agent.get('/store-api/account/customer').set('suite-context-token', token);
    expect(me.body.firstName).to.equal('Renamed');
  });

  it('reads a known session without the session query, and a cart of the session does not expire the others', async () => {
    const shop = await getShop();
    const { token } = await loginNewCustomer();
    const agent = await http();
    expect((await agent.get('/store-api/account/customer').set('suite-context-token', token)).status).to.equal(200);
    const before = await sessionVersion();
    const statements: string[] = [];
    const listener = (query: { sql: string }) => statements.push(query.sql);
    shop.db.on('query', listener);
    try {
      expect((await agent.get('/store-api/account/customer').set('suite-context-token', token)).status).to.equal(200);
    } finally {
      shop.db.removeListener('query', listener);
    }
    expect(statements.filter((sql) => /from [`"]?sessions[`"]? as [`"]?s[`"]?/i.test(sql))).to.deep.equal([]);
    // A cart token written on the session is not what a cached session holds: the version stays.
    await shop
      .db('sessions')
      .where({ id: sessionIdOf(token) })
      .update({ cart_token: 'a-cart-token' });
    expect(await sessionVersion()).to.equal(before);
  });
});
