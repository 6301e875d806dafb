import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { nowDb } from '../../../src/lib/time.js';
import { MAX_LISTS_PER_CUSTOMER } from '../../../src/plugin/product-list/schemas.js';
import { expectError, getShop } from '../../helpers/shop.js';
import {
  as,
  employeeWith,
  hide,
  newCustomer,
  product,
  setNumber,
  type Customer,
  type Product,
} from '../fast-order/helpers.js';

interface Item {
  id: string;
  articleNumber: string;
  productId: string;
  comment: string | null;
  position: number;
  quantity: number;
  customFields: Record<string, unknown>;
}

async function createList(
  token: string,
  body: Record<string, unknown> = {},
): Promise<{ id: string; name: string; type: string | null; items: Item[] }> {
  const res = await (await as(token)).post('/product-lists/create', body);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  // The created list's id also at the top level, where clients written for the platform read it.
  expect(res.body.id).to.be.a('string').and.equal(res.body.productList.id);
  return res.body.productList;
}

async function readList(
  token: string,
  id: string,
): Promise<{ id: string; name: string; itemCount: number; items: Item[] }> {
  const res = await (await as(token)).get(`/product-lists/${id}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** A customer with a list holding two products, and a second customer with a list of their own. */
async function setup() {
  const owner = await newCustomer();
  const stranger = await newCustomer();
  const a = await product({ name: 'Anchor' });
  const b = await product({ name: 'Bolt' });
  const list = await createList(owner.token, {
    name: 'Workshop',
    items: [
      { productId: a.id, quantity: 2 },
      { articleNumber: b.number, comment: 'blue ones' },
    ],
  });
  const foreign = await createList(stranger.token, { name: 'Theirs', items: [{ productId: a.id }] });
  return { owner, stranger, a, b, list, foreign };
}

describe('product lists: lists', () => {
  it('creates lists (named or numbered), lists them with item counts, reads, renames and deletes one', async () => {
    const owner = await newCustomer();
    const item = await product();
    const named = await createList(owner.token, {
      name: '  Monthly  ',
      items: [{ productId: item.id, quantity: 3, customFields: { costCentre: '4711' } }],
    });
    expect(named.name).to.equal('Monthly');
    expect(named.items).to.deep.equal([
      {
        id: named.items[0]!.id,
        articleNumber: item.number,
        productId: item.id,
        comment: null,
        position: 0,
        quantity: 3,
        customFields: { costCentre: '4711' },
      },
    ]);
    const unnamed = await createList(owner.token);
    expect(unnamed.name).to.equal('Product list 2');
    expect(unnamed.items).to.deep.equal([]);

    const prepared = await (await as(owner.token)).get('/product-lists/create');
    expect(prepared.status).to.equal(200);
    expect(prepared.body).to.deep.equal({ success: true });
    const overview = await (await as(owner.token)).post('/product-lists', {});
    expect(overview.status).to.equal(200);
    expect(overview.body).to.include({ page: 1, limit: 25, apiAlias: 'dal_entity_search_result' });
    expect(overview.body.total).to.equal(2);
    expect(overview.body.elements.map((l: { name: string; itemCount: number }) => [l.name, l.itemCount])).to.deep.equal(
      [
        ['Monthly', 1],
        ['Product list 2', 0],
      ],
    );
    expect(overview.body.elements[0].createdBy).to.deep.equal({ type: 'customer', id: owner.customer.id });
    expect(
      (await (await as(owner.token)).post('/product-lists', { limit: 1, page: 2 })).body.elements.map(
        (l: { id: string }) => l.id,
      ),
    ).to.deep.equal([unnamed.id]);

    const renamed = await (await as(owner.token)).patch(`/product-lists/${named.id}`, { name: 'Weekly' });
    expect(renamed.status).to.equal(200);
    expect(renamed.body).to.deep.include({ id: named.id, name: 'Weekly', itemCount: 1 });
    expect(renamed.body.updatedAt).to.be.a('string');
    expect((await readList(owner.token, named.id)).name).to.equal('Weekly');

    const deleted = await (await as(owner.token)).delete(`/product-lists/${named.id}`);
    expect(deleted.body).to.deep.equal({ success: true });
    expectError(await (await as(owner.token)).get(`/product-lists/${named.id}`), 404);
    expectError(await (await as(owner.token)).delete(`/product-lists/${named.id}`), 404);
  });

  it('takes an optional type on create and lists by type (POST /product-lists)', async () => {
    const { owner } = await setup();
    const plain = await createList(owner.token, { name: 'Plain' });
    const wish = await createList(owner.token, { name: 'Wishes', type: 'wishlist' });
    expect(plain).to.include({ type: null });
    expect(wish).to.include({ type: 'wishlist' });
    const client = await as(owner.token);
    const wishlists = await client.post('/product-lists', { type: 'wishlist' });
    expect(wishlists.status).to.equal(200);
    expect(wishlists.body.total).to.equal(1);
    expect(wishlists.body.elements.map((l: { id: string }) => l.id)).to.deep.equal([wish.id]);
    expect((await client.post('/product-lists', {})).body.elements.map((l: { id: string }) => l.id)).to.include.members(
      [plain.id, wish.id],
    );
    expectError(await client.post('/product-lists/create', { type: 'no spaces' }), 400, 'SUITE__INVALID_INPUT');
  });

  it("answers 404 for another customer's list on every list route, and leaves it unchanged", async () => {
    const { owner, stranger, a, foreign } = await setup();
    const client = await as(owner.token);
    const itemId = foreign.items[0]!.id;
    for (const res of [
      await client.get(`/product-lists/${foreign.id}`),
      await client.patch(`/product-lists/${foreign.id}`, { name: 'Mine now' }),
      await client.delete(`/product-lists/${foreign.id}`),
      await client.post(`/product-lists/${foreign.id}/items`, { items: [{ productId: a.id }] }),
      await client.put(`/product-lists/${foreign.id}/items`, { items: [] }),
      await client.patch(`/product-lists/${foreign.id}/items`, { items: [{ id: itemId, quantity: 9 }] }),
      await client.delete(`/product-lists/${foreign.id}/items`, { items: [{ id: itemId }] }),
      await client.delete(`/product-lists/${foreign.id}/product/${a.id}`),
      await client.post(`/product-list/${foreign.id}/items`, {}),
      await client.get(`/product-list-item/${itemId}`),
    ])
      expectError(res, 404, 'SUITE__NOT_FOUND');
    const untouched = await readList(stranger.token, foreign.id);
    expect(untouched).to.deep.include({ name: 'Theirs', itemCount: 1 });
    expect(untouched.items[0]!.quantity).to.equal(1);
    const overview = await client.post('/product-lists', {});
    expect(overview.body.elements.map((l: { id: string }) => l.id)).to.not.include(foreign.id);
  });

  it('answers 401 without login on every route', async () => {
    const anonymous = await as(null);
    const id = newId();
    for (const res of [
      await anonymous.get('/product-lists/create'),
      await anonymous.post('/product-lists', {}),
      await anonymous.post('/product-lists/create', {}),
      await anonymous.get(`/product-lists/${id}`),
      await anonymous.patch(`/product-lists/${id}`, { name: 'x' }),
      await anonymous.delete(`/product-lists/${id}`),
      await anonymous.post(`/product-lists/${id}/items`, { items: [{ productId: id }] }),
      await anonymous.put(`/product-lists/${id}/items`, { items: [] }),
      await anonymous.patch(`/product-lists/${id}/items`, { items: [{ id, quantity: 1 }] }),
      await anonymous.delete(`/product-lists/${id}/items`, { items: [{ id }] }),
      await anonymous.delete(`/product-lists/${id}/product/${id}`),
      await anonymous.post(`/product-list/${id}/items`, {}),
      await anonymous.get(`/product-list-item/${id}`),
    ])
      expectError(res, 401);
  });

  it('answers 403 to employees without product-list.manage; employees with it share the customer’s lists', async () => {
    const { owner, a, list } = await setup();
    const { token } = await employeeWith(['orders.create'], owner);
    const denied = await as(token);
    const itemId = list.items[0]!.id;
    for (const res of [
      await denied.get('/product-lists/create'),
      await denied.post('/product-lists', {}),
      await denied.post('/product-lists/create', {}),
      await denied.get(`/product-lists/${list.id}`),
      await denied.patch(`/product-lists/${list.id}`, { name: 'x' }),
      await denied.delete(`/product-lists/${list.id}`),
      await denied.post(`/product-lists/${list.id}/items`, { items: [{ productId: a.id }] }),
      await denied.put(`/product-lists/${list.id}/items`, { items: [] }),
      await denied.patch(`/product-lists/${list.id}/items`, { items: [{ id: itemId, quantity: 1 }] }),
      await denied.delete(`/product-lists/${list.id}/items`, { items: [{ id: itemId }] }),
      await denied.delete(`/product-lists/${list.id}/product/${a.id}`),
      await denied.post(`/product-list/${list.id}/items`, {}),
      await denied.get(`/product-list-item/${itemId}`),
    ])
      expectError(res, 403);

    const manager = await employeeWith(['product-list.manage'], owner);
    const shared = await readList(manager.token, list.id);
    expect(shared.itemCount).to.equal(2);
    const own = await createList(manager.token, { name: 'Employee list' });
    const seen = await (await as(owner.token)).get(`/product-lists/${own.id}`);
    expect(seen.status).to.equal(200);
    expect(seen.body.createdBy).to.deep.equal({ type: 'employee', id: manager.employee.id });
  });

  it('answers 400 for bad input', async () => {
    const { owner, a, list } = await setup();
    const client = await as(owner.token);
    const hidden = await product();
    await hide(hidden.id);
    expectError(await client.post('/product-lists/create', { name: '' }), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.post('/product-lists/create', { name: 'x', color: 'red' }), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await client.post('/product-lists/create', { items: [{ productId: hidden.id }] }),
      400,
      'SUITE__PRODUCT_NOT_AVAILABLE',
    );
    expectError(await client.post('/product-lists', { limit: 0 }), 400);
    expectError(await client.get('/product-lists/not-an-id'), 400);
    expectError(await client.patch(`/product-lists/${list.id}`, {}), 400);
    expectError(await client.delete('/product-lists/nope'), 400);
    expectError(
      await client.post(`/product-lists/${list.id}/items`, { items: [{ productId: a.id, quantity: 0 }] }),
      400,
    );
    expectError(
      await client.post(`/product-lists/${list.id}/items`, { items: [{ productId: a.id, articleNumber: 'x' }] }),
      400,
    );
    expectError(
      await client.post(`/product-lists/${list.id}/items`, { items: [{ articleNumber: 'NO-SUCH' }] }),
      400,
      'SUITE__PRODUCT_NOT_AVAILABLE',
    );
    expectError(
      await client.post(`/product-lists/${list.id}/items`, {
        items: [{ productId: a.id, customFields: { big: 'x'.repeat(5000) } }],
      }),
      400,
      'SUITE__CUSTOM_FIELDS_TOO_LARGE',
    );
    expectError(
      await client.post(`/product-lists/${list.id}/items`, { items: [{ productId: a.id, quantity: 9999 }] }),
      400,
      'SUITE__QUANTITY_LIMIT_EXCEEDED',
    );
    expectError(
      await client.put(`/product-lists/${list.id}/items`, { items: [{ productId: a.id }, { productId: a.id }] }),
      400,
      'SUITE__PRODUCT_LIST_DUPLICATE_PRODUCT',
    );
    expectError(await client.put(`/product-lists/${list.id}/items`, {}), 400);
    expectError(await client.patch(`/product-lists/${list.id}/items`, { items: [{ id: list.items[0]!.id }] }), 400);
    expectError(await client.delete(`/product-lists/${list.id}/items`, { items: [] }), 400);
    expectError(await client.delete(`/product-lists/${list.id}/product/nope`), 400);
    expectError(
      await client.post(`/product-list/${list.id}/items`, { filter: [{ type: 'equals', field: 'secret', value: 1 }] }),
      400,
    );
    expectError(await client.get('/product-list-item/nope'), 400);
    // Nothing of the refused requests changed the list.
    const after = await readList(owner.token, list.id);
    expect(after.items.map((i) => [i.productId, i.quantity])).to.deep.equal(
      list.items.map((i) => [i.productId, i.quantity]),
    );
  });
});

describe('product lists: items', () => {
  it('adds items by id, shop number and customer number; adding a product again adds the quantity', async () => {
    const { owner, a, b, list } = await setup();
    const c: Product = await product();
    await setNumber(owner.token, c.id, 'OWN-C');
    const res = await (
      await as(owner.token)
    ).post(`/product-lists/${list.id}/items`, {
      items: [
        { productId: a.id, quantity: 5, comment: 'rush' },
        { articleNumber: 'own-c', quantity: 2, customFields: { note: 1 } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.success).to.equal(true);
    const items = res.body.productList.items as Item[];
    expect(items.map((i) => [i.productId, i.quantity, i.comment, i.position])).to.deep.equal([
      [a.id, 7, 'rush', 0],
      [b.id, 1, 'blue ones', 1],
      [c.id, 2, null, 2],
    ]);
    expect(items[2]).to.deep.include({ articleNumber: c.number, customFields: { note: 1 } });
  });

  it('replaces all items, updates some, removes some by id and by product', async () => {
    const { owner, a, b, list } = await setup();
    const c = await product();
    const client = await as(owner.token);
    const replaced = await client.put(`/product-lists/${list.id}/items`, {
      items: [
        { productId: c.id, quantity: 4 },
        { productId: b.id, position: 9 },
      ],
    });
    expect(replaced.status, JSON.stringify(replaced.body)).to.equal(200);
    const items = replaced.body.productList.items as Item[];
    expect(items.map((i) => [i.productId, i.quantity, i.position])).to.deep.equal([
      [c.id, 4, 0],
      [b.id, 1, 9],
    ]);

    const updated = await client.patch(`/product-lists/${list.id}/items`, {
      items: [
        { id: items[0]!.id, quantity: 8, comment: null, position: 5, customFields: { x: true } },
        { id: items[1]!.id, position: 0, comment: 'first' },
      ],
    });
    expect(updated.status).to.equal(200);
    expect(
      (updated.body.productList.items as Item[]).map((i) => [
        i.productId,
        i.quantity,
        i.comment,
        i.position,
        i.customFields,
      ]),
    ).to.deep.equal([
      [b.id, 1, 'first', 0, {}],
      [c.id, 8, null, 5, { x: true }],
    ]);

    expectError(
      await client.delete(`/product-lists/${list.id}/items`, { items: [{ id: items[0]!.id }, { id: newId() }] }),
      404,
    );
    expect((await readList(owner.token, list.id)).itemCount).to.equal(2);
    const removed = await client.delete(`/product-lists/${list.id}/items`, { items: [{ id: items[0]!.id }] });
    expect(removed.status).to.equal(200);
    expect((removed.body.productList.items as Item[]).map((i) => i.productId)).to.deep.equal([b.id]);

    expectError(await client.delete(`/product-lists/${list.id}/product/${a.id}`), 404);
    const byProduct = await client.delete(`/product-lists/${list.id}/product/${b.id}`);
    expect(byProduct.status).to.equal(200);
    expect(byProduct.body.productList).to.deep.include({ itemCount: 0, items: [] });

    const emptied = await client.put(`/product-lists/${list.id}/items`, { items: [] });
    expect(emptied.body.productList.items).to.deep.equal([]);
  });

  it("updating or removing an item of another of the customer's lists, or of another customer, is a 404", async () => {
    const { owner, stranger, list, foreign } = await setup();
    const second = await createList(owner.token, { items: [{ productId: list.items[0]!.productId }] });
    const client = await as(owner.token);
    expectError(
      await client.patch(`/product-lists/${list.id}/items`, { items: [{ id: second.items[0]!.id, quantity: 3 }] }),
      404,
    );
    expectError(
      await client.patch(`/product-lists/${list.id}/items`, { items: [{ id: foreign.items[0]!.id, quantity: 3 }] }),
      404,
    );
    expectError(await client.delete(`/product-lists/${list.id}/items`, { items: [{ id: foreign.items[0]!.id }] }), 404);
    expect((await readList(stranger.token, foreign.id)).items[0]!.quantity).to.equal(1);
  });

  it('searches the items of a list and reads one item', async () => {
    const { owner, a, b, list } = await setup();
    const client = await as(owner.token);
    const all = await client.post(`/product-list/${list.id}/items`, {});
    expect(all.status, JSON.stringify(all.body)).to.equal(200);
    expect(all.body.total).to.equal(2);
    expect(all.body.elements.map((i: Item) => i.productId)).to.deep.equal([a.id, b.id]);
    expect(
      (await client.post(`/product-list/${list.id}/items`, { term: 'blue' })).body.elements.map(
        (i: Item) => i.productId,
      ),
    ).to.deep.equal([b.id]);
    expect(
      (await client.post(`/product-list/${list.id}/items`, { term: 'anch' })).body.elements.map(
        (i: Item) => i.productId,
      ),
    ).to.deep.equal([a.id]);
    const sorted = await client.post(`/product-list/${list.id}/items`, {
      sort: [{ field: 'quantity', order: 'DESC' }],
      limit: 1,
    });
    expect(sorted.body).to.deep.include({ total: 2 });
    expect(sorted.body.elements.map((i: Item) => i.productId)).to.deep.equal([a.id]);

    const one = await client.get(`/product-list-item/${list.items[1]!.id}`);
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.equal({
      id: list.items[1]!.id,
      articleNumber: b.number,
      productId: b.id,
      comment: 'blue ones',
      position: 1,
      quantity: 1,
      customFields: {},
    });
    expectError(await client.get(`/product-list-item/${newId()}`), 404);
  });

  it('keeps concurrent additions to one list consistent', async function () {
    this.timeout(60_000);
    const owner: Customer = await newCustomer();
    const item = await product();
    const list = await createList(owner.token);
    const responses = await Promise.all(
      Array.from({ length: 8 }, async () =>
        (await as(owner.token)).post(`/product-lists/${list.id}/items`, {
          items: [{ productId: item.id, quantity: 2 }],
        }),
      ),
    );
    expect(responses.map((r) => r.status)).to.deep.equal(Array(8).fill(200));
    const after = await readList(owner.token, list.id);
    expect(after.items.map((i) => i.quantity)).to.deep.equal([16]);
  });

  it('keeps the list limit under concurrent creates (the customer’s first create included)', async function () {
    this.timeout(60_000);
    const owner: Customer = await newCustomer();
    const shop = await getShop();
    const existing = Array.from({ length: MAX_LISTS_PER_CUSTOMER - 2 }, (_, i) => ({
      id: newId(),
      customer_id: owner.customer.id,
      name: `List ${i + 1}`,
      created_by_type: 'customer',
      created_by_id: owner.customer.id,
      created_at: nowDb(),
    }));
    for (let i = 0; i < existing.length; i += 100)
      await shop.db('suite_product_lists').insert(existing.slice(i, i + 100));
    const responses = await Promise.all(
      Array.from({ length: 6 }, async () => (await as(owner.token)).post('/product-lists/create', {})),
    );
    expect(responses.map((r) => r.status).sort()).to.deep.equal([200, 200, 400, 400, 400, 400]);
    for (const refused of responses.filter((r) => r.status === 400))
      expectError(refused, 400, 'SUITE__PRODUCT_LIST_LIMIT');
    const [row] = await shop.db('suite_product_lists').where({ customer_id: owner.customer.id }).count({ n: '*' });
    expect(Number(row?.n)).to.equal(MAX_LISTS_PER_CUSTOMER);
  });
});
