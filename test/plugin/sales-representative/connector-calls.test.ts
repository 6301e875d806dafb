import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { insertProduct } from '../../helpers/checkout.js';
import { expectError } from '../../helpers/shop.js';
import { as, newCustomer, orderAs, representativeWith } from './helpers.js';

/**
 * Decision 0048: the public storefront connector for the real product (laioutr/app-b2bsellers)
 * calls these as it does on a live shop; each used to be refused here (400 / 404).
 */
describe('sales representatives: the calls of the real product’s storefront connector', () => {
  it('POST /sales-representative/customer-search with {"search": …} finds the assigned customers by it', async () => {
    const { customers, token } = await representativeWith(2);
    const [, second] = customers as [(typeof customers)[0], (typeof customers)[0]];
    const client = await as(token);
    const res = await client.post('/sales-representative/customer-search', { search: second.email });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.elements.map((c: { id: string }) => c.id)).to.deep.equal([second.customer.id]);
    const stranger = await newCustomer();
    const none = await client.post('/sales-representative/customer-search', { search: stranger.email, limit: 5 });
    expect(none.body.total, 'never a customer of another representative').to.equal(0);
    expectError(
      await client.post('/sales-representative/customer-search', { search: 'a', term: 'b' }),
      400,
      'SUITE__INVALID_INPUT',
    );
  });

  it('POST /sales-representative/sales-statistics without customerId answers the figures over all assigned customers', async () => {
    const { customers, token } = await representativeWith(2);
    const [first, second] = customers as [(typeof customers)[0], (typeof customers)[0]];
    await orderAs(first.token, 2, 1000);
    await orderAs(second.token, 1, 500);
    await orderAs((await newCustomer()).token, 1, 9900);
    const client = await as(token);
    const all = await client.post('/sales-representative/sales-statistics', {});
    expect(all.status, JSON.stringify(all.body)).to.equal(200);
    expect(all.body).to.include({ customerId: null, currency: 'EUR', revenueBasis: 'net' });
    expect(all.body.months).to.have.length(12);
    expect(all.body.total).to.deep.equal({ revenue: 25, orderCount: 2, averageOrderValue: 12.5 });
    // The customer named in the body (as the connector sends it) or the query: that customer's figures.
    const one = await client.post('/sales-representative/sales-statistics', { customerId: second.customer.id });
    expect(one.status, JSON.stringify(one.body)).to.equal(200);
    expect(one.body).to.include({ customerId: second.customer.id });
    expect(one.body.total).to.include({ revenue: 5, orderCount: 1 });
    expectError(
      await client.post('/sales-representative/sales-statistics', { customerId: (await newCustomer()).customer.id }),
      404,
    );
  });

  it('POST /sales-representative/fast-order with the platform’s lineItems (referencedId or productNumber)', async () => {
    const { token } = await representativeWith(1);
    const [byId, byNumber] = [await insertProduct(), await insertProduct()];
    const client = await as(token);
    const res = await client.post('/sales-representative/fast-order', {
      lineItems: [
        { type: 'product', referencedId: byId.id, quantity: 2 },
        { productNumber: byNumber.number, quantity: 1 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ success: true, added: 2, failed: 0 });
    const cart = await client.get('/checkout/cart');
    expect(
      cart.body.lineItems.map((line: { productId: string; quantity: number }) => [line.productId, line.quantity]),
    ).to.have.deep.members([
      [byId.id, 2],
      [byNumber.id, 1],
    ]);
    expectError(await client.post('/sales-representative/fast-order', { lineItems: [] }), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await client.post('/sales-representative/fast-order', {
        items: [{ productId: byId.id, quantity: 1 }],
        lineItems: [{ referencedId: byId.id, quantity: 1 }],
      }),
      400,
      'SUITE__INVALID_INPUT',
    );
  });

  it('cost centers under /b2b/cost-center with the connector’s body: the representative names an assigned customer', async () => {
    const { customers, token } = await representativeWith(2);
    const [, second] = customers as [(typeof customers)[0], (typeof customers)[0]];
    const client = await as(token);
    const number = `CC-${newId().slice(0, 6)}`;
    const created = await client.post('/b2b/cost-center', {
      name: 'Workshop',
      number,
      customerId: second.customer.id,
      active: true,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body, 'the record at the top level, as the connector reads it').to.include({
      name: 'Workshop',
      number,
      customerId: second.customer.id,
      active: true,
    });
    const id = created.body.id as string;
    // The customer's own login sees it: it is that company's cost center.
    const own = await (await as(second.token)).get(`/b2b/cost-center/${id}`);
    expect(own.status).to.equal(200);
    expect(own.body).to.include({ id, number, customerId: second.customer.id });

    const read = await client.get(`/b2b/cost-center/${id}`);
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    expect(read.body).to.include({ name: 'Workshop', customerId: second.customer.id });
    const put = await client.put(`/b2b/cost-center/${id}`, {
      name: 'Workshop North',
      number,
      customerId: second.customer.id,
      active: true,
    });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    expect(put.body).to.include({ name: 'Workshop North' });
    const patched = await client.patch(`/b2b/cost-center/${id}`, { active: false, customerId: second.customer.id });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body).to.include({ active: false });

    // Another representative, another company: as unknown.
    const other = await as((await representativeWith(1)).token);
    expectError(await other.get(`/b2b/cost-center/${id}`), 404);
    expectError(
      await other.post('/b2b/cost-center', { name: 'X', number: 'X-1', customerId: second.customer.id }),
      404,
    );
    const stranger = await newCustomer();
    expectError(
      await (
        await as(stranger.token)
      ).post('/b2b/cost-center', { name: 'X', number: 'X-2', customerId: second.customer.id }),
      404,
    );
    const mine = await (
      await as(stranger.token)
    ).post('/b2b/cost-center', {
      name: 'Own',
      number: 'OWN-1',
      customerId: stranger.customer.id,
      active: true,
    });
    expect(mine.status, 'a company naming itself').to.equal(200);

    const deleted = await client.delete(`/b2b/cost-center/${id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
    expectError(await (await as(second.token)).get(`/b2b/cost-center/${id}`), 404);
  });
});
