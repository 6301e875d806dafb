import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { adminToken, expectError, getShop, http, login } from '../helpers/shop.js';

let bearer = '';
async function admin() {
  bearer ||= `Bearer ${await adminToken()}`;
  const agent = await http();
  return {
    get: (path: string) => agent.get(`/api${path}`).set('authorization', bearer),
    post: (path: string, body: unknown) =>
      agent
        .post(`/api${path}`)
        .set('authorization', bearer)
        .send(body as object),
    patch: (path: string, body: unknown) =>
      agent
        .patch(`/api${path}`)
        .set('authorization', bearer)
        .send(body as object),
    delete: (path: string) => agent.delete(`/api${path}`).set('authorization', bearer),
  };
}

const unique = () => newId().slice(0, 10);

interface EntityCase {
  name: string;
  type: string;
  create: () => Record<string, unknown>;
  update: Record<string, unknown>;
  invalid: Record<string, unknown>;
}

const cases: EntityCase[] = [
  {
    name: 'product',
    type: 'product',
    create: () => ({ productNumber: `AP-${unique()}`, name: 'Admin product', price: 12.5 }),
    update: { name: 'Renamed product', stock: 7 },
    invalid: { productNumber: 'X', name: 'No price' },
  },
  {
    name: 'category',
    type: 'category',
    create: () => ({ name: `Admin category ${unique()}` }),
    update: { name: 'Renamed category', position: 3 },
    invalid: { name: '' },
  },
  {
    name: 'landing-page',
    type: 'landing_page',
    create: () => ({ name: 'Admin landing', url: `admin-${unique()}` }),
    update: { name: 'Renamed landing' },
    invalid: { name: 'x', url: 'has spaces' },
  },
  {
    name: 'rule',
    type: 'rule',
    create: () => ({ name: 'Admin rule', conditions: { type: 'alwaysValid' } }),
    update: { name: 'Renamed rule', priority: 5 },
    invalid: { name: 'x', conditions: { type: 'customerId', operator: '~', value: 'x' } },
  },
  {
    name: 'customer',
    type: 'customer',
    create: () => ({
      email: `admin-${unique()}@example.test`,
      password: 'secret-password',
      firstName: 'Ada',
      lastName: 'Admin',
    }),
    update: { company: 'Renamed Ltd' },
    invalid: { email: 'not-an-email', password: 'secret-password', firstName: 'A', lastName: 'B' },
  },
  {
    name: 'customer-group',
    type: 'customer_group',
    create: () => ({ name: `Group ${unique()}` }),
    update: { name: 'Renamed group' },
    invalid: { name: 42 },
  },
  {
    name: 'sales-channel',
    type: 'sales_channel',
    create: () => ({
      name: `Channel ${unique()}`,
      currencyIso: 'USD',
      languageCode: 'en-US',
      timeZone: 'America/New_York',
      domains: ['https://us.example.test'],
    }),
    update: { name: 'Renamed channel' },
    invalid: { name: 'x', currencyIso: 'usd', languageCode: 'en', timeZone: 'UTC' },
  },
];

