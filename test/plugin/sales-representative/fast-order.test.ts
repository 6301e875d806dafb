import { expect } from 'chai';
import { insertProduct } from '../../helpers/checkout.js';
import { expectError } from '../../helpers/shop.js';
import { as, newCustomer, representativeWith } from './helpers.js';

describe('sales representatives: POST /sales-representative/fast-order', () => {
  it('adds products by number to the cart of the customer the representative acts for, reporting each item', async () => {
    const { token } = await representativeWith(1);
    const item = await insertProduct({ name: 'Rep Valve' });
    const client = await as(token);
    const res = await client.post('/sales-representative/fast-order', {
      items: [
        { productNumber: item.number, quantity: 3 },
        { productNumber: 'NO-SUCH-NUMBER', quantity: 1 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ success: false, added: 1, failed: 1 });
    expect(res.body.items[0]).to.include({ productId: item.id, quantity: 3, added: true });
    expect(res.body.items[1].added).to.equal(false);
    const cart = await client.get('/checkout/cart');
    expect(
      cart.body.lineItems.map((line: { productId: string; quantity: number }) => [line.productId, line.quantity]),
    ).to.deep.include([item.id, 3]);
  });

  it('is for representatives only: 403 for a customer login, 401 for guests, 400 for bad input', async () => {
    const customer = await newCustomer();
    const item = await insertProduct();
    expectError(
      await (
        await as(customer.token)
      ).post('/sales-representative/fast-order', { items: [{ productId: item.id, quantity: 1 }] }),
      403,
      'SUITE__SALES_REPRESENTATIVE_ONLY',
    );
    expectError(
      await (await as(null)).post('/sales-representative/fast-order', { items: [{ productId: item.id, quantity: 1 }] }),
      401,
    );
    const { token } = await representativeWith(1);
    expectError(
      await (await as(token)).post('/sales-representative/fast-order', { items: [] }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await (await as(token)).post('/sales-representative/fast-order', {}), 400, 'SUITE__INVALID_INPUT');
  });
});
