import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { writeJson } from '../../src/lib/db.js';
import { nowDb } from '../../src/lib/time.js';
import { seedDemoCatalog } from '../../src/host/catalog/demo-catalog.js';
import { createTestCustomer, expectError, getShop, http, login } from '../helpers/shop.js';

interface ProductInput {
  name: string;
  number?: string;
  priceNet?: number;
  stock?: number;
  active?: boolean;
  taxRateBp?: number;
  categoryIds?: string[];
  tiers?: Array<[number, number]>;
}

async function insertProduct(input: ProductInput): Promise<string> {
  const db = (await getShop()).db;
  const id = newId();
  await db('products').insert({
    id,
    version_id: newId(),
    product_number: input.number ?? `T-${id.slice(0, 12)}`,
    name: input.name,
    description: `About ${input.name}`,
    stock: input.stock ?? 10,
    active: input.active ?? true,
    tax_rate_bp: input.taxRateBp ?? 1900,
    price_net: input.priceNet ?? 1000,
    created_at: nowDb(),
  });
  for (const categoryId of input.categoryIds ?? [])
    await db('product_categories').insert({ product_id: id, category_id: categoryId });
  for (const [minQuantity, priceNet] of input.tiers ?? [])
    await db('product_tier_prices').insert({
      id: newId(),
      product_id: id,
      min_quantity: minQuantity,
      price_net: priceNet,
    });
  return id;
}

async function insertCategory(
  name: string,
  parentId: string | null,
  position = 0,
  active = true,
  cmsPageId: string | null = null,
): Promise<string> {
  const id = newId();
  await (await getShop()).db('categories').insert({
    id,
    version_id: newId(),
    parent_id: parentId,
    name,
    position,
    active,
    cms_page_id: cmsPageId,
    created_at: nowDb(),
  });
  return id;
}

async function insertCmsPage(sections: unknown[]): Promise<string> {
  const id = newId();
  await (
    await getShop()
  )
    .db('cms_pages')
    .insert({ id, name: 'Test page', title: 'Test title', sections: writeJson(sections), created_at: nowDb() });
  return id;
}

const nameFilter = (token: string) => [{ type: 'contains', field: 'name', value: token }];

/** Ids hidden from every context except customers tagged "insider"; registered once for this file. */
const hiddenIds = new Set<string>();
let filterRegistered = false;
async function hideFromOutsiders(...ids: string[]): Promise<void> {
  const shop = await getShop();
  for (const id of ids) hiddenIds.add(id);
  if (filterRegistered) return;
  filterRegistered = true;
  shop.runtime.catalog.addVisibilityFilter(async (_executor, ctx) =>
    ctx.customer?.tags.includes('insider') ? { kind: 'all' } : { kind: 'exclude', ids: [...hiddenIds] },
  );
}

