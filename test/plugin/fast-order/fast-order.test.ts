import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError } from '../../helpers/shop.js';
import {
  admin,
  as,
  customerGroup,
  employeeWith,
  groupMember,
  hide,
  newCustomer,
  product,
  setNumber,
  setPrice,
  type Product,
} from './helpers.js';

/** A prefix no other test's product numbers start with. */
const uniquePrefix = () => `Q${newId().slice(0, 7).toUpperCase()}`;

const numbers = (body: { elements: Array<{ productNumber: string }> }) => body.elements.map((p) => p.productNumber);

describe('fast order: product search', () => {
  it('matches a product number prefix, a customer product number prefix and part of the name; hidden products never', async () => {
    const buyer = await newCustomer();
    const prefix = uniquePrefix();
    const exact = await product({ number: `${prefix}-10`, name: 'Flange' });
    const longer = await product({ number: `${prefix}-100`, name: 'Flange large' });
    const named = await product({ name: `Gasket ${prefix.toLowerCase()} ring` });
    const owned = await product({ name: 'Valve' });
    const hidden = await product({ number: `${prefix}-101` });
    await hide(hidden.id);
    await setNumber(buyer.token, owned.id, `${prefix}-10-MINE`);

    const client = await as(buyer.token);
    const byPrefix = await client.post('/b2b/fast-order-product-search', { term: `${prefix}-10` });
    expect(byPrefix.status, JSON.stringify(byPrefix.body)).to.equal(200);
    // Exact number first, then number prefixes, then the customer's own number.
    expect(numbers(byPrefix.body)).to.deep.equal([exact.number, longer.number, owned.number]);
    expect(byPrefix.body.total).to.equal(3);
    expect(byPrefix.body.elements[2]).to.deep.include({ customerProductNumber: `${prefix}-10-MINE`, name: 'Valve' });
    expect(byPrefix.body.elements[0].calculatedPrice).to.deep.include({ unitPrice: 10, quantity: 1, source: 'list' });

    const byName = await client.post('/b2b/fast-order-product-search', { term: 'gasket ' + prefix.toLowerCase() });
    expect(numbers(byName.body)).to.deep.equal([named.number]);
    const everything = await client.post('/b2b/fast-order-product-search', { term: prefix.toLowerCase() });
    expect(numbers(everything.body)).to.have.members([exact.number, longer.number, named.number, owned.number]);
    const lowerCase = await client.post('/b2b/fast-order-product-search', { term: `${prefix.toLowerCase()}-100` });
    expect(numbers(lowerCase.body)).to.deep.equal([longer.number]);
    const filtered = await client.post('/b2b/fast-order-product-search', {
      term: prefix,
      filter: [{ type: 'contains', field: 'name', value: 'large' }],
      sort: [{ field: 'name', order: 'DESC' }],
    });
    expect(numbers(filtered.body)).to.deep.equal([longer.number]);
    const percent = await product({ name: `${prefix} 50%_off! pack` });
    await product({ name: `${prefix} 50 pack` });
    const wildcard = await client.post('/b2b/fast-order-product-search', { term: '50%_off!' });
    expect(numbers(wildcard.body)).to.deep.equal([percent.number]);
    const byIds = await client.post('/b2b/fast-order-product-search', { ids: [hidden.id, exact.id] });
    expect(numbers(byIds.body)).to.deep.equal([exact.number]);
  });

  it('pages a search in rank order across number and name matches: numbers first, each group by number', async () => {
    const buyer = await newCustomer();
    const prefix = uniquePrefix();
    const byNumber = [];
    for (const n of ['05', '01', '07', '03', '02', '06', '04'])
      byNumber.push(await product({ number: `${prefix}-${n}` }));
    const byName = [];
    for (const n of ['D', 'A', 'C', 'B'])
      byName.push(await product({ number: `FO-NAME-${prefix}-${n}`, name: `Widget ${prefix.toLowerCase()} ${n}` }));
    const expected = [...byNumber.map((p) => p.number).sort(), ...byName.map((p) => p.number).sort()];

    const client = await as(buyer.token);
    const all = await client.post('/b2b/fast-order-product-search', { term: prefix, limit: 100 });
    expect(numbers(all.body)).to.deep.equal(expected);
    const paged: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const answer = await client.post('/b2b/fast-order-product-search', { term: prefix, limit: 3, page });
      expect(answer.body.total, `page ${page}`).to.equal(11);
      paged.push(...numbers(answer.body));
    }
    // Pages 1 and 2 hold number matches only, page 3 both, page 4 name matches only.
    expect(paged).to.deep.equal(expected);
  });

  it('prices results for the caller: a customer price shows for its customer only', async () => {
    const buyer = await newCustomer();
    const other = await newCustomer();
    const prefix = uniquePrefix();
    const item = await product({ number: `${prefix}-1`, priceNet: 2000 });
    await setPrice({ customerId: buyer.customer.id, productId: item.id, price: 15 });
    const mine = await (await as(buyer.token)).post('/b2b/fast-order-product-search', { term: prefix });
    expect(mine.body.elements[0].calculatedPrice).to.deep.include({
      unitPrice: 15,
      grossPrice: 17.85,
      source: 'customer-price',
    });
    const theirs = await (await as(other.token)).post('/b2b/fast-order-product-search', { term: prefix });
    expect(theirs.body.elements[0].calculatedPrice).to.deep.include({ unitPrice: 20, source: 'list' });
  });

  it('answers 400 for bad criteria, 401 without login, 403 without orders.create', async () => {
    const buyer = await newCustomer();
    expectError(await (await as(buyer.token)).post('/b2b/fast-order-product-search', { limit: 501 }), 400);
    expectError(
      await (
        await as(buyer.token)
      ).post('/b2b/fast-order-product-search', { filter: [{ type: 'equals', field: 'priceNet', value: 1 }] }),
      400,
    );
    expectError(await (await as(buyer.token)).post('/b2b/fast-order-product-search', { term: 5 }), 400);
    expectError(await (await as(null)).post('/b2b/fast-order-product-search', { term: 'x' }), 401);
    const { token } = await employeeWith(['orders.read'], buyer);
    expectError(await (await as(token)).post('/b2b/fast-order-product-search', { term: 'x' }), 403);
    const allowed = await employeeWith(['orders.create'], buyer);
    expect((await (await as(allowed.token)).post('/b2b/fast-order-product-search', { term: 'x' })).status).to.equal(
      200,
    );
  });
});

