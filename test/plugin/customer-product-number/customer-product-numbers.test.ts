import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError, getShop } from '../../helpers/shop.js';
import { as, employeeWith, hide, newCustomer, product, setConfig, setNumber } from '../fast-order/helpers.js';

const MANAGE = 'customer-product-number.manage';

async function numbersOf(token: string, criteria: Record<string, unknown> = {}) {
  const res = await (await as(token)).post('/b2b/customer-product-numbers', criteria);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as {
    total: number;
    elements: Array<{
      id: string;
      productId: string;
      productNumber: string;
      productName: string;
      customerProductNumber: string;
    }>;
  };
}

describe('customer product numbers: routes', () => {
  it('creates, replaces and lists a number with the product it names', async () => {
    const buyer = await newCustomer();
    const item = await product({ name: 'Hex screw M8' });
    const created = await (
      await as(buyer.token)
    ).post('/b2b/customer-product-number', { productId: item.id, customerProductNumber: ' MY-001 ' });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.success).to.equal(true);
    expect(created.body.customerProductNumber).to.deep.include({
      productId: item.id,
      productNumber: item.number,
      productName: 'Hex screw M8',
      customerProductNumber: 'MY-001',
      updatedAt: null,
    });
    const replaced = await (
      await as(buyer.token)
    ).post('/b2b/customer-product-number', { productId: item.id, customerProductNumber: 'MY-002' });
    expect(replaced.body.customerProductNumber.id).to.equal(created.body.customerProductNumber.id);
    expect(replaced.body.customerProductNumber.updatedAt).to.be.a('string');
    const list = await numbersOf(buyer.token);
    expect(list.total).to.equal(1);
    expect(list.elements[0]).to.deep.include({
      id: created.body.customerProductNumber.id,
      customerProductNumber: 'MY-002',
    });
  });

  it('refuses a number another product has (case-insensitively) and products the caller cannot see', async () => {
    const buyer = await newCustomer();
    const a = await product();
    const b = await product();
    const hidden = await product();
    await hide(hidden.id);
    await setNumber(buyer.token, a.id, 'abc-1');
    expectError(
      await (
        await as(buyer.token)
      ).post('/b2b/customer-product-number', { productId: b.id, customerProductNumber: 'ABC-1' }),
      400,
      'SUITE__CUSTOMER_PRODUCT_NUMBER_TAKEN',
    );
    expectError(
      await (
        await as(buyer.token)
      ).post('/b2b/customer-product-number', { productId: hidden.id, customerProductNumber: 'X' }),
      404,
    );
    expectError(
      await (
        await as(buyer.token)
      ).post('/b2b/customer-product-number', { productId: newId(), customerProductNumber: 'X' }),
      404,
    );
    // Another customer may use the same number for another product.
    const other = await newCustomer();
    await setNumber(other.token, b.id, 'ABC-1');
  });

  it('answers 400 for bad bodies, 401 without login and 403 without the permission', async () => {
    const buyer = await newCustomer();
    const item = await product();
    const client = await as(buyer.token);
    expectError(await client.post('/b2b/customer-product-number', { productId: item.id }), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await client.post('/b2b/customer-product-number', { productId: item.id, customerProductNumber: '   ' }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await client.post('/b2b/customer-product-number', { productId: item.id, customerProductNumber: 'x'.repeat(65) }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await client.post('/b2b/customer-product-number', { productId: 'nope', customerProductNumber: 'X' }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await client.delete('/b2b/customer-product-number/nope'), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.post('/b2b/customer-product-numbers', { limit: 501 }), 400);
    expectError(await client.post('/b2b/customer-product-numbers', { sort: [{ field: 'password' }] }), 400);

    const anonymous = await as(null);
    expectError(
      await anonymous.post('/b2b/customer-product-number', { productId: item.id, customerProductNumber: 'X' }),
      401,
    );
    expectError(await anonymous.delete(`/b2b/customer-product-number/${newId()}`), 401);
    expectError(await anonymous.post('/b2b/customer-product-numbers', {}), 401);
    expectError(
      await anonymous.csv('/b2b/customer-product-number-import', 'product_number,customer_product_number\n'),
      401,
    );

    const { token } = await employeeWith(['orders.create'], buyer);
    const numberId = await setNumber(buyer.token, item.id, 'EMP-1');
    const employee = await as(token);
    expectError(
      await employee.post('/b2b/customer-product-number', { productId: item.id, customerProductNumber: 'X' }),
      403,
    );
    expectError(await employee.delete(`/b2b/customer-product-number/${numberId}`), 403);
    expectError(
      await employee.csv(
        '/b2b/customer-product-number-import',
        `product_number,customer_product_number\n${item.number},Y`,
      ),
      403,
    );
    // Reading needs no key: the numbers are shown wherever products are.
    expect((await numbersOf(token)).elements.map((n) => n.customerProductNumber)).to.deep.equal(['EMP-1']);

    const manager = await employeeWith([MANAGE], buyer);
    const saved = await (
      await as(manager.token)
    ).post('/b2b/customer-product-number', { productId: item.id, customerProductNumber: 'EMP-2' });
    expect(saved.status).to.equal(200);
  });

  it("deletes the customer's own numbers; another customer's number is a 404 and stays", async () => {
    const buyer = await newCustomer();
    const other = await newCustomer();
    const item = await product();
    const mine = await setNumber(buyer.token, item.id, 'MINE');
    const theirs = await setNumber(other.token, item.id, 'THEIRS');
    expectError(
      await (await as(buyer.token)).delete(`/b2b/customer-product-number/${theirs}`),
      404,
      'SUITE__NOT_FOUND',
    );
    expect((await numbersOf(other.token)).total).to.equal(1);
    const deleted = await (await as(buyer.token)).delete(`/b2b/customer-product-number/${mine}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ success: true });
    expect((await numbersOf(buyer.token)).total).to.equal(0);
    expectError(await (await as(buyer.token)).delete(`/b2b/customer-product-number/${mine}`), 404);
  });

  it("lists by criteria only the caller's numbers of products they can see", async () => {
    const buyer = await newCustomer();
    const other = await newCustomer();
    const a = await product({ name: 'Copper pipe' });
    const b = await product({ name: 'Steel pipe' });
    const c = await product();
    await setNumber(buyer.token, a.id, 'P-100');
    await setNumber(buyer.token, b.id, 'P-200');
    await setNumber(buyer.token, c.id, 'P-300');
    const foreign = await setNumber(other.token, a.id, 'P-999');
    await hide(c.id);
    expect((await numbersOf(buyer.token)).elements.map((n) => n.customerProductNumber)).to.deep.equal([
      'P-100',
      'P-200',
    ]);
    expect(
      (await numbersOf(buyer.token, { term: 'steel' })).elements.map((n) => n.customerProductNumber),
    ).to.deep.equal(['P-200']);
    expect(
      (
        await numbersOf(buyer.token, { filter: [{ type: 'prefix', field: 'customerProductNumber', value: 'P-1' }] })
      ).elements.map((n) => n.productId),
    ).to.deep.equal([a.id]);
    expect(await numbersOf(buyer.token, { ids: [foreign] })).to.deep.equal({
      total: 0,
      page: 1,
      limit: 25,
      elements: [],
      aggregations: {},
      apiAlias: 'dal_entity_search_result',
    });
  });

  it('carries the number on cart line items and into the order', async () => {
    const buyer = await newCustomer();
    const item = await product();
    const plain = await product();
    await setNumber(buyer.token, item.id, 'CART-7');
    const cart = await (
      await as(buyer.token)
    ).post('/checkout/cart/line-item', {
      items: [
        { productId: item.id, quantity: 2, payload: { customerProductNumber: 'forged' } },
        { productId: plain.id, quantity: 1 },
      ],
    });
    expect(cart.status, JSON.stringify(cart.body)).to.equal(200);
    const lineOf = (id: string) => cart.body.lineItems.find((l: { productId: string }) => l.productId === id);
    expect(lineOf(item.id).payload).to.deep.equal({ customerProductNumber: 'CART-7' });
    expect(lineOf(plain.id).payload).to.deep.equal({});
    const order = await (await as(buyer.token)).post('/checkout/order', {});
    expect(order.status, JSON.stringify(order.body)).to.equal(200);
    const lines = await (
      await getShop()
    )
      .db('order_line_items')
      .where({ order_id: order.body.id, product_id: item.id });
    expect(JSON.parse(lines[0].payload)).to.deep.equal({ customerProductNumber: 'CART-7' });
  });
});

describe('customer product numbers: CSV import', function () {
  this.timeout(120_000);

  it('imports numbers (semicolon, camelCase header), updates and keeps what did not change; numbers may swap', async () => {
    const buyer = await newCustomer();
    const a = await product();
    const b = await product();
    const c = await product();
    const first = await (
      await as(buyer.token)
    ).csv(
      '/b2b/customer-product-number-import',
      [
        'productNumber;customerProductNumber',
        `${a.number};N-A`,
        `${b.number.toLowerCase()};N-B`,
        `${c.number};N-C`,
      ].join('\n'),
    );
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.deep.equal({ success: true, created: 3, updated: 0, unchanged: 0 });
    const ids = Object.fromEntries((await numbersOf(buyer.token)).elements.map((n) => [n.productId, n.id]));

    const swap = await (
      await as(buyer.token)
    ).csv(
      '/b2b/customer-product-number-import',
      ['product_number,customer_product_number', `${a.number},n-b`, `${b.number},N-A`, `${c.number},N-C`].join('\r\n'),
    );
    expect(swap.body).to.deep.equal({ success: true, created: 0, updated: 2, unchanged: 1 });
    const after = (await numbersOf(buyer.token)).elements;
    expect(Object.fromEntries(after.map((n) => [n.productId, n.customerProductNumber]))).to.deep.equal({
      [a.id]: 'n-b',
      [b.id]: 'N-A',
      [c.id]: 'N-C',
    });
    expect(Object.fromEntries(after.map((n) => [n.productId, n.id]))).to.deep.equal(ids);
  });

  it('imports nothing when rows are bad and reports every bad line with its reason', async () => {
    const buyer = await newCustomer();
    const a = await product();
    const b = await product();
    const keeper = await product();
    const hidden = await product();
    await hide(hidden.id);
    await setNumber(buyer.token, keeper.id, 'KEEP');
    const text = [
      'product_number,customer_product_number',
      `${a.number},OK-1`,
      'NO-SUCH,OK-2',
      `${b.number},`,
      `${a.number},OK-3`,
      `${b.number},ok-1`,
      `${b.number},keep`,
      `${hidden.number},H`,
      `${b.number},${'x'.repeat(65)}`,
      `${b.number},too,many`,
    ].join('\n');
    const res = await (await as(buyer.token)).csv('/b2b/customer-product-number-import', text);
    expectError(res, 400, 'SUITE__CSV_INVALID_ROWS');
    const lines = res.body.errors.map((e: { meta: { line: number } }) => e.meta.line);
    expect([...new Set(lines)]).to.deep.equal([3, 4, 5, 6, 7, 8, 9, 10]);
    const detail = (line: number) =>
      res.body.errors
        .filter((e: { meta: { line: number } }) => e.meta.line === line)
        .map((e: { detail: string }) => e.detail)
        .join(' ');
    expect(detail(3)).to.contain('no product');
    expect(detail(4)).to.contain('empty');
    expect(detail(5)).to.contain('line 2');
    expect(detail(6)).to.contain('line 2');
    expect(detail(7)).to.contain('another product');
    expect(detail(8)).to.contain('no product');
    expect(detail(9)).to.contain('longer');
    expect((await numbersOf(buyer.token)).elements.map((n) => n.customerProductNumber)).to.deep.equal(['KEEP']);

    expectError(
      await (await as(buyer.token)).csv('/b2b/customer-product-number-import', 'sku\nX'),
      400,
      'SUITE__CSV_INVALID_HEADER',
    );
    expectError(await (await as(buyer.token)).csv('/b2b/customer-product-number-import', ''), 400);
  });

  it('holds the row limit of the plugin setting (413)', async () => {
    const buyer = await newCustomer();
    const item = await product();
    await setConfig({ customerProductNumberImportMaxRows: 2 });
    try {
      const rows = [
        'product_number,customer_product_number',
        `${item.number},A`,
        `${item.number},B`,
        `${item.number},C`,
      ];
      expectError(
        await (await as(buyer.token)).csv('/b2b/customer-product-number-import', rows.join('\n')),
        413,
        'SUITE__CSV_TOO_LARGE',
      );
    } finally {
      await setConfig({ customerProductNumberImportMaxRows: 20000 });
    }
    expect((await numbersOf(buyer.token)).total).to.equal(0);
  });

  it('imports 1,000 numbers in one file', async () => {
    const buyer = await newCustomer();
    const db = (await getShop()).db;
    const prefix = `K${newId().slice(0, 8).toUpperCase()}`;
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      id: newId(),
      version_id: newId(),
      product_number: `${prefix}-${String(i).padStart(4, '0')}`,
      name: `Bulk ${i}`,
      stock: 10,
      active: true,
      tax_rate_bp: 1900,
      price_net: 100,
      created_at: '2024-01-01 00:00:00.000',
    }));
    for (let i = 0; i < rows.length; i += 200) await db('products').insert(rows.slice(i, i + 200));
    const text = ['product_number;customer_product_number', ...rows.map((r, i) => `${r.product_number};OWN-${i}`)].join(
      '\n',
    );
    const res = await (await as(buyer.token)).csv('/b2b/customer-product-number-import', text);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, created: 1000, updated: 0, unchanged: 0 });
    expect((await numbersOf(buyer.token, { limit: 1 })).total).to.equal(1000);
    const again = await (await as(buyer.token)).csv('/b2b/customer-product-number-import', text);
    expect(again.body).to.deep.equal({ success: true, created: 0, updated: 0, unchanged: 1000 });
  });
});