describe('host: catalog Store API', () => {
  it('lists products by criteria with prices for the caller, sorted and paged', async () => {
    const token = newId().slice(0, 10);
    await insertProduct({ name: `${token} Drill`, priceNet: 12345, stock: 3 });
    await insertProduct({ name: `${token} Hammer`, priceNet: 999, stock: 0, taxRateBp: 700 });
    await insertProduct({ name: `${token} Saw`, priceNet: 5000 });
    await insertProduct({ name: `${token} Retired`, active: false });
    const agent = await http();
    const res = await agent
      .post('/store-api/product')
      .send({ filter: nameFilter(token), sort: [{ field: 'price', order: 'DESC' }] });
    expect(res.status).to.equal(200);
    expect(res.body.total).to.equal(3);
    expect(res.body.elements.map((p: { name: string }) => p.name)).to.deep.equal([
      `${token} Drill`,
      `${token} Saw`,
      `${token} Hammer`,
    ]);
    const drill = res.body.elements[0];
    expect(drill).to.include({ stock: 3, available: true, active: true, taxRate: 19 });
    expect(drill.calculatedPrice).to.deep.equal({
      unitPrice: 123.45,
      totalPrice: 123.45,
      quantity: 1,
      netPrice: 123.45,
      taxAmount: 23.46,
      grossPrice: 146.91,
      taxRate: 19,
      source: 'list',
    });
    expect(res.body.elements[2]).to.include({ available: false, taxRate: 7 });

    const page2 = await agent.post('/store-api/product').send({ filter: nameFilter(token), limit: 2, page: 2 });
    expect(page2.body.total).to.equal(3);
    expect(page2.body.elements.map((p: { name: string }) => p.name)).to.deep.equal([`${token} Saw`]);

    const cheap = await agent
      .post('/store-api/product')
      .send({ filter: [...nameFilter(token), { type: 'range', field: 'price', parameters: { lte: 50 } }] });
    expect(cheap.body.elements.map((p: { name: string }) => p.name)).to.deep.equal([`${token} Hammer`, `${token} Saw`]);
    const inStock = await agent
      .post('/store-api/product')
      .send({ filter: [...nameFilter(token), { type: 'range', field: 'stock', parameters: { gt: 0 } }] });
    expect(inStock.body.total).to.equal(2);
  });

  it('filters products by category and shows their category ids', async () => {
    const category = await insertCategory('Filter category', null);
    const token = newId().slice(0, 10);
    const inCategory = await insertProduct({ name: `${token} in`, categoryIds: [category] });
    await insertProduct({ name: `${token} out` });
    const res = await (
      await http()
    )
      .post('/store-api/product')
      .send({ filter: [{ type: 'equals', field: 'categoryId', value: category }] });
    expect(res.status).to.equal(200);
    expect(res.body.elements.map((p: { id: string }) => p.id)).to.deep.equal([inCategory]);
    expect(res.body.elements[0].categoryIds).to.deep.equal([category]);
  });

  it('prices a listing page with the tier price for quantity 1, shows every category id, and a changed tier price on the next request', async () => {
    const [first, second] = [
      await insertCategory('Tier category A', null),
      await insertCategory('Tier category B', null),
    ];
    const token = newId().slice(0, 10);
    const fromOne = await insertProduct({
      name: `${token} a from one`,
      priceNet: 1000,
      tiers: [
        [5, 800],
        [1, 900],
      ],
      categoryIds: [second, first],
    });
    const fromTen = await insertProduct({ name: `${token} b from ten`, priceNet: 1000, tiers: [[10, 700]] });
    const agent = await http();
    const list = async () =>
      (await agent.post('/store-api/product').send({ filter: nameFilter(token) })).body.elements as Array<{
        id: string;
        categoryIds: string[];
        calculatedPrice: { unitPrice: number; source: string };
      }>;
    const [a, b] = await list();
    expect(a).to.include({ id: fromOne });
    expect(a!.calculatedPrice).to.include({ unitPrice: 9, source: 'tier' });
    expect(a!.categoryIds).to.deep.equal([first, second].sort());
    expect(b).to.include({ id: fromTen });
    expect(b!.calculatedPrice).to.include({ unitPrice: 10, source: 'list' });
    expect(b!.categoryIds).to.deep.equal([]);

    const db = (await getShop()).db;
    await db('product_tier_prices').where({ product_id: fromOne, min_quantity: 1 }).update({ price_net: 850 });
    await db('product_tier_prices').insert({ id: newId(), product_id: fromTen, min_quantity: 1, price_net: 950 });
    const [a2, b2] = await list();
    expect(a2!.calculatedPrice).to.include({ unitPrice: 8.5, source: 'tier' });
    expect(b2!.calculatedPrice).to.include({ unitPrice: 9.5, source: 'tier' });
    const read = await agent.get(`/store-api/product/${fromOne}`);
    expect(read.body.tierPrices).to.deep.equal([
      { minQuantity: 1, unitPrice: 8.5 },
      { minQuantity: 5, unitPrice: 8 },
    ]);
  });

  it('shows one product with its tier prices and answers 404 for inactive or unknown products', async () => {
    const id = await insertProduct({
      name: 'Tiered screws',
      priceNet: 200,
      tiers: [
        [10, 180],
        [100, 150],
      ],
    });
    const inactive = await insertProduct({ name: 'Inactive screws', active: false });
    const agent = await http();
    const res = await agent.get(`/store-api/product/${id}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ id, name: 'Tiered screws' });
    expect(res.body.tierPrices).to.deep.equal([
      { minQuantity: 10, unitPrice: 1.8 },
      { minQuantity: 100, unitPrice: 1.5 },
    ]);
    expect(res.body.calculatedPrice).to.include({ unitPrice: 2, source: 'list' });
    expectError(await agent.get(`/store-api/product/${inactive}`), 404, 'SUITE__NOT_FOUND');
    expectError(await agent.get(`/store-api/product/${newId()}`), 404, 'SUITE__NOT_FOUND');
    expectError(await agent.get('/store-api/product/not-an-id'), 400, 'SUITE__INVALID_INPUT');
  });

  it('searches products by name or number', async () => {
    const token = newId().slice(0, 10);
    const byName = await insertProduct({ name: `Widget ${token}` });
    const byNumber = await insertProduct({ name: 'Gadget', number: `N-${token}` });
    const agent = await http();
    const res = await agent.post('/store-api/search').send({ search: token });
    expect(res.status).to.equal(200);
    expect(res.body.elements.map((p: { id: string }) => p.id).sort()).to.deep.equal([byName, byNumber].sort());
    const limited = await agent
      .post('/store-api/search')
      .send({ search: token, filter: [{ type: 'equals', field: 'productNumber', value: `N-${token}` }] });
    expect(limited.body.elements.map((p: { id: string }) => p.id)).to.deep.equal([byNumber]);
    const percent = await insertProduct({ name: `${token} 100%_off!` });
    await insertProduct({ name: `${token} 1000 off` });
    for (const literal of ['100%', '%_off', '0%_o', 'off!']) {
      const found = await agent.post('/store-api/search').send({ search: literal, filter: nameFilter(token) });
      expect(
        found.body.elements.map((p: { id: string }) => p.id),
        literal,
      ).to.deep.equal([percent]);
    }
    expectError(await agent.post('/store-api/search').send({}), 400, 'SUITE__INVALID_INPUT');
    expectError(await agent.post('/store-api/search').send({ search: '   ' }), 400);
  });

  it('lists the products of a category and its subcategories', async () => {
    const root = await insertCategory('Listing root', null);
    const child = await insertCategory('Listing child', root);
    const other = await insertCategory('Listing other', null);
    const inactive = await insertCategory('Listing inactive', root, 1, false);
    const direct = await insertProduct({ name: 'Direct item', categoryIds: [root] });
    const nested = await insertProduct({ name: 'Nested item', categoryIds: [child, other] });
    await insertProduct({ name: 'Other item', categoryIds: [other] });
    await insertProduct({ name: 'Inactive category item', categoryIds: [inactive] });
    const agent = await http();
    const res = await agent.post(`/store-api/product-listing/${root}`).send({});
    expect(res.status).to.equal(200);
    expect(res.body.total).to.equal(2);
    expect(res.body.elements.map((p: { id: string }) => p.id)).to.deep.equal([direct, nested]);
    const childOnly = await agent.post(`/store-api/product-listing/${child}`).send({ limit: 1 });
    expect(childOnly.body.elements.map((p: { id: string }) => p.id)).to.deep.equal([nested]);
    expectError(await agent.post(`/store-api/product-listing/${inactive}`).send({}), 404);
    expectError(await agent.post(`/store-api/product-listing/${newId()}`).send({}), 404);
  });

  it('reads categories, lists them by criteria and builds the navigation tree to a depth', async () => {
    const cms = await insertCmsPage([{ type: 'text', content: 'Welcome to tools' }]);
    const root = await insertCategory('Nav root', null, 0, true, cms);
    const a = await insertCategory('Nav A', root, 2);
    const b = await insertCategory('Nav B', root, 1);
    const a1 = await insertCategory('Nav A1', a, 0);
    await insertCategory('Nav A off', a, 1, false);
    await insertCategory('Nav A1 deep', a1, 0);
    const agent = await http();

    const category = await agent.get(`/store-api/category/${root}`);
    expect(category.status).to.equal(200);
    expect(category.body).to.include({ id: root, name: 'Nav root', parentId: null, cmsPageId: cms });
    expect(category.body.cmsPage.sections).to.deep.equal([{ type: 'text', content: 'Welcome to tools' }]);

    const list = await agent
      .post('/store-api/category')
      .send({ filter: [{ type: 'equals', field: 'parentId', value: root }] });
    expect(list.status).to.equal(200);
    expect(list.body.elements.map((c: { id: string }) => c.id)).to.deep.equal([b, a]);

    const one = await agent.get(`/store-api/navigation/${root}`).query({ depth: 1 });
    expect(one.status).to.equal(200);
    expect(one.body.map((n: { name: string }) => n.name)).to.deep.equal(['Nav B', 'Nav A']);
    expect(one.body[1]).to.include({ level: 1, childCount: 1 });
    expect(one.body[1].children).to.deep.equal([]);
    const two = await agent.get(`/store-api/navigation/${root}?depth=2`);
    expect(two.body[1].children.map((n: { name: string }) => n.name)).to.deep.equal(['Nav A1']);
    expect(two.body[1].children[0]).to.include({ level: 2, childCount: 1 });
    expect(two.body[1].children[0].children).to.deep.equal([]);
    const top = await agent.get('/store-api/navigation/main-navigation?depth=1');
    expect(top.status).to.equal(200);
    expect(top.body.some((n: { id: string }) => n.id === root)).to.equal(true);
    expect(top.body.every((n: { parentId: string | null }) => n.parentId === null)).to.equal(true);

    expectError(await agent.get(`/store-api/navigation/${root}?depth=0`), 400);
    expectError(await agent.get(`/store-api/navigation/${root}?depth=abc`), 400);
    expectError(await agent.get('/store-api/navigation/somewhere'), 400);
    expectError(await agent.get(`/store-api/navigation/${newId()}`), 404);
    expectError(await agent.get(`/store-api/category/${newId()}`), 404);
  });

  it('shows a landing page with its CMS sections and only visible products in them', async () => {
    const shown = await insertProduct({ name: 'Landing shown' });
    const hidden = await insertProduct({ name: 'Landing hidden' });
    await hideFromOutsiders(hidden);
    const cms = await insertCmsPage([
      { type: 'text', content: 'Spring sale' },
      { type: 'product-listing', productIds: [hidden, shown] },
    ]);
    const id = newId();
    const db = (await getShop()).db;
    await db('landing_pages').insert({
      id,
      version_id: newId(),
      name: 'Spring',
      url: `spring-${id}`,
      active: true,
      cms_page_id: cms,
      created_at: nowDb(),
    });
    const inactive = newId();
    await db('landing_pages').insert({
      id: inactive,
      version_id: newId(),
      name: 'Old',
      url: `old-${inactive}`,
      active: false,
      created_at: nowDb(),
    });
    const agent = await http();
    const res = await agent.get(`/store-api/landing-page/${id}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ id, name: 'Spring', url: `spring-${id}` });
    expect(res.body.cmsPage.title).to.equal('Test title');
    expect(res.body.cmsPage.sections[0]).to.deep.equal({ type: 'text', content: 'Spring sale' });
    expect(res.body.cmsPage.sections[1].products.map((p: { id: string }) => p.id)).to.deep.equal([shown]);
    expectError(await agent.get(`/store-api/landing-page/${inactive}`), 404);
    expectError(await agent.get(`/store-api/landing-page/${newId()}`), 404);
  });

  it('hides what a visibility filter hides, on every route, and shows it to the contexts it allows', async () => {
    const token = newId().slice(0, 10);
    const root = await insertCategory(`Vis ${token}`, null);
    const hiddenCategory = await insertCategory(`Vis hidden ${token}`, root);
    const under = await insertCategory(`Vis under hidden ${token}`, hiddenCategory);
    const visible = await insertProduct({ name: `${token} open`, categoryIds: [root] });
    const hidden = await insertProduct({ name: `${token} secret`, categoryIds: [root] });
    const inHiddenCategory = await insertProduct({ name: `${token} under`, categoryIds: [under] });
    const landing = newId();
    await (await getShop()).db('landing_pages').insert({
      id: landing,
      version_id: newId(),
      name: 'Insiders',
      url: `insiders-${landing}`,
      active: true,
      created_at: nowDb(),
    });
    await hideFromOutsiders(hidden, hiddenCategory, landing);
    const insider = await createTestCustomer({ tags: ['insider'] });
    const outsider = await createTestCustomer({ tags: [] });
    const insiderToken = await login(insider.email, insider.password);
    const outsiderToken = await login(outsider.email, outsider.password);
    const agent = await http();

    for (const [who, headers] of [
      ['guest', {}],
      ['outsider', { 'suite-context-token': outsiderToken }],
    ] as const) {
      const list = await agent
        .post('/store-api/product')
        .set(headers)
        .send({ filter: nameFilter(token) });
      expect(
        list.body.elements.map((p: { id: string }) => p.id),
        who,
      ).to.deep.equal([visible, inHiddenCategory]);
      expectError(await agent.get(`/store-api/product/${hidden}`).set(headers), 404);
      expect(
        (
          await agent
            .post('/store-api/search')
            .set(headers)
            .send({ search: `${token} secret` })
        ).body.total,
        who,
      ).to.equal(0);
      expectError(await agent.get(`/store-api/category/${hiddenCategory}`).set(headers), 404);
      expectError(await agent.post(`/store-api/product-listing/${hiddenCategory}`).set(headers).send({}), 404);
      const listing = await agent.post(`/store-api/product-listing/${root}`).set(headers).send({});
      expect(
        listing.body.elements.map((p: { id: string }) => p.id),
        who,
      ).to.deep.equal([visible]);
      const nav = await agent.get(`/store-api/navigation/${root}?depth=3`).set(headers);
      expect(nav.body, who).to.deep.equal([]);
      expectError(await agent.get(`/store-api/landing-page/${landing}`).set(headers), 404);
    }

    const headers = { 'suite-context-token': insiderToken };
    const list = await agent
      .post('/store-api/product')
      .set(headers)
      .send({ filter: nameFilter(token) });
    expect(list.body.total).to.equal(3);
    expect((await agent.get(`/store-api/product/${hidden}`).set(headers)).status).to.equal(200);
    expect((await agent.get(`/store-api/category/${hiddenCategory}`).set(headers)).status).to.equal(200);
    const listing = await agent.post(`/store-api/product-listing/${root}`).set(headers).send({});
    expect(listing.body.total).to.equal(3);
    const nav = await agent.get(`/store-api/navigation/${root}?depth=3`).set(headers);
    expect(nav.body[0].id).to.equal(hiddenCategory);
    expect(nav.body[0].children[0].id).to.equal(under);
    expect((await agent.get(`/store-api/landing-page/${landing}`).set(headers)).status).to.equal(200);
  });

  it('answers 400 for criteria it cannot run, never 500', async () => {
    const agent = await http();
    expectError(await agent.post('/store-api/product').send({ limit: 501 }), 400, 'SUITE__INVALID_INPUT');
    expectError(await agent.post('/store-api/product').send({ limit: 0 }), 400);
    expectError(await agent.post('/store-api/product').send({ page: 0 }), 400);
    expectError(
      await agent.post('/store-api/product').send({ filter: [{ type: 'equals', field: 'secret', value: 1 }] }),
      400,
    );
    expectError(
      await agent.post('/store-api/product').send({ filter: [{ type: 'regex', field: 'name', value: '.*' }] }),
      400,
    );
    expectError(
      await agent.post('/store-api/product').send({ filter: [{ type: 'equals', field: 'price', value: 'cheap' }] }),
      400,
      'SUITE__INVALID_CRITERIA_VALUE',
    );
    expectError(
      await agent.post('/store-api/product').send({ filter: [{ type: 'contains', field: 'price', value: '1' }] }),
      400,
      'SUITE__INVALID_CRITERIA_VALUE',
    );
    expectError(
      await agent.post('/store-api/product').send({ sort: [{ field: 'categoryId' }] }),
      400,
      'SUITE__UNSORTABLE_FIELD',
    );
    expectError(
      await agent
        .post('/store-api/product')
        .send({ filter: [{ type: 'range', field: 'createdAt', parameters: { gte: 'yesterday' } }] }),
      400,
    );
    let deep: Record<string, unknown> = { type: 'equals', field: 'name', value: 'x' };
    for (let i = 0; i < 12; i++) deep = { type: 'multi', operator: 'or', queries: [deep] };
    expectError(await agent.post('/store-api/product').send({ filter: [deep] }), 400, 'SUITE__CRITERIA_TOO_DEEP');
    const absurd = `${'{"type":"multi","queries":['.repeat(3000)}{"type":"equals","field":"name","value":"x"}${']}'.repeat(3000)}`;
    expectError(
      await agent.post('/store-api/product').set('content-type', 'application/json').send(`{"filter":[${absurd}]}`),
      400,
    );
    expectError(await agent.post('/store-api/category').send({ limit: 501 }), 400);
    expectError(
      await agent.post('/store-api/category').send({ filter: [{ type: 'equals', field: 'price', value: 1 }] }),
      400,
    );
  });

  it('seeds a demo catalog once: a category tree, 50 products, tier prices, a landing page and rules', async () => {
    const shop = await getShop();
    const seeded = await seedDemoCatalog(shop.db);
    expect(seeded.productIds).to.have.length(50);
    expect(seeded.categoryIds).to.have.length(6);
    expect(await seedDemoCatalog(shop.db)).to.deep.equal(seeded);
    expect(
      await shop
        .db('products')
        .whereIn('id', seeded.productIds)
        .count({ n: '*' })
        .first()
        .then((r) => Number(r?.n)),
    ).to.equal(50);

    const agent = await http();
    const nav = await agent.get('/store-api/navigation/main-navigation?depth=2');
    const tools = nav.body.find((n: { id: string }) => n.id === seeded.categoryIds[0]);
    expect(tools.name).to.equal('Tools');
    expect(tools.children.map((n: { name: string }) => n.name)).to.deep.equal(['Power tools', 'Hand tools']);
    const listing = await agent.post(`/store-api/product-listing/${seeded.categoryIds[0]}`).send({ limit: 100 });
    expect(listing.body.total).to.equal(20);
    const withTiers = await agent.get(`/store-api/product/${seeded.productIds[0]}`);
    expect(withTiers.body.tierPrices).to.have.length(2);
    expect(withTiers.body.productNumber).to.equal('DEMO-10001');
    const category = await agent.get(`/store-api/category/${seeded.categoryIds[0]}`);
    expect(category.body.cmsPage.sections[1].products).to.have.length(4);
    const landing = await shop.db('landing_pages').where({ url: 'spring-sale' }).first('id');
    const page = await agent.get(`/store-api/landing-page/${landing.id}`);
    expect(page.status).to.equal(200);
    expect(page.body.cmsPage.sections.map((section: { type: string }) => section.type)).to.deep.equal([
      'text',
      'image',
      'product-listing',
    ]);
    const rules = await shop
      .db('rules')
      .whereIn('name', ['Business customers', 'Employees', 'Logged in'])
      .pluck('name');
    expect([...new Set(rules)].sort()).to.deep.equal(['Business customers', 'Employees', 'Logged in']);
  });
});