describe('fast order: suggest and product price', () => {
  it('suggests up to limit products for a term', async () => {
    const buyer = await newCustomer();
    const prefix = uniquePrefix();
    for (let i = 0; i < 4; i++) await product({ number: `${prefix}-${i}` });
    const res = await (await as(buyer.token)).post('/platform-product-search', { search: prefix, limit: 3 });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.total).to.equal(4);
    expect(numbers(res.body)).to.deep.equal([`${prefix}-0`, `${prefix}-1`, `${prefix}-2`]);
    expectError(await (await as(buyer.token)).post('/platform-product-search', {}), 400);
    expectError(await (await as(buyer.token)).post('/platform-product-search', { search: 'x', limit: 51 }), 400);
    expectError(await (await as(null)).post('/platform-product-search', { search: 'x' }), 401);
  });

  it('calculates the price for product and quantity; hidden or unknown products are 404, bad quantities 400', async () => {
    const buyer = await newCustomer();
    const item = await product({ priceNet: 1000, tiers: [[10, 800]] });
    const hidden = await product();
    await hide(hidden.id);
    await setPrice({ customerId: buyer.customer.id, productId: item.id, minQuantity: 50, price: 6 });
    const client = await as(buyer.token);
    const at = async (quantity: number | string) => client.post(`/product-price/${item.id}/${quantity}`);
    const one = await at(1);
    expect(one.status, JSON.stringify(one.body)).to.equal(200);
    expect(one.body).to.deep.equal({
      productId: item.id,
      productNumber: item.number,
      quantity: 1,
      calculatedPrice: {
        unitPrice: 10,
        totalPrice: 10,
        quantity: 1,
        netPrice: 10,
        taxAmount: 1.9,
        grossPrice: 11.9,
        taxRate: 19,
        source: 'list',
      },
    });
    expect((await at(10)).body.calculatedPrice).to.deep.include({ unitPrice: 8, totalPrice: 80, source: 'tier' });
    expect((await at(60)).body.calculatedPrice).to.deep.include({
      unitPrice: 6,
      totalPrice: 360,
      source: 'customer-price',
    });
    expectError(await client.post(`/product-price/${hidden.id}/1`), 404);
    expectError(await client.post(`/product-price/${newId()}/1`), 404);
    for (const bad of ['0', '-1', 'abc']) expectError(await at(bad), 400, 'SUITE__INVALID_INPUT');
    // A number, as the spec types it: "2.0" is 2; a fraction is refused by the purchase step (whole units), not by the schema.
    expect((await at('2.0')).body).to.include({ quantity: 2 });
    expectError(await at('2.5'), 400, 'SUITE__QUANTITY_NOT_PURCHASABLE');
    expectError(await client.post('/product-price/not-an-id/1'), 400);
    expectError(await (await as(null)).post(`/product-price/${item.id}/1`), 401);
  });
});

