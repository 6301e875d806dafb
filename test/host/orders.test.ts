import { expect } from 'chai';
import { orderView } from '../../src/contract/index.js';
import { newId } from '../../src/lib/ids.js';
import type { TestCustomer } from '../helpers/shop.js';
import { expectError, getShop, http, isServerDb, loginNewCustomer } from '../helpers/shop.js';
import { addToCart, insertProduct, placeOrder, sessionWithPermissions, storeContextFor } from '../helpers/checkout.js';
import { statementsDuring } from '../helpers/statements.js';

async function orderSomething(token: string, quantity = 1): Promise<Record<string, any>> {
  const product = await insertProduct({ priceNet: 1000 * quantity });
  await addToCart(token, [{ productId: product.id, quantity: 1 }]);
  const res = await placeOrder(token);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** An order placed by an employee of the customer (through the runtime, as the employee add-on would). */
async function orderByEmployee(customer: TestCustomer['customer']): Promise<string> {
  const shop = await getShop();
  const product = await insertProduct();
  const ctx = await storeContextFor(customer, {
    type: 'employee',
    id: newId(),
    name: 'Eve Employee',
    email: 'eve@example.test',
  });
  const line = {
    lineItemId: newId(),
    productId: product.id,
    productNumber: product.number,
    label: product.name,
    type: 'product',
    quantity: 1,
    unitNet: 1000,
    totalNet: 1000,
    taxRateBp: 1900,
    payload: {},
  };
  return (await shop.runtime.checkout.placeOrder(shop.runtime.db, ctx, { lines: [line] })).id;
}

describe('host: orders and documents', () => {
  it("lists the customer's own orders only, newest first, with criteria", async () => {
    const { token } = await loginNewCustomer();
    const other = await loginNewCustomer();
    const first = await orderSomething(token, 1);
    const second = await orderSomething(token, 2);
    await orderSomething(other.token);
    const agent = await http();
    const res = await agent.post('/store-api/order').set('suite-context-token', token).send({});
    expect(res.status).to.equal(200);
    expect(res.body.orders.total).to.equal(2);
    expect(res.body.orders.elements.map((o: { id: string }) => o.id)).to.deep.equal([second.id, first.id]);
    expect(res.body.orders.elements[0]).to.deep.equal(second);

    const filtered = await agent
      .post('/store-api/order')
      .set('suite-context-token', token)
      .send({ filter: [{ type: 'equals', field: 'orderNumber', value: first.orderNumber }] });
    expect(filtered.body.orders.elements.map((o: { id: string }) => o.id)).to.deep.equal([first.id]);
    const paged = await agent
      .post('/store-api/order')
      .set('suite-context-token', token)
      .send({ limit: 1, page: 2, sort: [{ field: 'amountNet', order: 'DESC' }] });
    expect(paged.body.orders).to.deep.include({ total: 2, page: 2, limit: 1 });
    expect(paged.body.orders.elements[0].id).to.equal(first.id);
    const byRange = await agent
      .post('/store-api/order')
      .set('suite-context-token', token)
      .send({ filter: [{ type: 'range', field: 'amountNet', parameters: { gte: 15 } }] });
    expect(byRange.body.orders.elements.map((o: { id: string }) => o.id)).to.deep.equal([second.id]);
  });

  it('reads the line items, deliveries, transactions and documents of many orders in one statement, lines by position, the rest by creation time and id', async () => {
    const shop = await getShop();
    const { token } = await loginNewCustomer();
    const first = await orderSomething(token, 1);
    const second = await orderSomething(token, 2);
    const at = (minute: number) => `2000-01-01 00:${String(minute).padStart(2, '0')}:00.000`;
    // Ids chosen so that id order and time order disagree; two rows share a time (then the id decides).
    await shop.db('order_deliveries').insert([
      {
        id: 'f'.repeat(32),
        order_id: first.id,
        state: 'shipped',
        shipping_method: 'pickup',
        shipping_address: JSON.stringify({ street: 'Late Lane 2' }),
        created_at: at(5),
      },
      {
        id: 'e'.repeat(32),
        order_id: first.id,
        state: 'open',
        shipping_method: 'standard',
        shipping_address: null,
        created_at: at(3),
      },
    ]);
    await shop.db('order_transactions').insert([
      {
        id: 'a'.repeat(32),
        order_id: second.id,
        state: 'paid',
        payment_method: 'card',
        amount: 123456,
        created_at: at(9),
      },
      {
        id: 'b'.repeat(32),
        order_id: second.id,
        state: 'open',
        payment_method: 'invoice',
        amount: 5,
        created_at: at(9),
      },
    ]);
    await shop.db('documents').insert({
      id: 'c'.repeat(32),
      order_id: second.id,
      customer_id: null,
      type: 'delivery_note',
      document_number: 'DN-1',
      file_name: `dn-${newId()}.pdf`,
      mime_type: 'application/pdf',
      content: Buffer.from('%PDF'),
      created_at: at(1),
    });
    // A line placed before the checkout's (position -1), one after it with a smaller id than a third at the same position.
    const line = {
      order_id: second.id,
      type: 'custom',
      product_id: null,
      product_number: null,
      quantity: 1,
      unit_net: 250,
      total_net: 250,
      tax_rate_bp: 700,
      payload: JSON.stringify({ note: 'gift wrap' }),
    };
    await shop.db('order_line_items').insert([
      { ...line, id: '9'.repeat(32), label: 'Last', position: 7 },
      { ...line, id: '8'.repeat(32), label: 'Next to last', position: 7 },
      { ...line, id: '7'.repeat(32), label: 'First', position: -1 },
    ]);
    const { result, statements } = await statementsDuring(shop.db, /./, () =>
      // In the Store API's shape, as the checkout answered them (orderView: no statement of its own).
      shop.runtime.orders
        .getMany(shop.db, [second.id, first.id, 'd'.repeat(32), first.id])
        .then((orders) => orders.map(orderView)),
    );
    // The orders' stamps; then, since both changed after their checkout kept them, the orders and
    // their line items, deliveries, transactions and documents together.
    expect(statements, statements.join('\n')).to.have.length(3);
    const [b, a, again] = result as Array<Record<string, any>>;
    expect(again, 'an id asked for twice answers twice, an unknown id not at all').to.deep.equal(a);
    expect(a!.lineItems).to.deep.equal(first.lineItems);
    const extra = (id: string, label: string, position: number) => ({
      id,
      type: 'custom',
      productId: null,
      productNumber: null,
      label,
      quantity: 1,
      unitPrice: 2.5,
      totalPrice: 2.5,
      taxRate: 7,
      payload: { note: 'gift wrap' },
      position,
    });
    expect(b!.lineItems.map((l: { id: string }) => l.id)).to.deep.equal([
      '7'.repeat(32),
      ...second.lineItems.map((l: { id: string }) => l.id),
      '8'.repeat(32),
      '9'.repeat(32),
    ]);
    expect(b!.lineItems[0]).to.deep.equal(extra('7'.repeat(32), 'First', -1));
    expect(b!.lineItems.slice(1, -2)).to.deep.equal(second.lineItems);
    const stateOf = (technicalName: string, name: string) => ({ technicalName, name });
    // Older than what the checkout wrote, so they come first.
    expect(a!.deliveries).to.deep.equal([
      {
        id: 'e'.repeat(32),
        stateMachineState: stateOf('open', 'Open'),
        shippingMethod: { technicalName: 'standard', name: 'Standard' },
        shippingOrderAddress: null,
      },
      {
        id: 'f'.repeat(32),
        stateMachineState: stateOf('shipped', 'Shipped'),
        shippingMethod: { technicalName: 'pickup', name: 'pickup' },
        shippingOrderAddress: { street: 'Late Lane 2' },
      },
      ...first.deliveries,
    ]);
    expect(a!.transactions).to.deep.equal(first.transactions);
    expect(a!.documents).to.deep.equal(first.documents);
    expect(b!.deliveries).to.deep.equal(second.deliveries);
    expect(b!.transactions).to.deep.equal([
      {
        id: 'a'.repeat(32),
        stateMachineState: stateOf('paid', 'Paid'),
        paymentMethod: { technicalName: 'card', name: 'card' },
        amount: 1234.56,
      },
      {
        id: 'b'.repeat(32),
        stateMachineState: stateOf('open', 'Open'),
        paymentMethod: { technicalName: 'invoice', name: 'Invoice' },
        amount: 0.05,
      },
      ...second.transactions,
    ]);
    const noteFirst = {
      id: 'c'.repeat(32),
      type: 'delivery_note',
      documentNumber: 'DN-1',
      createdAt: '2000-01-01T00:01:00.000Z',
    };
    expect(b!.documents).to.have.length(second.documents.length + 1);
    expect(b!.documents[0]).to.include(noteFirst);
    expect(b!.documents.slice(1)).to.deep.equal(second.documents);
  });

  it('reads a long id list 500 orders at a time, in the order asked for', async () => {
    const shop = await getShop();
    const { token } = await loginNewCustomer();
    const [first, second] = [await orderSomething(token, 1), await orderSomething(token, 2)];
    const unknown = Array.from({ length: 600 }, () => newId());
    const ids = [second.id as string, ...unknown, first.id as string];
    const { result, statements } = await statementsDuring(shop.db, /./, () =>
      shop.runtime.orders.getMany(shop.db, ids).then((orders) => orders.map(orderView)),
    );
    expect(result).to.deep.equal([second, first]);
    // Each slice: its orders' stamps; both orders are kept as their checkout answered them.
    expect(statements, statements.join('\n')).to.have.length(2);
    const inTransaction = await shop.db.transaction((trx) =>
      statementsDuring(shop.db, /^select/, () =>
        shop.runtime.orders.getMany(trx, ids).then((orders) => orders.map(orderView)),
      ),
    );
    expect(inTransaction.result).to.deep.equal([second, first]);
    // Inside a transaction nothing kept is used: per slice the orders, and their parts when it has any.
    expect(inTransaction.statements, inTransaction.statements.join('\n')).to.have.length(4);
  });

  it('keeps order views while their version stays, and builds one again after any write to the order or its parts, by any writer', async () => {
    const shop = await getShop();
    const { token } = await loginNewCustomer();
    const placed = await orderSomething(token, 1);
    const id = placed.id as string;
    const read = () =>
      statementsDuring(shop.db, /^select/, () =>
        shop.runtime.orders.get(shop.db, id).then((order) => order && orderView(order)),
      );
    const warm = await read();
    expect(warm.result).to.deep.equal(placed);
    expect(warm.statements, 'kept since the checkout answered it: its stamp is read, nothing else').to.have.length(1);
    expect(() => {
      (warm.result as Record<string, any>).lineItems[0].label = 'changed by a caller';
    }, 'a kept view is shared: no caller may change it').to.throw(TypeError);
    const channel = await shop.db('sales_channels').where({ id: placed.salesChannelId }).first('currency_precision');
    const writes: Array<[string, () => Promise<unknown>, (order: Record<string, any>) => void]> = [
      [
        'the order row',
        () => shop.db('orders').where({ id }).update({ customer_comment: 'Ring twice' }),
        (o) => expect(o.customerComment).to.equal('Ring twice'),
      ],
      [
        'a line item',
        () => shop.db('order_line_items').where({ order_id: id }).update({ label: 'Relabelled' }),
        (o) => expect(o.lineItems[0].label).to.equal('Relabelled'),
      ],
      [
        'a delivery',
        () => shop.db('order_deliveries').where({ order_id: id }).update({ state: 'shipped' }),
        (o) => expect(o.deliveries[0].stateMachineState.technicalName).to.equal('shipped'),
      ],
      [
        'a transaction',
        () => shop.db('order_transactions').where({ order_id: id }).update({ state: 'paid' }),
        (o) => expect(o.transactions[0].stateMachineState.technicalName).to.equal('paid'),
      ],
      [
        'a new document',
        () =>
          shop.db('documents').insert({
            id: newId(),
            order_id: id,
            customer_id: null,
            type: 'delivery_note',
            document_number: 'DN-KEPT',
            file_name: `dn-${newId()}.pdf`,
            mime_type: 'application/pdf',
            content: Buffer.from('%PDF'),
            created_at: '2000-01-01 00:00:00.000',
          }),
        (o) => expect(o.documents.map((d: { documentNumber: string }) => d.documentNumber)).to.include('DN-KEPT'),
      ],
      [
        'a deleted document',
        () => shop.db('documents').where({ order_id: id, document_number: 'DN-KEPT' }).delete(),
        (o) => expect(o.documents.map((d: { documentNumber: string }) => d.documentNumber)).not.to.include('DN-KEPT'),
      ],
      [
        'a deleted line item',
        () => shop.db('order_line_items').where({ order_id: id }).delete(),
        (o) => expect(o.lineItems).to.deep.equal([]),
      ],
      [
        "its sales channel's currency precision",
        () => shop.db('sales_channels').where({ id: placed.salesChannelId }).update({ currency_precision: 3 }),
        (o) => expect(o.amountTotal).to.equal(placed.amountTotal / 10),
      ],
    ];
    try {
      for (const [what, write, check] of writes) {
        await write();
        const { result, statements } = await read();
        expect(statements, `${what}: the stamp, the order, its parts`).to.have.length(3);
        check(result!);
        expect((await read()).statements, `${what}: kept again`).to.have.length(1);
      }
    } finally {
      await shop
        .db('sales_channels')
        .where({ id: placed.salesChannelId })
        .update({ currency_precision: channel.currency_precision });
    }
  });

  it('takes 20 documents written to one order at once without a deadlock (MariaDB: the version trigger locks the order before the foreign key check does)', async function () {
    if (!isServerDb()) this.skip();
    const shop = await getShop();
    const { token } = await loginNewCustomer();
    const placed = await orderSomething(token, 1);
    const before = await shop.db('orders').where({ id: placed.id }).first('version');
    const document = () => ({
      id: newId(),
      order_id: placed.id,
      customer_id: null,
      type: 'delivery_note',
      document_number: `DN-${newId().slice(0, 8)}`,
      file_name: `dn-${newId()}.pdf`,
      mime_type: 'application/pdf',
      content: Buffer.from('%PDF'),
      created_at: '2000-01-01 00:00:00.000',
    });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => shop.db.transaction(async (trx) => trx('documents').insert(document()))),
    );
    expect(
      results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
    ).to.deep.equal([]);
    const after = await shop.db('orders').where({ id: placed.id }).first('version');
    expect(Number(after.version) - Number(before.version)).to.equal(20);
    expect((await shop.runtime.orders.get(shop.db, placed.id as string))!.documents).to.have.length(
      placed.documents.length + 20,
    );
  });

  it('answers 400 for invalid criteria and 401 without login', async () => {
    const { token } = await loginNewCustomer();
    const agent = await http();
    const post = (body: unknown) =>
      agent
        .post('/store-api/order')
        .set('suite-context-token', token)
        .send(body as object);
    expectError(await post({ limit: 501 }), 400);
    expectError(await post({ filter: [{ type: 'equals', field: 'customerId', value: newId() }] }), 400);
    expectError(await post({ sort: [{ field: 'password' }] }), 400);
    expectError(await post({ page: 0 }), 400);
    expectError(
      await post({ filter: [{ type: 'contains', field: 'amountNet', value: '1' }] }),
      400,
      'SUITE__INVALID_CRITERIA_VALUE',
    );
    expectError(
      await post({ filter: [{ type: 'range', field: 'amountTotal', parameters: { gte: 'lots' } }] }),
      400,
      'SUITE__INVALID_CRITERIA_VALUE',
    );
    expectError(await agent.post('/store-api/order').send({}), 401);
    expectError(await agent.get(`/store-api/order/${newId()}`), 401);
  });

  it("reads one order and answers 404 for another customer's order and for unknown ids", async () => {
    const { token } = await loginNewCustomer();
    const other = await loginNewCustomer();
    const mine = await orderSomething(token);
    const theirs = await orderSomething(other.token);
    const agent = await http();
    const res = await agent.get(`/store-api/order/${mine.id}`).set('suite-context-token', token);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(mine);
    expectError(
      await agent.get(`/store-api/order/${theirs.id}`).set('suite-context-token', token),
      404,
      'SUITE__NOT_FOUND',
    );
    expectError(
      await agent.get(`/store-api/order/${newId()}`).set('suite-context-token', token),
      404,
      'SUITE__NOT_FOUND',
    );
    expectError(await agent.get('/store-api/order/not-an-id').set('suite-context-token', token), 400);
  });

  it("shows only one's own orders with orders.read, all of the company's with orders.read-all, none without", async () => {
    const created = await loginNewCustomer();
    const own = await orderSomething(created.token);
    const employeeOrder = await orderByEmployee(created.customer);
    const agent = await http();
    const list = async (token: string) =>
      (await agent.post('/store-api/order').set('suite-context-token', token).send({})).body.orders.elements.map(
        (o: { id: string }) => o.id,
      );
    expect(await list(created.token)).to.have.members([own.id, employeeOrder]);
    expect(
      await list(await sessionWithPermissions(created.customer, ['orders.read', 'orders.read-all'])),
    ).to.have.members([own.id, employeeOrder]);
    const ownOnly = await sessionWithPermissions(created.customer, ['orders.read']);
    expect(await list(ownOnly)).to.deep.equal([own.id]);
    expectError(await agent.get(`/store-api/order/${employeeOrder}`).set('suite-context-token', ownOnly), 404);
    const none = await sessionWithPermissions(created.customer, ['orders.create']);
    expectError(
      await agent.post('/store-api/order').set('suite-context-token', none).send({}),
      403,
      'SUITE__PERMISSION_DENIED',
    );
    expectError(await agent.get(`/store-api/order/${own.id}`).set('suite-context-token', none), 403);
  });

  it("downloads the invoice PDF of an order and answers 404 for another customer's document", async () => {
    const { token } = await loginNewCustomer();
    const other = await loginNewCustomer();
    const order = await orderSomething(token);
    const invoice = order.documents[0];
    expect(invoice.documentNumber).to.match(/^\d+$/);
    const agent = await http();
    const res = await agent
      .get(`/store-api/document/download/${invoice.id}`)
      .set('suite-context-token', token)
      .buffer(true)
      .parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      });
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/pdf/);
    expect(res.headers['content-disposition']).to.contain(invoice.fileName);
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    expect(pdf.length).to.be.greaterThan(1000);
    expect(pdf.subarray(-8).toString('latin1')).to.contain('%%EOF');
    expectError(
      await agent.get(`/store-api/document/download/${invoice.id}`).set('suite-context-token', other.token),
      404,
    );
    expectError(await agent.get(`/store-api/document/download/${newId()}`).set('suite-context-token', token), 404);
    expectError(await agent.get(`/store-api/document/download/${invoice.id}`), 401);

    const shop = await getShop();
    const stored = (await shop.runtime.documents.get(shop.db, invoice.id))!;
    expect(stored).to.deep.include({
      orderId: order.id,
      type: 'invoice',
      number: invoice.documentNumber,
      fileName: invoice.fileName,
      mimeType: 'application/pdf',
    });
    expect(stored.content.equals(pdf)).to.equal(true);
  });

  it('renders documents from text and tables through the runtime', async () => {
    const { customer } = await loginNewCustomer();
    const shop = await getShop();
    const created = await shop.runtime.documents.createPdf(shop.db, {
      type: 'offer',
      number: 'OF/10001',
      customerId: customer.id,
      title: 'Offer OF/10001',
      lines: [
        { text: 'Valid for 30 days.' },
        { table: [['Item', 'Price'], ...Array.from({ length: 80 }, (_, i) => [`Item ${i}`, `${i}.00 EUR`])] },
      ],
    });
    expect(created.fileName).to.equal('offer-OF-10001.pdf');
    const again = await shop.runtime.documents.createPdf(shop.db, {
      type: 'offer',
      number: 'OF/10001',
      customerId: customer.id,
      title: 'Copy',
      lines: [],
    });
    expect(again.fileName).to.not.equal(created.fileName);
    const stored = (await shop.runtime.documents.get(shop.db, created.id))!;
    expect(stored.content.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    // 80 table rows do not fit on one A4 page
    expect((stored.content.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).to.be.greaterThan(1);
    expect(stored.customerId).to.equal(customer.id);
  });
});
