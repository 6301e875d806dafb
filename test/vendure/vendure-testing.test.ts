import { expect } from 'chai';
import { parse } from 'graphql';
import { resolve } from 'node:path';
import { AutoIncrementIdStrategy, mergeConfig, resetConfig, type VendureConfig } from '@vendure/core';
import { createTestEnvironment, registerInitializer, testConfig, type TestEnvironment } from '@vendure/testing';
import { parseDatabaseUrl } from '../../src/lib/db.js';
import type { AdapterState } from '../../src/adapters/vendure/state.js';
import { initialData } from '../../examples/vendure-shop/initial-data.js';
import { shopConfig } from '../../examples/vendure-shop/vendure-config.js';
import { cleanupTestDatabase, prepareScratchDatabase } from '../helpers/database.js';
import { freePort } from './helpers/shop.js';

/**
 * The plugin under Vendure's own end-to-end conventions (@vendure/testing, decision 0033): a
 * TestServer with the example shop's plugins, populated by Vendure's test population (initial
 * data, the products CSV, two customers with the password "test"), driven through
 * SimpleGraphQLClient. The database is a scratch database of this test process on the server
 * DATABASE_URL names (or a SQLite file): one initializer for the three types points TypeORM at it,
 * so parallel runs on one server never share a database (Vendure's own initializers name it after
 * the test file).
 */
let scratchUrl = '';
const scratchInitializer = {
  async init(_testFile: string, options: any) {
    scratchUrl = await prepareScratchDatabase('vendure_testing');
    const target = parseDatabaseUrl(scratchUrl);
    options.database = target.database;
    options.synchronize = true;
    return options;
  },
  populate: (populate: () => Promise<void>) => populate(),
  destroy: () => undefined,
};
for (const type of ['better-sqlite3', 'mysql', 'mariadb', 'postgres'] as const)
  registerInitializer(type, scratchInitializer);

const PRODUCTS_QUERY = parse('{ products(options: { take: 100 }) { items { slug variants { id } } } }');

describe('Suite B2B in a Vendure TestServer (@vendure/testing): customer prices and partial assortments in the Shop API', function () {
  this.timeout(120_000);
  let env: TestEnvironment;
  let state: AdapterState;
  let port: number;

  before(async function () {
    this.timeout(300_000);
    port = await freePort();
    const shop = shopConfig({
      databaseUrl: process.env.DATABASE_URL ?? 'sqlite:./var/test/vendure-testing.sqlite',
      port,
      validateResponses: true,
      runJobs: false,
    });
    const config = mergeConfig(testConfig, {
      apiOptions: { port },
      authOptions: shop.authOptions,
      dbConnectionOptions: shop.dbConnectionOptions,
      paymentOptions: shop.paymentOptions,
      importExportOptions: shop.importExportOptions,
      // testConfig's TestingEntityIdStrategy answers ids as "T_1": a shop's ids are the database's.
      entityOptions: { entityIdStrategy: new AutoIncrementIdStrategy() },
    } as VendureConfig) as Required<VendureConfig>;
    // mergeConfig merges arrays item by item: the example shop's plugin list replaces testConfig's.
    config.plugins = shop.plugins!;
    resetConfig();
    env = createTestEnvironment(config);
    await env.server.init({
      initialData,
      productsCsvPath: resolve(import.meta.dirname, '../../examples/vendure-shop/products.csv'),
      customerCount: 2,
    });
    await env.adminClient.asSuperAdmin();
    // The adapter's state (ids in the plugin's form) exists once Vendure configured the plugin.
    state = (config.plugins.find((p) => typeof p === 'function' && 'state' in p) as unknown as { state: AdapterState })
      .state;
  });

  after(async function () {
    this.timeout(60_000);
    await env?.server.destroy();
    if (scratchUrl) await cleanupTestDatabase(scratchUrl);
  });

  /** A POST to the plugin's Admin API with the Vendure administrator's session, which it accepts. */
  const api = (path: string, body: unknown) =>
    fetch(`http://localhost:${port}/b2b-admin-api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.adminClient.getAuthToken()}` },
      body: JSON.stringify(body),
    });

  it('a customer price set through the plugin Admin API is the unit price of the customer`s own addItemToOrder', async () => {
    const { customers } = await env.adminClient.query<{
      customers: { items: Array<{ id: string; emailAddress: string }> };
    }>(parse('{ customers(options: { sort: { id: DESC } }) { items { id emailAddress } } }'));
    const buyer = customers.items[0]!;
    await env.shopClient.asAnonymousUser();
    const all = (await env.shopClient.query(PRODUCTS_QUERY)).products.items as Array<{
      variants: Array<{ id: string }>;
    }>;
    const variantId = all.at(-1)!.variants[0]!.id;
    const price = await api('/suite-customer-price', {
      customerId: state.ids.toPlugin(buyer.id),
      productId: state.ids.toPlugin(variantId),
      price: 12.34,
    });
    expect(price.status, await price.clone().text()).to.equal(201);

    await env.shopClient.asUserWithCredentials(buyer.emailAddress, 'test');
    const added = await env.shopClient.query(
      parse(
        'mutation ($id: ID!) { addItemToOrder(productVariantId: $id, quantity: 2) { ... on Order { lines { unitPrice linePrice productVariant { id } } } ... on ErrorResult { message } } }',
      ),
      { id: variantId },
    );
    const line = added.addItemToOrder.lines.find(
      (l: { productVariant: { id: string } }) => l.productVariant.id === variantId,
    );
    expect(line, JSON.stringify(added)).to.include({ unitPrice: 1234, linePrice: 2468 });
  });

  it('a product ruled out for one customer through the plugin Admin API leaves that customer`s `products`, not the other`s', async () => {
    const { customers } = await env.adminClient.query<{
      customers: { items: Array<{ id: string; emailAddress: string }> };
    }>(parse('{ customers(options: { sort: { id: ASC } }) { items { id emailAddress } } }'));
    const [hidden, other] = customers.items;
    expect(hidden && other, 'Vendure populated two customers').to.be.ok;

    await env.shopClient.asAnonymousUser();
    const all = (await env.shopClient.query(PRODUCTS_QUERY)).products.items as Array<{
      slug: string;
      variants: Array<{ id: string }>;
    }>;
    const target = all[0]!;
    const productId = state.ids.toPlugin(target.variants[0]!.id);

    const { customerNumber } = (await state.runtime.customers.findByEmail(state.db, hidden!.emailAddress))!;
    const rule = await api('/rule', {
      name: 'everyone but the first customer',
      conditions: { type: 'customerNumber', operator: '!=', value: [customerNumber] },
    });
    const created = (await rule.json()) as { data: { id: string } };
    expect(rule.status, JSON.stringify(created)).to.equal(201);
    const ruleId = created.data.id;
    const assigned = await api('/suite-partial-assortment-product-rule', { productId, ruleId });
    expect(assigned.status, await assigned.text()).to.equal(204);

    const slugsOf = async (email: string) => {
      await env.shopClient.asUserWithCredentials(email, 'test');
      const answer = await env.shopClient.query(PRODUCTS_QUERY);
      return (answer.products.items as Array<{ slug: string }>).map((p) => p.slug);
    };
    expect(await slugsOf(hidden!.emailAddress)).not.to.include(target.slug);
    expect(await slugsOf(other!.emailAddress)).to.include(target.slug);
  });
});