describe('fast order: product table and details', () => {
  it("lists products with the caller's price per quantity range", async () => {
    const group = await customerGroup();
    const buyer = await groupMember(group);
    const prefix = uniquePrefix();
    const item = await product({
      number: `${prefix}-1`,
      priceNet: 1000,
      tiers: [
        [10, 900],
        [100, 800],
      ],
    });
    await setPrice({ customerGroupId: group, productId: item.id, minQuantity: 20, price: 8.5 });
    const res = await (await as(buyer.token)).post('/product-table-listing', { term: prefix });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.elements[0].tierPrices).to.deep.equal([
      { minQuantity: 1, maxQuantity: 9, unitPrice: 10, source: 'list' },
      { minQuantity: 10, maxQuantity: 19, unitPrice: 9, source: 'tier' },
      { minQuantity: 20, maxQuantity: null, unitPrice: 8.5, source: 'customer-group-price' },
    ]);
    const stranger = await newCustomer();
    const plain = await (await as(stranger.token)).post('/product-table-listing', { ids: [item.id] });
    // A product listing route response: the platform's listing envelope and the host listing's product fields.
    expect(plain.body).to.include({ apiAlias: 'product_listing', total: 1, page: 1, limit: 25 });
    const hostListed = (await (await as(stranger.token)).post('/product', { ids: [item.id] })).body.elements[0];
    expect(plain.body.elements[0]).to.include.keys(Object.keys(hostListed));
    // Same values as the host's listing (tier prices are the fast order's own table).
    const hostFields = { ...hostListed };
    delete hostFields.tierPrices;
    expect(plain.body.elements[0]).to.deep.include(hostFields);
    expect(plain.body.elements[0].tierPrices.map((t: { unitPrice: number }) => t.unitPrice)).to.deep.equal([10, 9, 8]);
    expectError(await (await as(buyer.token)).post('/product-table-listing', { page: 0 }), 400);
    expectError(await (await as(null)).post('/product-table-listing', {}), 401);
    const { token } = await employeeWith([], buyer);
    expectError(await (await as(token)).post('/product-table-listing', {}), 403);
  });

  it('details products by ids, shop numbers and customer numbers, with stock and the customer number', async () => {
    const buyer = await newCustomer();
    const other = await newCustomer();
    const a = await product({ stock: 7 });
    const b = await product();
    const c = await product();
    const hidden = await product();
    await hide(hidden.id);
    await setNumber(buyer.token, b.id, 'MY-B');
    await setNumber(other.token, c.id, 'THEIR-C');
    const client = await as(buyer.token);
    const res = await client.post('/b2b/product-details', {
      productNumbers: [a.number.toLowerCase(), 'my-b', 'THEIR-C', hidden.number, 'nothing'],
      ids: [hidden.id],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.elements.map((p: { id: string }) => p.id)).to.have.members([a.id, b.id]);
    const detailsOf = (id: string) => res.body.elements.find((p: { id: string }) => p.id === id);
    expect(detailsOf(a.id)).to.deep.include({ stock: 7, available: true, customerProductNumber: null });
    expect(detailsOf(b.id)).to.deep.include({ customerProductNumber: 'MY-B' });
    expect(detailsOf(b.id).tierPrices).to.deep.equal([
      { minQuantity: 1, maxQuantity: null, unitPrice: 10, source: 'list' },
    ]);
    expect((await client.post('/b2b/product-details', { productNumbers: ['THEIR-C'] })).body).to.deep.equal({
      total: 0,
      page: 1,
      limit: 25,
      elements: [],
      aggregations: {},
      apiAlias: 'dal_entity_search_result',
    });
    expectError(await client.post('/b2b/product-details', { productNumbers: [''] }), 400);
    expectError(await client.post('/b2b/product-details', { ids: ['x'] }), 400);
    expectError(await (await as(null)).post('/b2b/product-details', { ids: [a.id] }), 401);
    const { token } = await employeeWith(['orders.read'], buyer);
    expectError(await (await as(token)).post('/b2b/product-details', { ids: [a.id] }), 403);
  });
});

