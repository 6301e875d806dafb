import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError, getShop } from '../../helpers/shop.js';
import {
  admin,
  as,
  customerGroup,
  employeeWith,
  groupMember,
  hide,
  newCustomer,
  product,
  setPrice,
} from '../fast-order/helpers.js';

describe('customer prices: Admin API', () => {
  it('sets a price (201), replaces it (200), lists it per customer as JSON:API and deletes it', async () => {
    const customer = await newCustomer();
    const item = await product();
    const api = await admin();
    const created = await api.post('/suite-customer-price', {
      customerId: customer.customer.id,
      productId: item.id,
      minQuantity: 10,
      price: 7.5,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.data).to.deep.include({ type: 'suite_customer_price' });
    expect(created.body.data.attributes).to.deep.include({
      customerId: customer.customer.id,
      customerGroupId: null,
      productId: item.id,
      minQuantity: 10,
      price: 7.5,
    });
    const replaced = await api.post('/suite-customer-price', {
      customerId: customer.customer.id,
      productId: item.id,
      minQuantity: 10,
      price: 6.25,
    });
    expect(replaced.status).to.equal(200);
    expect(replaced.body.data.id).to.equal(created.body.data.id);
    expect(replaced.body.data.attributes.price).to.equal(6.25);

    const list = await api.get(`/suite-customer-price?customerId=${customer.customer.id}`);
    expect(list.status).to.equal(200);
    expect(list.body.meta.total).to.equal(1);
    expect(list.body.data[0].id).to.equal(created.body.data.id);
    expect(list.body.links.self).to.contain(`customerId=${customer.customer.id}`);

    expect((await api.delete(`/suite-customer-price/${created.body.data.id}`)).status).to.equal(204);
    expectError(await api.delete(`/suite-customer-price/${created.body.data.id}`), 404, 'SUITE__NOT_FOUND');
    expect((await api.get(`/suite-customer-price?customerId=${customer.customer.id}`)).body.meta.total).to.equal(0);
  });

  it('refuses bad input with 400 and callers without an admin token with 401', async () => {
    const customer = await newCustomer();
    const group = await customerGroup();
    const item = await product();
    const api = await admin();
    expectError(
      await api.post('/suite-customer-price', {
        customerId: customer.customer.id,
        customerGroupId: group,
        productId: item.id,
        price: 1,
      }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await api.post('/suite-customer-price', { productId: item.id, price: 1 }), 400, 'SUITE__INVALID_INPUT');
    // As for every amount (decision 0046): more decimals than prices have are refused (as the CSV import does), not rounded.
    for (const body of [{ price: 7.555 }, { price: 7.5, listPrice: 9.999 }])
      expectError(
        await api.post('/suite-customer-price', { customerId: customer.customer.id, productId: item.id, ...body }),
        400,
        'SUITE__INVALID_AMOUNT',
      );
    expect((await api.get(`/suite-customer-price?customerId=${customer.customer.id}`)).body.data).to.deep.equal([]);
    expectError(
      await api.post('/suite-customer-price', { customerId: customer.customer.id, productId: item.id, price: -1 }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await api.post('/suite-customer-price', {
        customerId: customer.customer.id,
        productId: item.id,
        minQuantity: 0,
        price: 1,
      }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await api.post('/suite-customer-price', { customerId: customer.customer.id, productId: newId(), price: 1 }),
      400,
      'SUITE__CUSTOMER_PRICE_PRODUCT_NOT_FOUND',
    );
    expectError(
      await api.post('/suite-customer-price', { customerId: newId(), productId: item.id, price: 1 }),
      400,
      'SUITE__CUSTOMER_PRICE_CUSTOMER_NOT_FOUND',
    );
    expectError(
      await api.post('/suite-customer-price', { customerGroupId: newId(), productId: item.id, price: 1 }),
      400,
      'SUITE__CUSTOMER_PRICE_GROUP_NOT_FOUND',
    );
    expectError(await api.get('/suite-customer-price?limit=501'), 400, 'SUITE__INVALID_INPUT');
    expectError(await api.get('/suite-customer-price?customerId=nope'), 400, 'SUITE__INVALID_INPUT');
    expectError(await api.delete('/suite-customer-price/not-an-id'), 400, 'SUITE__INVALID_INPUT');

    const anonymous = await admin(false);
    expectError(await anonymous.get('/suite-customer-price'), 401);
    expectError(
      await anonymous.post('/suite-customer-price', { customerId: customer.customer.id, productId: item.id, price: 1 }),
      401,
    );
    expectError(await anonymous.delete(`/suite-customer-price/${newId()}`), 401);
    expectError(await anonymous.csv('/suite-customer-price/import', 'customer_number,product_number,price\n'), 401);
  });

  it('imports a CSV of customer and group prices, then reports what changed on a second import', async () => {
    const customer = await newCustomer();
    const group = await customerGroup();
    const a = await product();
    const b = await product();
    const text = [
      'Customer Number;Customer Group ID;Product Number;Min Quantity;Price',
      `${customer.customer.customerNumber};;${a.number};1;9,50`,
      `${customer.customer.customerNumber};;${a.number};10;8.75`,
      `;${group};${b.number};;4`,
    ].join('\n');
    const first = await (await admin()).csv('/suite-customer-price/import', text);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.deep.equal({ success: true, created: 3, updated: 0, unchanged: 0 });
    const rows = await (
      await getShop()
    )
      .db('suite_customer_prices')
      .whereIn('product_id', [a.id, b.id])
      .orderBy('price_net');
    expect(
      rows.map((r: { price_net: number; min_quantity: number }) => [Number(r.price_net), Number(r.min_quantity)]),
    ).to.deep.equal([
      [400, 1],
      [875, 10],
      [950, 1],
    ]);

    const second = await (await admin()).csv('/suite-customer-price/import', text.replace('8.75', '8.70'));
    expect(second.body).to.deep.equal({ success: true, created: 0, updated: 1, unchanged: 2 });
  });

  it('imports nothing from a file with bad rows and reports each bad line', async () => {
    const customer = await newCustomer();
    const a = await product();
    const text = [
      'customer_number,customer_group_id,product_number,min_quantity,price',
      `${customer.customer.customerNumber},,${a.number},1,5.00`,
      `NO-SUCH-CUSTOMER,,${a.number},1,5.00`,
      `${customer.customer.customerNumber},,NO-SUCH-PRODUCT,1,5.00`,
      `${customer.customer.customerNumber},,${a.number},0,5.00`,
      `${customer.customer.customerNumber},,${a.number},2,5.001`,
      `${customer.customer.customerNumber},,${a.number},1,4.00`,
      `,,${a.number},1,4.00`,
    ].join('\r\n');
    const res = await (await admin()).csv('/suite-customer-price/import', text);
    expectError(res, 400, 'SUITE__CSV_INVALID_ROWS');
    expect([...new Set(res.body.errors.map((e: { meta: { line: number } }) => e.meta.line))]).to.deep.equal([
      3, 4, 5, 6, 7, 8,
    ]);
    expect(res.body.errors.find((e: { meta: { line: number } }) => e.meta.line === 7).detail).to.contain('line 2');
    expect(await (await getShop()).db('suite_customer_prices').where({ product_id: a.id })).to.have.length(0);

    expectError(
      await (await admin()).csv('/suite-customer-price/import', 'customer_number,price\n1,2'),
      400,
      'SUITE__CSV_INVALID_HEADER',
    );
  });

  it('imports 1,000 prices in one file', async function () {
    this.timeout(120_000);
    const customer = await newCustomer();
    const items = [];
    for (let i = 0; i < 100; i++) items.push(await product());
    const lines = ['customer_number,product_number,min_quantity,price'];
    for (let i = 0; i < 1000; i++)
      lines.push(
        `${customer.customer.customerNumber},${items[i % 100]!.number},${1 + Math.floor(i / 100) * 5},${(20 - i / 100).toFixed(2)}`,
      );
    const res = await (await admin()).csv('/suite-customer-price/import', lines.join('\n'));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, created: 1000, updated: 0, unchanged: 0 });
    const list = await (await admin()).get(`/suite-customer-price?customerId=${customer.customer.id}&limit=1`);
    expect(list.body.meta.total).to.equal(1000);
  });
});

describe('customer prices: Store API and price provider', () => {
  it("lists the caller's customer and group prices with product number and name, never another customer's", async () => {
    const group = await customerGroup();
    const buyer = await groupMember(group);
    const other = await newCustomer();
    const a = await product({ name: 'Alpha bolt' });
    const b = await product({ name: 'Beta nut' });
    const hidden = await product();
    const own = await setPrice({ customerId: buyer.customer.id, productId: a.id, price: 8 });
    await setPrice({ customerGroupId: group, productId: b.id, minQuantity: 5, price: 3.5 });
    await setPrice({ customerId: buyer.customer.id, productId: hidden.id, price: 1 });
    await hide(hidden.id);
    const foreign = await setPrice({ customerId: other.customer.id, productId: a.id, price: 2 });

    const res = await (await as(buyer.token)).post('/customer-prices', {});
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.total).to.equal(2);
    expect(res.body.elements).to.deep.include.members([
      {
        id: own,
        productId: a.id,
        productNumber: a.number,
        productName: 'Alpha bolt',
        minQuantity: 1,
        price: 8,
        listPrice: null,
        validFrom: null,
        validUntil: null,
        currency: null,
        scope: 'customer',
      },
    ]);
    expect(res.body.elements.find((p: { productId: string }) => p.productId === b.id)).to.deep.include({
      minQuantity: 5,
      price: 3.5,
      scope: 'customerGroup',
      productName: 'Beta nut',
    });

    const searched = await (await as(buyer.token)).post('/customer-prices', { term: 'beta' });
    expect(searched.body.elements.map((p: { productId: string }) => p.productId)).to.deep.equal([b.id]);
    const byForeignId = await (await as(buyer.token)).post('/customer-prices', { ids: [foreign] });
    expect(byForeignId.body).to.deep.equal({
      total: 0,
      page: 1,
      limit: 25,
      elements: [],
      aggregations: {},
      apiAlias: 'dal_entity_search_result',
    });
  });

  it('answers 400 for bad criteria and 401 without login', async () => {
    const buyer = await newCustomer();
    expectError(await (await as(buyer.token)).post('/customer-prices', { limit: 501 }), 400);
    expectError(
      await (
        await as(buyer.token)
      ).post('/customer-prices', { filter: [{ type: 'equals', field: 'secret', value: 1 }] }),
      400,
    );
    expectError(await (await as(null)).post('/customer-prices', {}), 401);
  });

  it('is readable by any login of the customer (no permission key needed)', async () => {
    const { customer, token } = await employeeWith([]);
    const item = await product();
    await setPrice({ customerId: customer.customer.id, productId: item.id, price: 4 });
    const res = await (await as(token)).post('/customer-prices', {});
    expect(res.status).to.equal(200);
    expect(res.body.elements.map((p: { price: number }) => p.price)).to.deep.equal([4]);
  });

  it('prices the cart and the order: customer tiers beat group prices, which beat tier and list prices', async () => {
    const group = await customerGroup();
    const buyer = await groupMember(group);
    const neighbour = await groupMember(group);
    const stranger = await newCustomer();
    const item = await product({ priceNet: 1000, tiers: [[5, 900]] });
    const groupOnly = await product({ priceNet: 1000 });
    await setPrice({ customerId: buyer.customer.id, productId: item.id, price: 8 });
    await setPrice({ customerId: buyer.customer.id, productId: item.id, minQuantity: 10, price: 7 });
    await setPrice({ customerGroupId: group, productId: item.id, price: 6 });
    await setPrice({ customerGroupId: group, productId: groupOnly.id, price: 5 });

    const cartOf = async (token: string, items: Array<{ productId: string; quantity: number }>) => {
      const res = await (await as(token)).post('/checkout/cart/line-item', { items });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body;
    };
    const unitPrices = (cart: { lineItems: Array<{ productId: string; price: { unitPrice: number } }> }) =>
      Object.fromEntries(cart.lineItems.map((l) => [l.productId, l.price.unitPrice]));

    expect(
      unitPrices(
        await cartOf(buyer.token, [
          { productId: item.id, quantity: 5 },
          { productId: groupOnly.id, quantity: 1 },
        ]),
      ),
    ).to.deep.equal({ [item.id]: 8, [groupOnly.id]: 5 });
    expect(unitPrices(await cartOf(buyer.token, [{ productId: item.id, quantity: 5 }]))).to.deep.include({
      [item.id]: 7,
    });
    expect(unitPrices(await cartOf(neighbour.token, [{ productId: item.id, quantity: 1 }]))).to.deep.equal({
      [item.id]: 6,
    });
    expect(unitPrices(await cartOf(stranger.token, [{ productId: item.id, quantity: 5 }]))).to.deep.equal({
      [item.id]: 9,
    });

    const detail = await (await as(buyer.token)).get(`/product/${groupOnly.id}`);
    expect(detail.body.calculatedPrice).to.deep.include({ unitPrice: 5, source: 'customer-group-price' });
    const guest = await (await as(null)).get(`/product/${groupOnly.id}`);
    expect(guest.body.calculatedPrice).to.deep.include({ unitPrice: 10, source: 'list' });

    const order = await (await as(buyer.token)).post('/checkout/order', {});
    expect(order.status, JSON.stringify(order.body)).to.equal(200);
    const lines = await (await getShop()).db('order_line_items').where({ order_id: order.body.id }).orderBy('position');
    expect(
      lines.map((l: { product_id: string; unit_net: number }) => [l.product_id, Number(l.unit_net)]),
    ).to.deep.equal([
      [item.id, 700],
      [groupOnly.id, 500],
    ]);
  });
});
