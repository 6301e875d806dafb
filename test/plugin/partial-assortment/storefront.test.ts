import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { nowDb } from '../../../src/lib/time.js';
import { createApp } from '../../../src/host/app.js';
import supertest from 'supertest';
import {
  TEST_APP_SECRET,
  createTestCustomer,
  expectError,
  getShop,
  http,
  login,
  testDatabaseUrl,
} from '../../helpers/shop.js';
import {
  KINDS,
  admin,
  assign,
  createCategory,
  createLandingPage,
  createProduct,
  createRule,
  routeOf,
  type Kind,
} from './fixtures.js';

const [CATEGORY, LANDING_PAGE, PRODUCT] = KINDS as unknown as [Kind, Kind, Kind];

interface Shopper {
  name: string;
  token: string | null;
}

async function store(shopper: Shopper) {
  const agent = await http();
  const withToken = <T extends { set(name: string, value: string): T }>(req: T) =>
    shopper.token ? req.set('suite-context-token', shopper.token) : req;
  return {
    get: (path: string) => withToken(agent.get(`/store-api${path}`)),
    post: (path: string, body: unknown) => withToken(agent.post(`/store-api${path}`)).send(body as object),
  };
}

const names = (res: supertest.Response) => {
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return (res.body.elements as Array<{ name: string }>).map((p) => p.name).sort();
};

function flatten(nodes: Array<{ name: string; children: unknown[] }>): string[] {
  return nodes
    .flatMap((node) => [node.name, ...flatten(node.children as Array<{ name: string; children: unknown[] }>)])
    .sort();
}

