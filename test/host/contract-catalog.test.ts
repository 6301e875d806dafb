import { expect } from 'chai';
import { VISIBILITY_ID_MARKER, type StoreContext, type VisibilityConstraint } from '../../src/contract/index.js';
import { inTransaction } from '../../src/lib/db.js';
import { newId } from '../../src/lib/ids.js';
import { addToCart, insertProduct, placeOrder, storeContextFor, type TestProduct } from '../helpers/checkout.js';
import { createTestCustomer, getShop, login } from '../helpers/shop.js';
import { moveClock } from '../helpers/clock.js';

/**
 * Contract v2, catalog part: visibility filters answer host-neutral constraints the host applies in
 * its own queries; product searches, id narrowing, look-ups by number, tier quantities, ordered
 * products and CMS pages are contract calls. Called on the runtime as a plugin calls them.
 */
describe('host: contract v2 catalog calls', () => {
  /** The constraint the test filter answers for contexts marked with `catalogTest` (others: all). */
  const answers = new Map<string, (executor: unknown) => VisibilityConstraint>();
  const seenExecutors: unknown[] = [];
  let prefix = '';
  let products: TestProduct[] = [];
  let inactive: TestProduct;

  before(async () => {
    const shop = await getShop();
    shop.runtime.catalog.addVisibilityFilter(async (executor, ctx, entity) => {
      const key = ctx.attributes.catalogTest;
      if (entity !== 'product' || typeof key !== 'string' || !answers.has(key)) return { kind: 'all' };
      seenExecutors.push(executor);
      return answers.get(key)!(executor);
    });
    prefix = `CV${newId().slice(0, 6).toUpperCase()}`;
    products = [];
    for (const [i, name] of ['Anchor bolt', 'Bracket large', 'Clamp', 'Dowel'].entries()) {
      const product = await insertProduct({
        name: `${name} ${prefix}`,
        priceNet: 1000 + i * 100,
        stock: 10 - i,
        tiers:
          i === 0
            ? [
                [10, 900],
                [50, 800],
              ]
            : [],
      });
      await shop
        .db('products')
        .where({ id: product.id })
        .update({ product_number: `${prefix}-${i}`, manufacturer: i % 2 ? 'Acme' : 'Bolt & Co' });
      products.push({ ...product, number: `${prefix}-${i}` });
    }
    inactive = await insertProduct({ name: `Retired ${prefix}`, active: false });
  });

  async function context(answer?: (executor: unknown) => VisibilityConstraint): Promise<StoreContext> {
    const ctx = await storeContextFor((await createTestCustomer()).customer);
    // As the host's request context: rules computed once per context.
    const ruleIds = ctx.ruleIds();
    ctx.ruleIds = () => ruleIds;
    if (answer) {
      const key = newId();
      answers.set(key, answer);
      ctx.attributes.catalogTest = key;
    }
    return ctx;
  }

  const ids = (list: Array<{ id: string }>) => list.map((p) => p.id);

  it('applies exclude, only and sql constraints (the marker standing for the id column), also inside a transaction', async () => {
    const shop = await getShop();
    const all = ids(products);
    const exclude = await context(() => ({ kind: 'exclude', ids: [products[1]!.id] }));
    expect(ids(await shop.runtime.catalog.visibleProducts(shop.runtime.db, exclude, all))).to.deep.equal([
      products[0]!.id,
      products[2]!.id,
      products[3]!.id,
    ]);
    const only = await context(() => ({ kind: 'only', ids: [products[2]!.id] }));
    expect(ids(await shop.runtime.catalog.visibleProducts(shop.runtime.db, only, all))).to.deep.equal([
      products[2]!.id,
    ]);
    const none = await context(() => ({ kind: 'only', ids: [] }));
    expect(await shop.runtime.catalog.visibleProducts(shop.runtime.db, none, all)).to.deep.equal([]);
    const sql = await context(() => ({
      kind: 'sql',
      sql: `${VISIBILITY_ID_MARKER} <> ? and ${VISIBILITY_ID_MARKER} <> ?`,
      bindings: [products[0]!.id, products[3]!.id],
    }));
    expect(ids(await shop.runtime.catalog.visibleProducts(shop.runtime.db, sql, all))).to.deep.equal([
      products[1]!.id,
      products[2]!.id,
    ]);
    // The filter is asked with the connection the host's query runs on: the transaction here.
    seenExecutors.length = 0;
    // Rules are read on the root connection: before the transaction, or SQLite's one connection waits on itself.
    await sql.ruleIds();
    const inside = await inTransaction(shop.db, (trx) => shop.runtime.catalog.visibleProducts(trx, sql, all));
    expect(ids(inside)).to.deep.equal([products[1]!.id, products[2]!.id]);
    expect(seenExecutors).to.have.length(1);
    expect((seenExecutors[0] as { isTransaction?: boolean }).isTransaction).to.equal(true);
  });

  it('the contract has no applyVisibility: plugins answer constraints, the host applies them', async () => {
    const shop = await getShop();
    expect(shop.runtime.catalog).to.not.have.property('applyVisibility');
    expect(shop.runtime.catalog.productCriteriaFields).to.include.members([
      'id',
      'productNumber',
      'name',
      'manufacturer',
      'stock',
      'categoryId',
      'price',
    ]);
  });

  it('searchProducts: criteria, paging and total over active products the context may see; null context: every active product', async () => {
    const shop = await getShop();
    const ctx = await context(() => ({ kind: 'exclude', ids: [products[3]!.id] }));
    const page = await shop.runtime.catalog.searchProducts(shop.db, ctx, {
      filter: [{ type: 'prefix', field: 'productNumber', value: prefix }],
      sort: [{ field: 'stock', order: 'ASC' }],
      limit: 2,
    });
    expect(page.total).to.equal(3);
    expect(ids(page.elements)).to.deep.equal([products[2]!.id, products[1]!.id]);
    expect(page.elements[1]).to.include({ manufacturer: 'Acme', productNumber: `${prefix}-1` });
    const second = await shop.runtime.catalog.searchProducts(shop.db, ctx, {
      filter: [{ type: 'prefix', field: 'productNumber', value: prefix }],
      sort: [{ field: 'stock', order: 'ASC' }],
      limit: 2,
      page: 2,
    });
    expect(ids(second.elements)).to.deep.equal([products[0]!.id]);
    // Money at the edge: a price filter in the currency's unit.
    const pricey = await shop.runtime.catalog.searchProducts(shop.db, ctx, {
      filter: [
        { type: 'prefix', field: 'productNumber', value: prefix },
        { type: 'range', field: 'price', parameters: { gte: 11 } },
      ],
    });
    expect(ids(pricey.elements)).to.deep.equal([products[1]!.id, products[2]!.id]);
    const staff = await shop.runtime.catalog.searchProducts(shop.db, null, { term: prefix, limit: 50 });
    expect(ids(staff.elements)).to.have.members(ids(products));
    expect(ids(staff.elements)).to.not.include(inactive.id);
    try {
      await shop.runtime.catalog.searchProducts(shop.db, ctx, { sort: [{ field: 'categoryId' }] });
      expect.fail('sorting on a to-many field must be refused');
    } catch (error) {
      expect((error as { status?: number }).status).to.equal(400);
    }
  });

  it("searchProducts reads through the executor: inside a transaction it sees the transaction's writes, and the visibility filters get that transaction", async () => {
    const shop = await getShop();
    const ctx = await context(() => ({ kind: 'all' }));
    const renamed = `Renamed ${prefix}`;
    await inTransaction(shop.db, async (trx) => {
      await trx('products').where({ id: inactive.id }).update({ active: true, name: renamed });
      seenExecutors.length = 0;
      const inside = await shop.runtime.catalog.searchProducts(trx, ctx, { term: renamed });
      expect(ids(inside.elements)).to.deep.equal([inactive.id]);
      expect(seenExecutors).to.deep.equal([trx]);
      await trx('products')
        .where({ id: inactive.id })
        .update({ active: false, name: `Retired ${prefix}` });
    });
    expect((await shop.runtime.catalog.searchProducts(shop.db, ctx, { term: renamed })).total).to.equal(0);
  });

  it("searchProducts with alsoMatch: number prefix or name, plus the plugin's matches, ranked exact number first; orderings sort by plugin keys", async () => {
    const shop = await getShop();
    const ctx = await context();
    const term = `${prefix}-2`;
    const plain = await shop.runtime.catalog.searchProducts(
      shop.db,
      ctx,
      { term },
      { alsoMatch: { exact: [], prefix: [] } },
    );
    expect(ids(plain.elements)).to.deep.equal([products[2]!.id]);
    const withPlugin = await shop.runtime.catalog.searchProducts(
      shop.db,
      ctx,
      { term },
      { alsoMatch: { exact: [products[3]!.id], prefix: [products[0]!.id] } },
    );
    expect(ids(withPlugin.elements)).to.deep.equal([products[2]!.id, products[3]!.id, products[0]!.id]);
    const within = await shop.runtime.catalog.searchProducts(
      shop.db,
      ctx,
      { term: prefix },
      { within: [products[1]!.id, products[2]!.id] },
    );
    expect(ids(within.elements)).to.deep.equal([products[1]!.id, products[2]!.id]);
    const keys = new Map([
      [products[0]!.id, 3],
      [products[1]!.id, 1],
      [products[2]!.id, 2],
    ]);
    const byKey = await shop.runtime.catalog.searchProducts(
      shop.db,
      ctx,
      { term: prefix, sort: [{ field: 'figure', order: 'DESC' }] },
      { orderings: { figure: keys } },
    );
    expect(ids(byKey.elements)).to.deep.equal([products[0]!.id, products[2]!.id, products[1]!.id, products[3]!.id]);
    const byDefault = await shop.runtime.catalog.searchProducts(
      shop.db,
      ctx,
      { term: prefix },
      { orderings: { figure: keys }, defaultSort: [{ field: 'figure', order: 'asc' }] },
    );
    expect(ids(byDefault.elements)).to.deep.equal([products[3]!.id, products[1]!.id, products[2]!.id, products[0]!.id]);
  });

  it('productIds: the matching ids of a candidate set, in the asked order; visibility and state only with a context', async () => {
    const shop = await getShop();
    const ctx = await context(() => ({ kind: 'exclude', ids: [products[0]!.id] }));
    const within = [...ids(products), inactive.id, newId()];
    expect(
      await shop.runtime.catalog.productIds(shop.runtime.db, ctx, { within, sort: [{ field: 'name', order: 'DESC' }] }),
    ).to.deep.equal([products[3]!.id, products[2]!.id, products[1]!.id]);
    expect(
      await shop.runtime.catalog.productIds(shop.runtime.db, null, {
        within,
        filter: [{ type: 'equals', field: 'manufacturer', value: 'Acme' }],
      }),
    ).to.have.members([products[1]!.id, products[3]!.id]);
    expect(await shop.runtime.catalog.productIds(shop.runtime.db, null, { within, term: 'retired' })).to.deep.equal([
      inactive.id,
    ]);
    expect(await shop.runtime.catalog.productIds(shop.runtime.db, ctx, { within, term: 'retired' })).to.deep.equal([]);
    expect(await shop.runtime.catalog.productIds(shop.runtime.db, ctx, { within: [] })).to.deep.equal([]);
  });

  it('productIds without criteria: the visible ids in the given order, remembered until visibility changes (visibilityChanged), never inside a transaction', async () => {
    const shop = await getShop();
    let hidden = [products[1]!.id];
    const ctx = await context(() => ({ kind: 'exclude', ids: hidden }));
    const within = [products[3]!.id, products[0]!.id, products[1]!.id, products[2]!.id, inactive.id, newId()];
    const visible = () => shop.runtime.catalog.productIds(shop.runtime.db, ctx, { within });
    expect(await visible()).to.deep.equal([products[3]!.id, products[0]!.id, products[2]!.id]);
    expect(await visible(), 'asked again').to.deep.equal([products[3]!.id, products[0]!.id, products[2]!.id]);
    // Another answer of the filter is another set of verdicts.
    hidden = [products[2]!.id];
    expect(await visible()).to.deep.equal([products[3]!.id, products[0]!.id, products[1]!.id]);
    try {
      await inTransaction(shop.db, async (trx) => {
        await trx('products').where({ id: products[3]!.id }).update({ active: false });
        expect(await shop.runtime.catalog.productIds(trx, ctx, { within }), 'inside the transaction').to.deep.equal([
          products[0]!.id,
          products[1]!.id,
        ]);
        await shop.runtime.catalog.visibilityChanged(trx);
      });
      expect(await visible(), 'after the counted change').to.deep.equal([products[0]!.id, products[1]!.id]);
    } finally {
      await shop.db('products').where({ id: products[3]!.id }).update({ active: true });
      await shop.runtime.catalog.visibilityChanged(shop.db);
    }
    expect(await visible()).to.deep.equal([products[3]!.id, products[0]!.id, products[1]!.id]);
  });

  it('3.3: a frozen list asked about again is answered from the kept answer while its verdicts stand, and anew after a change', async () => {
    const shop = await getShop();
    let hidden = [products[1]!.id];
    const ctx = await context(() => ({ kind: 'exclude', ids: hidden }));
    const within = Object.freeze([
      products[3]!.id,
      products[0]!.id,
      products[1]!.id,
      products[3]!.id,
      'not-an-id',
      products[2]!.id,
      inactive.id,
    ]) as string[];
    const visible = () => shop.runtime.catalog.productIds(shop.runtime.db, ctx, { within });
    const first = await visible();
    expect(first).to.deep.equal([products[3]!.id, products[0]!.id, products[2]!.id]);
    const again = await visible();
    expect(again, 'the kept answer').to.equal(first);
    expect(Object.isFrozen(again)).to.equal(true);
    hidden = [products[2]!.id];
    expect(await visible(), 'another answer of the filter').to.deep.equal([
      products[3]!.id,
      products[0]!.id,
      products[1]!.id,
    ]);
    try {
      await shop.db('products').where({ id: products[0]!.id }).update({ active: false });
      await shop.runtime.catalog.visibilityChanged(shop.db);
      expect(await visible(), 'after a counted change').to.deep.equal([products[3]!.id, products[1]!.id]);
    } finally {
      await shop.db('products').where({ id: products[0]!.id }).update({ active: true });
      await shop.runtime.catalog.visibilityChanged(shop.db);
    }
    // A list that is not frozen is never answered with a kept array.
    const open = [products[3]!.id, products[0]!.id];
    const a = await shop.runtime.catalog.productIds(shop.runtime.db, ctx, { within: open });
    const b = await shop.runtime.catalog.productIds(shop.runtime.db, ctx, { within: open });
    expect(b).to.deep.equal(a);
    expect(b).to.not.equal(a);
  });

  it('looks visible products up by exact number, and tells tier quantities', async () => {
    const shop = await getShop();
    const ctx = await context(() => ({ kind: 'exclude', ids: [products[1]!.id] }));
    const numbers = [
      products[0]!.number,
      products[1]!.number,
      products[2]!.number.toLowerCase(),
      inactive.number,
      'NO-SUCH-NUMBER',
    ];
    expect(ids(await shop.runtime.catalog.visibleProductsByNumber(shop.runtime.db, ctx, numbers))).to.deep.equal([
      products[0]!.id,
    ]);
    const tiers = await shop.runtime.catalog.tierQuantities(shop.db, [products[0]!.id, products[1]!.id]);
    expect([...tiers]).to.deep.equal([[products[0]!.id, [10, 50]]]);
  });

  it("orders.orderedProductIds: per product of a customer's orders the last date, quantity and order count, newest first, by placer and limit", async () => {
    const shop = await getShop();
    const { customer, email, password } = await createTestCustomer();
    const token = await login(email, password);
    expect(
      (
        await addToCart(token, [
          { productId: products[0]!.id, quantity: 2 },
          { productId: products[1]!.id, quantity: 1 },
        ])
      ).status,
    ).to.equal(200);
    expect((await placeOrder(token)).status).to.equal(200);
    moveClock(1100);
    expect((await addToCart(token, [{ productId: products[0]!.id, quantity: 3 }])).status).to.equal(200);
    expect((await placeOrder(token)).status).to.equal(200);
    const ordered = await shop.runtime.orders.orderedProductIds(shop.db, { customerId: customer.id, limit: 10 });
    expect(ordered.map((p) => [p.productId, p.totalQuantity, p.orderCount])).to.deep.equal([
      [products[0]!.id, 5, 2],
      [products[1]!.id, 1, 1],
    ]);
    expect(new Date(ordered[0]!.lastOrderDate).getTime()).to.be.greaterThan(
      new Date(ordered[1]!.lastOrderDate).getTime(),
    );
    expect(await shop.runtime.orders.orderedProductIds(shop.db, { customerId: customer.id, limit: 1 })).to.have.length(
      1,
    );
    expect(
      await shop.runtime.orders.orderedProductIds(shop.db, {
        customerId: customer.id,
        placedBy: { type: 'employee', id: newId() },
        limit: 10,
      }),
    ).to.deep.equal([]);
    expect(
      await shop.runtime.orders.orderedProductIds(shop.db, {
        customerId: customer.id,
        placedBy: { type: 'customer', id: customer.id },
        limit: 10,
      }),
    ).to.have.length(2);
  });
  it('2.2: variants answers the family a context may see (from the main product or a variant), hidden or inactive like unknown, inside a transaction too', async () => {
    const shop = await getShop();
    const group = newId();
    await shop
      .db('property_groups')
      .insert({ id: group, name: `Size ${prefix}`, position: 0, created_at: '2026-01-01 00:00:00.000' });
    const [small, large] = [newId(), newId()];
    await shop.db('property_group_options').insert([
      { id: small, group_id: group, name: 'S', position: 0, created_at: '2026-01-01 00:00:00.000' },
      { id: large, group_id: group, name: 'L', position: 1, created_at: '2026-01-01 00:00:00.000' },
    ]);
    const main = await insertProduct({ name: `Shirt ${prefix}` });
    const variants = [await insertProduct(), await insertProduct(), await insertProduct()];
    for (const [i, variant] of variants.entries()) {
      await shop
        .db('products')
        .where({ id: variant.id })
        .update({ parent_id: main.id, product_number: `${prefix}-V${i}` });
      await shop.db('product_options').insert({ product_id: variant.id, option_id: i === 1 ? large : small });
    }
    const everyone = await context();
    const family = await shop.runtime.catalog.variants(shop.runtime.db, everyone, variants[1]!.id);
    expect(family!.main.id).to.equal(main.id);
    expect(ids(family!.variants)).to.deep.equal(ids(variants));
    expect(family!.variants[1]!.options).to.deep.equal([
      { groupId: group, groupName: `Size ${prefix}`, optionId: large, optionName: 'L' },
    ]);
    const withoutFirst = await context(() => ({ kind: 'exclude', ids: [variants[0]!.id] }));
    expect(
      ids((await inTransaction(shop.db, (trx) => shop.runtime.catalog.variants(trx, withoutFirst, main.id)))!.variants),
    ).to.deep.equal([variants[1]!.id, variants[2]!.id]);
    expect(await shop.runtime.catalog.variants(shop.runtime.db, withoutFirst, variants[0]!.id)).to.equal(null);
    const withoutMain = await context(() => ({ kind: 'exclude', ids: [main.id] }));
    expect(await shop.runtime.catalog.variants(shop.runtime.db, withoutMain, variants[2]!.id)).to.equal(null);
    expect(await shop.runtime.catalog.variants(shop.runtime.db, everyone, inactive.id)).to.equal(null);
    expect(await shop.runtime.catalog.variants(shop.runtime.db, everyone, newId())).to.equal(null);
    expect(await shop.runtime.catalog.variants(shop.runtime.db, everyone, 'not-an-id')).to.equal(null);
  });

  it('2.2: propertySimilarProducts ranks visible products by shared property values, the own family left out, limited', async () => {
    const shop = await getShop();
    const group = newId();
    await shop
      .db('property_groups')
      .insert({ id: group, name: `Material ${prefix}`, position: 0, created_at: '2026-01-01 00:00:00.000' });
    const options = [newId(), newId(), newId()];
    await shop.db('property_group_options').insert(
      options.map((id, i) => ({
        id,
        group_id: group,
        name: `M${i}`,
        position: i,
        created_at: '2026-01-01 00:00:00.000',
      })),
    );
    const [subject, sibling, best, second, hidden] = [
      await insertProduct(),
      await insertProduct(),
      await insertProduct(),
      await insertProduct(),
      await insertProduct(),
    ];
    await shop.db('products').where({ id: sibling.id }).update({ parent_id: subject.id });
    const link = (product: TestProduct, which: number[]) =>
      shop.db('product_properties').insert(which.map((i) => ({ product_id: product.id, option_id: options[i] })));
    await link(subject, [0, 1, 2]);
    await link(sibling, [0, 1, 2]);
    await link(best, [0, 1]);
    await link(second, [2]);
    await link(hidden, [0, 1, 2]);
    const ctx = await context(() => ({ kind: 'exclude', ids: [hidden.id] }));
    const similar = await shop.runtime.catalog.propertySimilarProducts(shop.runtime.db, ctx, subject.id, { limit: 10 });
    expect(similar!.properties.map((p) => p.optionName)).to.deep.equal(['M0', 'M1', 'M2']);
    expect(similar!.products.map((p) => [p.product.id, p.shared.length])).to.deep.equal([
      [best.id, 2],
      [second.id, 1],
    ]);
    expect(
      (await shop.runtime.catalog.propertySimilarProducts(shop.runtime.db, ctx, subject.id, { limit: 1 }))!.products,
    ).to.have.length(1);
    expect(await shop.runtime.catalog.propertySimilarProducts(shop.runtime.db, ctx, hidden.id, { limit: 10 })).to.equal(
      null,
    );
  });
});
