import { expect } from 'chai';
import { addToCart, insertProduct, placeOrder } from '../helpers/checkout.js';
import { expectError, http, loginNewCustomer } from '../helpers/shop.js';

/**
 * Host routes that clients written for the shop platform call, sent the way they send them: POST
 * with a criteria body under /store-api, the context token in the suite-context-token header.
 */
async function post(path: string, token: string | null, body: unknown = {}) {
  const req = (await http()).post(`/store-api${path}`);
  return (token ? req.set('suite-context-token', token) : req).send(body as object);
}

describe('host: routes the platform’s clients call', () => {
  it('POST /account/customer answers the logged-in customer’s profile, as the GET does', async () => {
    const { token, customer } = await loginNewCustomer();
    const posted = await post('/account/customer', token, {
      associations: { addresses: {} },
      includes: { customer: ['id', 'email'] },
    });
    expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
    expect(posted.body).to.include({ id: customer.id, email: customer.email });
    const read = await (await http()).get('/store-api/account/customer').set('suite-context-token', token);
    expect(posted.body).to.deep.equal(read.body);
    expect((await post('/account/customer', token)).body.id, 'an empty body too').to.equal(customer.id);
  });

  it('POST /account/customer: bad input 400, guests 401', async () => {
    const { token } = await loginNewCustomer();
    expectError(await post('/account/customer', token, { includes: 'everything' }), 400, 'SUITE__INVALID_INPUT');
    expectError(await post('/account/customer', token, { unknown: 1 }), 400, 'SUITE__INVALID_INPUT');
    expectError(await post('/account/customer', null), 401);
    expectError(await post('/account/customer', 'not-a-token'), 401);
  });

  it('POST /shipping-method and /payment-method answer the sales channel’s methods, the ones orders carry', async () => {
    const { token } = await loginNewCustomer();
    const shipping = await post('/shipping-method', token, { onlyAvailable: true });
    expect(shipping.status, JSON.stringify(shipping.body)).to.equal(200);
    expect(shipping.body).to.include({ total: 2, page: 1, apiAlias: 'dal_entity_search_result' });
    expect(shipping.body.elements.map((m: { technicalName: string }) => m.technicalName)).to.deep.equal([
      'standard',
      'express',
    ]);
    expect(shipping.body.elements[0]).to.include({
      technicalName: 'standard',
      name: 'Standard',
      active: true,
      apiAlias: 'shipping_method',
    });
    expect(shipping.body.elements[0].id).to.match(/^[0-9a-f]{32}$/);
    const payment = await post('/payment-method', token, { onlyAvailable: true });
    expect(payment.status).to.equal(200);
    // The host's invoice, then the methods plugins add and offer to the caller (contract 3.5/3.6): payment
    // on account only to a company with a credit line, which this one has not (test/plugin/payment-on-account).
    expect(payment.body.elements.map((m: { technicalName: string }) => m.technicalName)).to.deep.equal(['invoice']);
    expect(payment.body.elements[0]).to.include({ name: 'Invoice', apiAlias: 'payment_method' });

    // The ids stay the same between calls, and an order placed afterwards names these methods.
    expect((await post('/shipping-method', token)).body.elements[0].id).to.equal(shipping.body.elements[0].id);
    const product = await insertProduct();
    expect((await addToCart(token, [{ productId: product.id, quantity: 1 }])).status).to.be.oneOf([200, 201]);
    const order = await placeOrder(token);
    expect(order.status, JSON.stringify(order.body)).to.equal(200);
    expect(order.body.deliveries[0].shippingMethod.technicalName).to.equal(shipping.body.elements[0].technicalName);
    expect(order.body.transactions[0].paymentMethod.technicalName).to.equal(payment.body.elements[0].technicalName);
  });

  it('the method lists: guests may read them (as on the platform); bad input 400', async () => {
    for (const path of ['/shipping-method', '/payment-method']) {
      const guest = await post(path, null);
      expect(guest.status, path).to.equal(200);
      // Standard and express; a guest has no credit line: payment on account is not offered to them.
      expect(guest.body.elements, path).to.have.length(path === '/shipping-method' ? 2 : 1);
      expectError(await post(path, null, { onlyAvailable: 'yes' }), 400, 'SUITE__INVALID_INPUT');
      expectError(await post(path, null, { limit: 0 }), 400, 'SUITE__INVALID_INPUT');
      expectError(await post(path, null, { unknown: true }), 400, 'SUITE__INVALID_INPUT');
    }
  });
});