describe('host: Admin API entities', () => {
  for (const c of cases) {
    describe(`/api/${c.name}`, () => {
      it('creates, reads, lists, searches, updates and deletes', async () => {
        const api = await admin();
        const created = await api.post(`/${c.name}`, c.create());
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        const { id, type, attributes } = created.body.data;
        expect(type).to.equal(c.type);
        expect(created.headers.location).to.equal(`/api/${c.name}/${id}`);
        expect(attributes.createdAt).to.be.a('string');
        expect(attributes).to.not.have.property('password');

        const read = await api.get(`/${c.name}/${id}`);
        expect(read.status).to.equal(200);
        expect(read.body.data).to.deep.equal(created.body.data);

        const listed = await api.get(`/${c.name}?limit=500`);
        expect(listed.status).to.equal(200);
        expect(listed.body.meta.total).to.be.at.least(1);
        expect(listed.body.links.self).to.equal(`/api/${c.name}?limit=500&page=1`);

        const searched = await api.post(`/search/${c.name}`, { ids: [id] });
        expect(searched.status).to.equal(200);
        expect(searched.body.meta.total).to.equal(1);
        expect(searched.body.data[0].id).to.equal(id);

        const updated = await api.patch(`/${c.name}/${id}`, c.update);
        expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
        expect(updated.body.data.attributes).to.include(c.update);
        expect(updated.body.data.attributes.updatedAt).to.be.a('string');

        expect((await api.delete(`/${c.name}/${id}`)).status).to.equal(204);
        expectError(await api.get(`/${c.name}/${id}`), 404, 'SUITE__NOT_FOUND');
      });

      it('answers 400 for invalid input, 404 for unknown ids and 401 without a token', async () => {
        const api = await admin();
        expectError(await api.post(`/${c.name}`, c.invalid), 400);
        expectError(await api.post(`/${c.name}`, { ...c.create(), unknownField: 1 }), 400, 'SUITE__INVALID_INPUT');
        expectError(await api.post(`/${c.name}`, {}), 400);
        expectError(await api.post(`/${c.name}`, [1, 2]), 400);
        expectError(await api.patch(`/${c.name}/${newId()}`, c.update), 404);
        expectError(await api.patch(`/${c.name}/${newId()}`, {}), 400);
        expectError(await api.get(`/${c.name}/${newId()}`), 404);
        expectError(await api.delete(`/${c.name}/${newId()}`), 404);
        expectError(await api.get(`/${c.name}/not-an-id`), 400);
        expectError(await api.get(`/${c.name}?limit=501`), 400, 'SUITE__INVALID_INPUT');
        expectError(await api.post(`/search/${c.name}`, { limit: 501 }), 400);
        expectError(
          await api.post(`/search/${c.name}`, { filter: [{ type: 'equals', field: 'password', value: 'x' }] }),
          400,
        );
        const agent = await http();
        expectError(await agent.get(`/api/${c.name}`), 401);
        expectError(await agent.get(`/api/${c.name}/${newId()}`), 401);
        expectError(await agent.post(`/api/${c.name}`).send(c.create()), 401);
        expectError(await agent.patch(`/api/${c.name}/${newId()}`).send(c.update), 401);
        expectError(await agent.delete(`/api/${c.name}/${newId()}`), 401);
        expectError(await agent.post(`/api/search/${c.name}`).send({}), 401);
        expectError(await agent.get(`/api/${c.name}`).set('authorization', 'Bearer garbage'), 401);
      });
    });
  }

  it('pages lists with links and keeps page sizes within 1..500', async () => {
    const api = await admin();
    for (let i = 0; i < 3; i++) await api.post('/customer-group', { name: `Paged ${i}` });
    const total = (await api.get('/customer-group?limit=1')).body.meta.total as number;
    const second = await api.get('/customer-group?limit=1&page=2');
    expect(second.status).to.equal(200);
    expect(second.body.data).to.have.length(1);
    expect(second.body.links).to.include({
      self: '/api/customer-group?limit=1&page=2',
      first: '/api/customer-group?limit=1&page=1',
      last: `/api/customer-group?limit=1&page=${total}`,
      prev: '/api/customer-group?limit=1&page=1',
      next: '/api/customer-group?limit=1&page=3',
    });
    const last = await api.get(`/customer-group?limit=1&page=${total}`);
    expect(last.body.links).to.not.have.property('next');
    const beyond = await api.get(`/customer-group?limit=1&page=${total + 1}`);
    expect(beyond.body.data).to.deep.equal([]);
    expectError(await api.get('/customer-group?limit=0'), 400);
    expectError(await api.get('/customer-group?page=0'), 400);
    expectError(await api.get('/customer-group?limit=abc'), 400);
  });

  it('refuses a price or tier price with more than two decimals (400 SUITE__INVALID_AMOUNT), nothing written', async () => {
    const api = await admin();
    const number = `RD-${unique()}`;
    const refused = expectError(
      await api.post('/product', { productNumber: number, name: 'Rounded?', price: 10.555 }),
      400,
      'SUITE__INVALID_AMOUNT',
    );
    expect(refused.source).to.deep.equal({ pointer: '/price' });
    expect(
      expectError(
        await api.post('/product', {
          productNumber: number,
          name: 'Rounded?',
          price: 10.55,
          tierPrices: [{ minQuantity: 5, price: 9.999 }],
        }),
        400,
        'SUITE__INVALID_AMOUNT',
      ).source,
    ).to.deep.equal({ pointer: '/tierPrices/0/price' });
    expect(await (await getShop()).db('products').where({ product_number: number }).first('id')).to.equal(undefined);
  });

  it('writes products with categories and tier prices that the Store API then shows', async () => {
    const api = await admin();
    const categoryId = (await api.post('/category', { name: 'Admin tools' })).body.data.id;
    const number = `TP-${unique()}`;
    const res = await api.post('/product', {
      productNumber: number,
      name: 'Admin drill',
      price: 100,
      taxRate: 7,
      stock: 4,
      categoryIds: [categoryId],
      tierPrices: [
        { minQuantity: 10, price: 90 },
        { minQuantity: 5, price: 95.5 },
      ],
    });
    expect(res.status).to.equal(201);
    const product = res.body.data;
    expect(product.attributes).to.include({ productNumber: number, price: 100, taxRate: 7, stock: 4, active: true });
    expect(product.attributes.versionId).to.match(/^[0-9a-f]{32}$/);
    expect(product.attributes.categoryIds).to.deep.equal([categoryId]);
    expect(product.attributes.tierPrices).to.deep.equal([
      { minQuantity: 5, price: 95.5 },
      { minQuantity: 10, price: 90 },
    ]);

    const store = await (await http()).get(`/store-api/product/${product.id}`);
    expect(store.status).to.equal(200);
    expect(store.body.calculatedPrice).to.include({ unitPrice: 100, taxRate: 7, grossPrice: 107 });
    expect(store.body.tierPrices).to.deep.equal([
      { minQuantity: 5, unitPrice: 95.5 },
      { minQuantity: 10, unitPrice: 90 },
    ]);

    const byCategory = await api.post('/search/product', {
      filter: [{ type: 'equals', field: 'categoryId', value: categoryId }],
    });
    expect(byCategory.body.data.map((p: { id: string }) => p.id)).to.deep.equal([product.id]);
    const byPrice = await api.post('/search/product', {
      filter: [
        { type: 'equals', field: 'productNumber', value: number },
        { type: 'range', field: 'price', parameters: { gte: 99.99, lte: 100 } },
      ],
    });
    expect(byPrice.body.meta.total).to.equal(1);

    const patched = await api.patch(`/product/${product.id}`, { tierPrices: [], categoryIds: [] });
    expect(patched.body.data.attributes).to.include({ price: 100 });
    expect(patched.body.data.attributes.tierPrices).to.deep.equal([]);
    expect(patched.body.data.attributes.categoryIds).to.deep.equal([]);

    const version = await (await getShop()).runtime.catalog.visibilityVersion!((await getShop()).db);
    expect((await api.patch(`/product/${product.id}`, { active: false })).status).to.equal(200);
    expect(await (await getShop()).runtime.catalog.visibilityVersion!((await getShop()).db)).to.be.above(version);
    expectError(await (await http()).get(`/store-api/product/${product.id}`), 404);
  });

  it('refuses taken product numbers, unknown categories and doubled tier quantities with clear codes', async () => {
    const api = await admin();
    const number = `DUP-${unique()}`;
    expect((await api.post('/product', { productNumber: number, name: 'First', price: 1 })).status).to.equal(201);
    const duplicate = expectError(
      await api.post('/product', { productNumber: number, name: 'Second', price: 1 }),
      400,
      'SUITE__DUPLICATE_PRODUCT_NUMBER',
    );
    expect(duplicate.source?.pointer).to.equal('/productNumber');
    const other = (await api.post('/product', { productNumber: `${number}-2`, name: 'Other', price: 1 })).body.data.id;
    expectError(
      await api.patch(`/product/${other}`, { productNumber: number }),
      400,
      'SUITE__DUPLICATE_PRODUCT_NUMBER',
    );
    expectError(
      await api.post('/product', { productNumber: `${number}-3`, name: 'X', price: 1, categoryIds: [newId()] }),
      400,
      'SUITE__UNKNOWN_REFERENCE',
    );
    expectError(
      await api.post('/product', {
        productNumber: `${number}-4`,
        name: 'X',
        price: 1,
        tierPrices: [
          { minQuantity: 2, price: 1 },
          { minQuantity: 2, price: 0.5 },
        ],
      }),
      400,
      'SUITE__DUPLICATE_TIER_QUANTITY',
    );
    expectError(await api.post('/product', { productNumber: `${number}-5`, name: 'X', price: -1 }), 400);
    expectError(await api.post('/product', { productNumber: `${number}-6`, name: 'X', price: 1, taxRate: 101 }), 400);
    expectError(
      await api.post('/product', { productNumber: `${number}-7`, name: 'X', price: 1, id: other }),
      400,
      'SUITE__DUPLICATE_ID',
    );
    const ownId = newId();
    expect(
      (await api.post('/product', { productNumber: `${number}-8`, name: 'X', price: 1, id: ownId })).body.data.id,
    ).to.equal(ownId);
  });

  it('keeps categories a tree and refuses unknown parents', async () => {
    const api = await admin();
    const root = (await api.post('/category', { name: 'Tree root' })).body.data.id;
    const child = (await api.post('/category', { name: 'Tree child', parentId: root })).body.data.id;
    const grandchild = (await api.post('/category', { name: 'Tree grandchild', parentId: child })).body.data.id;
    expectError(await api.patch(`/category/${root}`, { parentId: grandchild }), 400, 'SUITE__CATEGORY_CYCLE');
    expectError(await api.patch(`/category/${root}`, { parentId: root }), 400, 'SUITE__CATEGORY_CYCLE');
    expectError(await api.post('/category', { name: 'Orphan', parentId: newId() }), 400, 'SUITE__UNKNOWN_REFERENCE');
    expectError(await api.post('/category', { name: 'No page', cmsPageId: newId() }), 400, 'SUITE__UNKNOWN_REFERENCE');
    expect((await api.patch(`/category/${grandchild}`, { parentId: null })).body.data.attributes.parentId).to.equal(
      null,
    );
    expect((await api.delete(`/category/${root}`)).status).to.equal(204);
    expectError(await api.get(`/category/${child}`), 404);
    expect((await api.get(`/category/${grandchild}`)).status).to.equal(200);
  });

  it('refuses a landing page URL that is taken', async () => {
    const api = await admin();
    const url = `taken-${unique()}`;
    expect((await api.post('/landing-page', { name: 'A', url })).status).to.equal(201);
    expectError(await api.post('/landing-page', { name: 'B', url }), 400, 'SUITE__DUPLICATE_URL');
  });

  it('validates rule conditions recursively and applies rule changes to the next request', async () => {
    const api = await admin();
    const shop = await getShop();
    const valid = {
      type: 'andContainer',
      children: [
        { type: 'customerLoggedIn', value: true },
        {
          type: 'orContainer',
          children: [
            { type: 'customerTag', operator: '=', value: ['vip'] },
            { type: 'isEmployee', value: true },
          ],
        },
      ],
    };
    const version = await shop.runtime.catalog.visibilityVersion!(shop.db);
    const created = await api.post('/rule', { name: 'VIPs', conditions: valid });
    expect(created.status).to.equal(201);
    expect(created.body.data.attributes.conditions).to.deep.equal(valid);
    expect(await shop.runtime.catalog.visibilityVersion!(shop.db)).to.be.above(version);
    expect(await shop.runtime.rules.exists(shop.db, created.body.data.id)).to.equal(true);

    const invalidNested = {
      type: 'andContainer',
      children: [{ type: 'orContainer', children: [{ type: 'customerGroup', operator: '=' }] }],
    };
    expectError(await api.post('/rule', { name: 'Bad', conditions: invalidNested }), 400, 'SUITE__INVALID_INPUT');
    expectError(await api.post('/rule', { name: 'Bad', conditions: { type: 'andContainer' } }), 400);
    expectError(await api.post('/rule', { name: 'Bad', conditions: { type: 'customerLoggedIn', value: 'yes' } }), 400);
    expectError(await api.post('/rule', { name: 'Bad', conditions: [] }), 400);
    let deep: Record<string, unknown> = { type: 'alwaysValid' };
    for (let i = 0; i < 11; i++) deep = { type: 'notContainer', children: [deep] };
    expectError(await api.post('/rule', { name: 'Deep', conditions: deep }), 400, 'SUITE__CONDITIONS_TOO_DEEP');
    const absurd = `${'{"type":"andContainer","children":['.repeat(4000)}{"type":"alwaysValid"}${']}'.repeat(4000)}`;
    const res = await (
      await http()
    )
      .post('/api/rule')
      .set('authorization', bearer)
      .set('content-type', 'application/json')
      .send(`{"name":"x","conditions":${absurd}}`);
    expectError(res, 400);

    // A filter like the partial assortment's: the product is seen only by contexts matching the rule.
    const ruleId = created.body.data.id;
    const productId = (await api.post('/product', { productNumber: `RV-${unique()}`, name: 'Rule gated', price: 1 }))
      .body.data.id;
    shop.runtime.catalog.addVisibilityFilter(async (_executor, ctx, entity) =>
      entity === 'product' && !(await ctx.ruleIds()).includes(ruleId)
        ? { kind: 'exclude', ids: [productId] }
        : { kind: 'all' },
    );
    const customer = (
      await api.post('/customer', {
        email: `rule-${unique()}@example.test`,
        password: 'secret-password',
        firstName: 'R',
        lastName: 'T',
        tags: ['vip'],
      })
    ).body.data;
    const token = await login(customer.attributes.email, 'secret-password');
    const sees = async () =>
      (await (await http()).get(`/store-api/product/${productId}`).set('suite-context-token', token)).status;
    expect(await sees()).to.equal(200);
    expect((await (await http()).get(`/store-api/product/${productId}`)).status).to.equal(404);
    await api.patch(`/rule/${ruleId}`, { conditions: { type: 'customerTag', operator: '=', value: 'gold' } });
    expect(await sees()).to.equal(404);
    await api.patch(`/customer/${customer.id}`, { tags: ['gold'] });
    expect(await sees()).to.equal(200);
    expect((await api.delete(`/rule/${ruleId}`)).status).to.equal(204);
    expect(await sees()).to.equal(404);
  });

  it('creates customers who can log in, refuses taken e-mails and ends sessions on a new password', async () => {
    const api = await admin();
    const email = `Login-${unique()}@Example.test`;
    const created = await api.post('/customer', {
      email,
      password: 'first-password',
      firstName: 'Lou',
      lastName: 'Login',
      company: 'Login Ltd',
      tags: ['a'],
    });
    expect(created.status).to.equal(201);
    const attributes = created.body.data.attributes;
    expect(attributes).to.include({
      email: email.toLowerCase(),
      firstName: 'Lou',
      company: 'Login Ltd',
      active: true,
      groupId: null,
    });
    expect(attributes.customerNumber).to.be.a('string').and.not.equal('');
    expect(attributes.salesChannelId).to.match(/^[0-9a-f]{32}$/);
    const row = await (await getShop()).db('customers').where({ id: created.body.data.id }).first('password_hash');
    expect(row.password_hash).to.match(/^scrypt\$/);
    const token = await login(email.toLowerCase(), 'first-password');

    const duplicate = expectError(
      await api.post('/customer', {
        email: email.toUpperCase(),
        password: 'other-password',
        firstName: 'A',
        lastName: 'B',
      }),
      400,
      'SUITE__DUPLICATE_EMAIL',
    );
    expect(duplicate.source?.pointer).to.equal('/email');
    expectError(
      await api.post('/customer', {
        email: `x-${unique()}@example.test`,
        password: 'short',
        firstName: 'A',
        lastName: 'B',
      }),
      400,
    );
    expectError(
      await api.post('/customer', {
        email: `x-${unique()}@example.test`,
        password: 'long-enough',
        firstName: 'A',
        lastName: 'B',
        groupId: newId(),
      }),
      400,
      'SUITE__UNKNOWN_REFERENCE',
    );
    expectError(
      await api.post('/customer', {
        email: `x-${unique()}@example.test`,
        password: 'long-enough',
        firstName: 'A',
        lastName: 'B',
        customerNumber: attributes.customerNumber,
      }),
      400,
      'SUITE__DUPLICATE_CUSTOMER_NUMBER',
    );

    expect((await api.patch(`/customer/${created.body.data.id}`, { password: 'second-password' })).status).to.equal(
      200,
    );
    expectError(await (await http()).get('/store-api/account/customer').set('suite-context-token', token), 401);
    await login(email, 'second-password');
  });

  it('refuses to delete a customer group in use, and checks sales channel settings', async () => {
    const api = await admin();
    const groupId = (await api.post('/customer-group', { name: 'Used group' })).body.data.id;
    expect(
      (
        await api.post('/customer', {
          email: `grp-${unique()}@example.test`,
          password: 'secret-password',
          firstName: 'G',
          lastName: 'U',
          groupId,
        })
      ).status,
    ).to.equal(201);
    expectError(await api.delete(`/customer-group/${groupId}`), 400, 'SUITE__ENTITY_IN_USE');
    expect((await api.get(`/customer-group/${groupId}`)).status).to.equal(200);

    expectError(
      await api.post('/sales-channel', {
        name: 'Bad zone',
        currencyIso: 'EUR',
        languageCode: 'de-DE',
        timeZone: 'Mars/Olympus',
      }),
      400,
      'SUITE__INVALID_TIME_ZONE',
    );
    expectError(
      await api.post('/sales-channel', {
        name: 'Bad domain',
        currencyIso: 'EUR',
        languageCode: 'de-DE',
        timeZone: 'UTC',
        domains: ['javascript:alert(1)'],
      }),
      400,
    );
    const channel = await api.post('/sales-channel', {
      name: 'Second',
      currencyIso: 'CHF',
      currencyPrecision: 2,
      languageCode: 'de-CH',
      timeZone: 'Europe/Zurich',
    });
    expect(channel.status).to.equal(201);
    expect(channel.body.data.attributes.accessKey).to.match(/^SWSC[0-9A-F]{24}$/);
    expect(channel.body.data.attributes.domains).to.deep.equal([]);
  });

  it('refuses to deactivate or delete the last active sales channel', async () => {
    const shop = await getShop();
    const api = await admin();
    const active = await shop.db('sales_channels').where({ active: true }).pluck('id');
    const others = active.slice(1);
    // Deactivate every other channel directly, so the default is the only active one for this check.
    await shop.db('sales_channels').whereIn('id', others).update({ active: false, updated_at: nowDb() });
    try {
      expectError(await api.patch(`/sales-channel/${active[0]}`, { active: false }), 400, 'SUITE__LAST_SALES_CHANNEL');
      expectError(await api.delete(`/sales-channel/${active[0]}`), 400);
    } finally {
      await shop.db('sales_channels').whereIn('id', others).update({ active: true });
    }
  });
});