describe('fast order: add to cart', () => {
  it('adds items by id, shop number and customer number, and reports the ones it could not add', async () => {
    const buyer = await newCustomer();
    const other = await newCustomer();
    const byId = await product();
    const byNumber = await product();
    const byOwnNumber = await product({ priceNet: 500 });
    const scarce = await product({ stock: 2 });
    const hidden = await product();
    const foreign = await product();
    await hide(hidden.id);
    await setNumber(buyer.token, byOwnNumber.id, 'OWN-7');
    await setNumber(other.token, foreign.id, 'FOREIGN-1');
    const res = await (
      await as(buyer.token)
    ).post('/b2b/add-to-cart', {
      items: [
        { productId: byId.id, quantity: 1 },
        { productNumber: byNumber.number.toLowerCase(), quantity: 2 },
        { productNumber: 'own-7', quantity: 3 },
        { productNumber: scarce.number, quantity: 5 },
        { productNumber: 'NO-SUCH-NUMBER', quantity: 1 },
        { productId: hidden.id, quantity: 1 },
        { productNumber: 'FOREIGN-1', quantity: 1 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ success: false, added: 3, failed: 4 });
    const item = (i: number) => res.body.items[i];
    expect(item(1)).to.deep.include({
      index: 1,
      productId: byNumber.id,
      productNumber: byNumber.number,
      added: true,
      error: null,
    });
    expect(item(2)).to.deep.include({
      productId: byOwnNumber.id,
      customerProductNumber: 'OWN-7',
      quantity: 3,
      added: true,
    });
    expect(item(3)).to.deep.include({ productId: scarce.id, added: false });
    expect(item(3).error.code).to.equal('SUITE__OUT_OF_STOCK');
    for (const i of [4, 5, 6]) {
      expect(item(i)).to.deep.include({ productId: null, added: false });
      expect(item(i).error.code).to.equal('SUITE__PRODUCT_NOT_FOUND');
    }

    const cart = await (await as(buyer.token)).get('/checkout/cart');
    const lines = Object.fromEntries(
      cart.body.lineItems.map((l: { productId: string; quantity: number }) => [l.productId, l.quantity]),
    );
    expect(lines).to.deep.equal({ [byId.id]: 1, [byNumber.id]: 2, [byOwnNumber.id]: 3 });
    const own = cart.body.lineItems.find((l: { productId: string }) => l.productId === byOwnNumber.id);
    expect(own.payload).to.deep.equal({ customerProductNumber: 'OWN-7' });
  });

  it('answers success when every item was added', async () => {
    const buyer = await newCustomer();
    const items: Product[] = [await product(), await product()];
    const res = await (
      await as(buyer.token)
    ).post('/b2b/add-to-cart', { items: items.map((p) => ({ productNumber: p.number, quantity: 1 })) });
    expect(res.body).to.deep.include({ success: true, added: 2, failed: 0 });
  });

  it('answers 400 for bad items, 401 without login, 403 without orders.create', async () => {
    const buyer = await newCustomer();
    const item = await product();
    const client = await as(buyer.token);
    expectError(await client.post('/b2b/add-to-cart', { items: [] }), 400);
    expectError(await client.post('/b2b/add-to-cart', { items: [{ quantity: 1 }] }), 400);
    expectError(
      await client.post('/b2b/add-to-cart', {
        items: [{ productId: item.id, productNumber: item.number, quantity: 1 }],
      }),
      400,
    );
    expectError(await client.post('/b2b/add-to-cart', { items: [{ productId: item.id, quantity: 0 }] }), 400);
    expectError(await client.post('/b2b/add-to-cart', { items: [{ productId: item.id, quantity: 1.5 }] }), 400);
    expectError(await (await as(null)).post('/b2b/add-to-cart', { items: [{ productId: item.id, quantity: 1 }] }), 401);
    const { token } = await employeeWith(['orders.read'], buyer);
    expectError(
      await (await as(token)).post('/b2b/add-to-cart', { items: [{ productId: item.id, quantity: 1 }] }),
      403,
    );
    const cart = await client.get('/checkout/cart');
    expect(cart.body.lineItems).to.deep.equal([]);
  });
});

describe('fast order: ordered products', () => {
  async function order(token: string, items: Array<{ productId: string; quantity: number }>): Promise<string> {
    const cart = await (await as(token)).post('/checkout/cart/line-item', { items });
    expect(cart.status, JSON.stringify(cart.body)).to.equal(200);
    const placed = await (await as(token)).post('/checkout/order', {});
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    return placed.body.id as string;
  }

  it("leaves out a cancelled order's products", async () => {
    const buyer = await newCustomer();
    const a = await product();
    const b = await product();
    await order(buyer.token, [{ productId: a.id, quantity: 1 }]);
    const cancelled = await order(buyer.token, [
      { productId: a.id, quantity: 2 },
      { productId: b.id, quantity: 3 },
    ]);
    const res = await (await admin()).post(`/_action/order/${cancelled}/state/cancel`, {});
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const listed = await (await as(buyer.token)).post('/ordered-products', {});
    expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    expect(
      listed.body.elements.map((p: { id: string; totalQuantity: number; orderCount: number }) => [
        p.id,
        p.totalQuantity,
        p.orderCount,
      ]),
    ).to.deep.equal([[a.id, 1, 1]]);
  });

  it('lists products ordered before with last order date, total quantity and order count; employees see their own unless orders.read-all', async () => {
    const buyer = await newCustomer();
    const other = await newCustomer();
    const a = await product({ name: 'Anchor' });
    const b = await product({ name: 'Bracket' });
    const c = await product();
    const hidden = await product();
    await order(buyer.token, [
      { productId: a.id, quantity: 2 },
      { productId: hidden.id, quantity: 1 },
    ]);
    await order(buyer.token, [{ productId: a.id, quantity: 3 }]);
    await order(other.token, [{ productId: c.id, quantity: 1 }]);
    const reader = await employeeWith(['orders.read', 'orders.create'], buyer);
    await order(reader.token, [{ productId: b.id, quantity: 4 }]);
    await hide(hidden.id);

    const all = await (await as(buyer.token)).post('/ordered-products', {});
    expect(all.status, JSON.stringify(all.body)).to.equal(200);
    expect(all.body.elements.map((p: { id: string }) => p.id)).to.deep.equal([b.id, a.id]);
    expect(all.body.elements[1]).to.deep.include({ totalQuantity: 5, orderCount: 2, name: 'Anchor' });
    expect(Date.parse(all.body.elements[1].lastOrderDate)).to.be.above(Date.now() - 120_000);

    const own = await (await as(reader.token)).post('/ordered-products', {});
    expect(own.body.elements.map((p: { id: string; totalQuantity: number }) => [p.id, p.totalQuantity])).to.deep.equal([
      [b.id, 4],
    ]);
    const everyone = await employeeWith(['orders.read-all'], buyer);
    expect((await (await as(everyone.token)).post('/ordered-products', {})).body.total).to.equal(2);

    const sorted = await (
      await as(buyer.token)
    ).post('/ordered-products', {
      sort: [{ field: 'totalQuantity', order: 'DESC' }],
      filter: [{ type: 'range', field: 'orderCount', parameters: { gte: 1 } }],
    });
    expect(sorted.body.elements.map((p: { id: string }) => p.id)).to.deep.equal([a.id, b.id]);
    expect(
      (await (await as(buyer.token)).post('/ordered-products', { term: 'brack' })).body.elements.map(
        (p: { id: string }) => p.id,
      ),
    ).to.deep.equal([b.id]);
    expect((await (await as(buyer.token)).post('/ordered-products', { ids: [c.id] })).body).to.deep.equal({
      total: 0,
      page: 1,
      limit: 25,
      elements: [],
      aggregations: {},
      apiAlias: 'dal_entity_search_result',
    });
  });

  it('answers 400 for bad criteria, 401 without login, 403 without orders.read', async () => {
    const buyer = await newCustomer();
    expectError(
      await (
        await as(buyer.token)
      ).post('/ordered-products', {
        filter: [{ type: 'range', field: 'lastOrderDate', parameters: { gte: 'yesterday' } }],
      }),
      400,
    );
    expectError(await (await as(buyer.token)).post('/ordered-products', { limit: 0 }), 400);
    expectError(await (await as(null)).post('/ordered-products', {}), 401);
    const { token } = await employeeWith(['orders.create'], buyer);
    expectError(await (await as(token)).post('/ordered-products', {}), 403);
  });
});