describe('partial assortment: what shoppers see through the Store API', () => {
  const marker = `pa${newId().slice(0, 8)}`;
  const n = (label: string) => `${marker} ${label}`;
  let a: Shopper;
  let b: Shopper;
  let guest: Shopper;
  let ids: Record<string, string>;

  before(async () => {
    const db = (await getShop()).db;
    const groupA = newId();
    await db('customer_groups').insert({ id: groupA, name: `Group ${marker}`, created_at: nowDb() });
    const tagB = `tag-${marker}`;
    const ruleA = await createRule({ type: 'customerGroup', operator: '=', value: groupA });
    const ruleB = await createRule({ type: 'customerTag', operator: '=', value: [tagB] });
    const customerA = await createTestCustomer({ groupId: groupA });
    const customerB = await createTestCustomer({ tags: [tagB] });
    a = { name: 'A', token: await login(customerA.email, customerA.password) };
    b = { name: 'B', token: await login(customerB.email, customerB.password) };
    guest = { name: 'guest', token: null };

    const root = await createCategory(null, n('root'));
    const catOpen = await createCategory(root.id, n('cat open'));
    const catA = await createCategory(root.id, n('cat A'));
    const catB = await createCategory(root.id, n('cat B'));
    const catAChild = await createCategory(catA.id, n('cat A child'));
    const open = await createProduct(n('product open'), [catOpen.id, catA.id]);
    const onlyA = await createProduct(n('product A'), [catA.id]);
    const onlyB = await createProduct(n('product B'), [catB.id, catOpen.id]);
    const both = await createProduct(n('product AB'), [catOpen.id, catAChild.id]);
    const lpOpen = await createLandingPage(n('lp open'));
    const lpA = await createLandingPage(n('lp A'));
    const lpB = await createLandingPage(n('lp B'));
    await assign(CATEGORY, catA.id, ruleA);
    await assign(CATEGORY, catB.id, ruleB);
    await assign(PRODUCT, onlyA.id, ruleA);
    await assign(PRODUCT, onlyB.id, ruleB);
    await assign(PRODUCT, both.id, ruleA);
    await assign(PRODUCT, both.id, ruleB);
    await assign(LANDING_PAGE, lpA.id, ruleA);
    await assign(LANDING_PAGE, lpB.id, ruleB);
    ids = {
      ruleA,
      ruleB,
      root: root.id,
      catOpen: catOpen.id,
      catA: catA.id,
      catB: catB.id,
      catAChild: catAChild.id,
      open: open.id,
      onlyA: onlyA.id,
      onlyB: onlyB.id,
      both: both.id,
      lpOpen: lpOpen.id,
      lpA: lpA.id,
      lpB: lpB.id,
    };
  });

  const seen = {
    A: ['product A', 'product AB', 'product open'],
    B: ['product AB', 'product B', 'product open'],
    guest: ['product open'],
  } as Record<string, string[]>;

  it('product listing (POST /store-api/product) and search (POST /store-api/search) show each shopper their products', async () => {
    for (const shopper of [a, b, guest]) {
      const api = await store(shopper);
      const expected = seen[shopper.name]!.map(n).sort();
      const listing = await api.post('/product', { filter: [{ type: 'contains', field: 'name', value: marker }] });
      expect(names(listing), shopper.name).to.deep.equal(expected);
      expect(listing.body.total).to.equal(expected.length);
      const search = await api.post('/search', { search: marker });
      expect(names(search), shopper.name).to.deep.equal(expected);
      expect(search.body.total).to.equal(expected.length);
    }
  });

  it('product detail (GET /store-api/product/{id}) is a 404 for a hidden product', async () => {
    const visible: Record<string, string[]> = {
      A: ['open', 'onlyA', 'both'],
      B: ['open', 'onlyB', 'both'],
      guest: ['open'],
    };
    for (const shopper of [a, b, guest]) {
      const api = await store(shopper);
      for (const key of ['open', 'onlyA', 'onlyB', 'both']) {
        const res = await api.get(`/product/${ids[key]}`);
        if (visible[shopper.name]!.includes(key)) expect(res.status, `${shopper.name} ${key}`).to.equal(200);
        else expectError(res, 404);
      }
    }
  });

  it('category listing (POST /store-api/product-listing/{categoryId}) hides restricted products and categories', async () => {
    const listing = async (shopper: Shopper, categoryId: string) =>
      (await store(shopper)).post(`/product-listing/${categoryId}`, {});
    expect(names(await listing(a, ids.root!))).to.deep.equal(seen.A!.map(n).sort());
    expect(names(await listing(b, ids.root!))).to.deep.equal(seen.B!.map(n).sort());
    expect(names(await listing(guest, ids.root!))).to.deep.equal([n('product open')]);
    // cat A holds "open", "A" and, below it, "AB": B may not open it at all.
    expect(names(await listing(a, ids.catA!))).to.deep.equal(['product A', 'product AB', 'product open'].map(n).sort());
    expectError(await listing(b, ids.catA!), 404);
    expectError(await listing(guest, ids.catA!), 404);
    expect(names(await listing(b, ids.catB!))).to.deep.equal([n('product B')]);
    expectError(await listing(a, ids.catB!), 404);
    expect(names(await listing(guest, ids.catOpen!))).to.deep.equal([n('product open')]);
  });

  it('category detail (GET /store-api/category/{id}) and navigation (GET /store-api/navigation/{rootId}) show each shopper their categories', async () => {
    for (const [shopper, visible] of [
      [a, ['cat open', 'cat A', 'cat A child']],
      [b, ['cat open', 'cat B']],
      [guest, ['cat open']],
    ] as Array<[Shopper, string[]]>) {
      const api = await store(shopper);
      const tree = await api.get(`/navigation/${ids.root}?depth=3`);
      expect(tree.status).to.equal(200);
      expect(flatten(tree.body), shopper.name).to.deep.equal(visible.map(n).sort());
      for (const key of ['catOpen', 'catA', 'catB']) {
        const res = await api.get(`/category/${ids[key]}`);
        const label = { catOpen: 'cat open', catA: 'cat A', catB: 'cat B' }[key]!;
        if (visible.includes(label)) expect(res.body.name, `${shopper.name} ${key}`).to.equal(n(label));
        else expectError(res, 404);
      }
    }
  });

  it('landing pages (GET /store-api/landing-page/{id}) are a 404 for shoppers matching none of their rules', async () => {
    for (const [shopper, visible] of [
      [a, ['lpOpen', 'lpA']],
      [b, ['lpOpen', 'lpB']],
      [guest, ['lpOpen']],
    ] as Array<[Shopper, string[]]>) {
      const api = await store(shopper);
      for (const key of ['lpOpen', 'lpA', 'lpB']) {
        const res = await api.get(`/landing-page/${ids[key]}`);
        if (visible.includes(key)) expect(res.body.id, `${shopper.name} ${key}`).to.equal(ids[key]);
        else expectError(res, 404);
      }
    }
  });

  it('gives the same answers when more products are restricted than the filter lists by id', async function () {
    this.timeout(60000);
    const shop = await getShop();
    const bulk = `${marker}bulk`;
    const products = Array.from({ length: 1000 }, (_, i) => ({
      id: newId(),
      version_id: newId(),
      product_number: `PAB-${newId().slice(0, 16)}`,
      name: `${bulk} ${String(i).padStart(4, '0')}`,
      description: null,
      stock: 5,
      active: true,
      tax_rate_bp: 1900,
      price_net: 500,
      created_at: nowDb(),
    }));
    const assignments = products.map((p) => ({
      product_id: p.id,
      product_version_id: p.version_id,
      rule_id: ids.ruleB,
      created_at: nowDb(),
    }));
    for (let i = 0; i < products.length; i += 200) await shop.db('products').insert(products.slice(i, i + 200));
    for (let i = 0; i < assignments.length; i += 200)
      await shop.db(PRODUCT.table).insert(assignments.slice(i, i + 200));
    await shop.runtime.catalog.visibilityChanged(shop.db);
    try {
      for (const [shopper, bulkVisible] of [
        [a, 0],
        [b, 1000],
        [guest, 0],
      ] as Array<[Shopper, number]>) {
        const api = await store(shopper);
        const expected = seen[shopper.name]!.map(n).sort();
        expect(
          names(
            await api.post('/product', { filter: [{ type: 'contains', field: 'name', value: marker }], limit: 500 }),
          ).filter((name) => !name.startsWith(bulk)),
          shopper.name,
        ).to.deep.equal(expected);
        const listing = await api.post('/product', {
          filter: [{ type: 'prefix', field: 'name', value: bulk }],
          limit: 10,
        });
        expect(listing.body.total, shopper.name).to.equal(bulkVisible);
        expect((await api.get(`/product/${products[500]!.id}`)).status, shopper.name).to.equal(bulkVisible ? 200 : 404);
        expect((await api.get(`/product/${ids.onlyA}`)).status, shopper.name).to.equal(shopper === a ? 200 : 404);
      }
    } finally {
      await shop
        .db(PRODUCT.table)
        .whereIn(
          'product_id',
          products.map((p) => p.id),
        )
        .del();
      for (let i = 0; i < products.length; i += 200)
        await shop
          .db('products')
          .whereIn(
            'id',
            products.slice(i, i + 200).map((p) => p.id),
          )
          .del();
      await shop.runtime.catalog.visibilityChanged(shop.db);
    }
  });

  it('a hidden product cannot be added to the cart (POST /store-api/checkout/cart/line-item)', async () => {
    const apiB = await store(b);
    expectError(
      await apiB.post('/checkout/cart/line-item', { items: [{ productId: ids.onlyA, quantity: 1 }] }),
      400,
      'SUITE__PRODUCT_NOT_AVAILABLE',
    );
    const added = await apiB.post('/checkout/cart/line-item', { items: [{ productId: ids.onlyB, quantity: 1 }] });
    expect(added.status, JSON.stringify(added.body)).to.equal(200);
    const cart = await apiB.get('/checkout/cart');
    expect(cart.body.lineItems.map((line: { productId: string }) => line.productId)).to.deep.equal([ids.onlyB]);
    const apiA = await store(a);
    expect(
      (await apiA.post('/checkout/cart/line-item', { items: [{ productId: ids.onlyA, quantity: 2 }] })).status,
    ).to.equal(200);
  });

  it('a product hidden after it went into the cart cannot be ordered', async () => {
    const customer = await createTestCustomer();
    const shopper = { name: 'late', token: await login(customer.email, customer.password) };
    const product = await createProduct(n('product soon hidden'));
    const api = await store(shopper);
    expect(
      (await api.post('/checkout/cart/line-item', { items: [{ productId: product.id, quantity: 1 }] })).status,
    ).to.equal(200);
    await assign(PRODUCT, product.id, ids.ruleA!);
    expectError(await api.post('/checkout/order', {}), 400, 'SUITE__PRODUCT_NOT_AVAILABLE');
  });

  it('an assignment or removal shows on the next request, also on another app process with a warm cache', async () => {
    const other = await createApp({
      config: {
        databaseUrl: await testDatabaseUrl(),
        appSecret: TEST_APP_SECRET,
        publicUrl: 'http://shop.test',
        logLevel: 'silent',
        workers: false,
        validateResponses: true,
      },
    });
    try {
      const product = await createProduct(n('product toggled'));
      const listFor = async (shopper: Shopper, app: unknown) => {
        const req = supertest(app as Parameters<typeof supertest>[0])
          .post('/store-api/product')
          .set('x-forwarded-for', '10.77.0.1');
        const res = await (shopper.token ? req.set('suite-context-token', shopper.token) : req).send({
          filter: [
            { type: 'contains', field: 'name', value: 'toggled' },
            { type: 'contains', field: 'name', value: marker },
          ],
        });
        return names(res);
      };
      const shopApp = (await getShop()).app;
      for (const app of [shopApp, other.app]) {
        expect(await listFor(b, app)).to.deep.equal([n('product toggled')]);
        expect(await listFor(a, app)).to.deep.equal([n('product toggled')]);
      }
      await assign(PRODUCT, product.id, ids.ruleA!);
      for (const app of [shopApp, other.app]) {
        expect(await listFor(b, app)).to.deep.equal([]);
        expect(await listFor(a, app)).to.deep.equal([n('product toggled')]);
      }
      expect((await (await admin()).delete(`${routeOf(PRODUCT)}/${product.id}/${ids.ruleA}`)).status).to.equal(204);
      for (const app of [shopApp, other.app]) expect(await listFor(b, app)).to.deep.equal([n('product toggled')]);
    } finally {
      await other.close();
    }
  });
});
