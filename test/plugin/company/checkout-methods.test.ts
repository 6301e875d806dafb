import { expect } from 'chai';
import { placeOrder } from '../../helpers/checkout.js';
import { expectError } from '../../helpers/shop.js';
import { as as storeClient, employee, fillCart, newCustomer, product } from '../order-approval/helpers.js';
import { setCreditLine } from '../payment-on-account/helpers.js';
import { as } from '../sales-representative/helpers.js';
import { createUnit } from './helpers.js';

const BUYER = ['orders.create', 'orders.read'];

async function offered(token: string, kind: 'shipping' | 'payment'): Promise<string[]> {
  const res = await (await storeClient(token)).post(`/${kind}-method`, {});
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return (res.body.elements as Array<{ technicalName: string }>).map((m) => m.technicalName);
}

async function order(token: string, productId: string, body: Record<string, unknown> = {}) {
  await (await storeClient(token)).delete('/checkout/cart');
  await fillCart(token, [{ productId, quantity: 1 }]);
  return placeOrder(token, body);
}

describe('organisation units: the payment and shipping methods a unit’s buyers may use', () => {
  it('a unit’s methods apply to its subtree: lists, default choice and refusals; a sub-unit’s own list wins', async () => {
    const customer = await newCustomer();
    const company = await as(customer.token);
    const sales = await createUnit(company, 'Sales');
    const north = await createUnit(company, 'North', sales);
    const purchasing = await createUnit(company, 'Purchasing');
    const northBuyer = await employee(customer, BUYER);
    const purchasingBuyer = await employee(customer, BUYER);
    await company.put(`/b2b/organisation-unit/${north}/member/${northBuyer.id}`, {});
    await company.put(`/b2b/organisation-unit/${purchasing}/member/${purchasingBuyer.id}`, {});
    const item = await product();

    const set = await company.put(`/b2b/organisation-unit/${sales}/checkout-methods`, {
      paymentMethods: ['invoice'],
      shippingMethods: ['express'],
    });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    expect(set.body).to.deep.include({ paymentMethods: ['invoice'], shippingMethods: ['express'] });
    const northView = await company.get(`/b2b/organisation-unit/${north}/checkout-methods`);
    expect(northView.body).to.deep.include({
      paymentMethods: null,
      shippingMethods: null,
      effective: { paymentMethods: ['invoice'], shippingMethods: ['express'] },
    });

    // North's buyer is offered express only and gets it without naming it; naming standard is refused.
    expect(await offered(northBuyer.token, 'shipping')).to.deep.equal(['express']);
    const byDefault = await order(northBuyer.token, item.id);
    expect(byDefault.status, JSON.stringify(byDefault.body)).to.equal(200);
    expect(byDefault.body.deliveries[0].shippingMethod.technicalName).to.equal('express');
    const refused = expectError(
      await order(northBuyer.token, item.id, { shippingMethod: 'standard' }),
      400,
      'SUITE__SHIPPING_METHOD_NOT_ALLOWED',
    ) as { meta?: Record<string, unknown>; source?: { pointer?: string } };
    expect(refused.meta?.allowed).to.deep.equal(['express']);
    expect(refused.source?.pointer).to.equal('/shippingMethod');
    // Purchasing has no list: its buyer is offered both and may order standard.
    expect(await offered(purchasingBuyer.token, 'shipping')).to.deep.equal(['standard', 'express']);
    expect((await order(purchasingBuyer.token, item.id, { shippingMethod: 'standard' })).status).to.equal(200);

    // North's own list replaces Sales' for North.
    await company.put(`/b2b/organisation-unit/${north}/checkout-methods`, {
      paymentMethods: null,
      shippingMethods: ['standard'],
    });
    expect(await offered(northBuyer.token, 'shipping')).to.deep.equal(['standard']);
    // A buyer of North and Purchasing orders for both: Purchasing restricts nothing.
    await company.put(`/b2b/organisation-unit/${purchasing}/member/${northBuyer.id}`, {});
    expect(await offered(northBuyer.token, 'shipping')).to.deep.equal(['standard', 'express']);
    // The company admin is not restricted.
    expect(await offered(customer.token, 'shipping')).to.deep.equal(['standard', 'express']);

    // Clearing the lists frees the subtree; deleting a unit takes its settings with it.
    await company.put(`/b2b/organisation-unit/${sales}/checkout-methods`, {
      paymentMethods: null,
      shippingMethods: null,
    });
    await company.delete(`/b2b/organisation-unit/${north}/member/${northBuyer.id}`);
    expect((await company.delete(`/b2b/organisation-unit/${north}`)).status).to.equal(200);
    expect(await offered(northBuyer.token, 'shipping')).to.deep.equal(['standard', 'express']);
  });

  it('payment on account left out and refused for a unit that allows invoice only', async () => {
    const customer = await newCustomer();
    await setCreditLine(customer.customer.id, 10_000);
    const company = await as(customer.token);
    const unit = await createUnit(company, 'Field team');
    const buyer = await employee(customer, BUYER);
    await company.put(`/b2b/organisation-unit/${unit}/member/${buyer.id}`, {});
    expect(await offered(buyer.token, 'payment')).to.deep.equal(['invoice', 'on-account']);
    await company.put(`/b2b/organisation-unit/${unit}/checkout-methods`, {
      paymentMethods: ['invoice'],
      shippingMethods: null,
    });
    expect(await offered(buyer.token, 'payment')).to.deep.equal(['invoice']);
    const item = await product();
    expectError(
      await order(buyer.token, item.id, { paymentMethod: 'on-account' }),
      400,
      'SUITE__PAYMENT_METHOD_NOT_ALLOWED',
    );
    // Only on account allowed: an order naming no method is paid on account.
    await company.put(`/b2b/organisation-unit/${unit}/checkout-methods`, {
      paymentMethods: ['on-account'],
      shippingMethods: null,
    });
    const placed = await order(buyer.token, item.id);
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    expect(placed.body.transactions[0].paymentMethod.technicalName).to.equal('on-account');
  });

  it('bad input 400 and changes nothing; another company’s unit 404; without the permission 403', async () => {
    const customer = await newCustomer();
    const company = await as(customer.token);
    const unit = await createUnit(company, 'Sales');
    const path = `/b2b/organisation-unit/${unit}/checkout-methods`;
    const unknown = expectError(
      await company.put(path, { paymentMethods: ['invoice'], shippingMethods: ['standard', 'drone'] }),
      400,
      'SUITE__CHECKOUT_METHOD_UNKNOWN',
    ) as { source?: { pointer?: string } };
    expect(unknown.source?.pointer).to.equal('/shippingMethods/1');
    expectError(await company.put(path, { paymentMethods: [], shippingMethods: null }), 400, 'SUITE__INVALID_INPUT');
    expectError(await company.put(path, { paymentMethods: ['invoice'] }), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await company.put(path, { paymentMethods: ['invoice', 'invoice'], shippingMethods: null }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expect((await company.get(path)).body).to.deep.include({ paymentMethods: null, shippingMethods: null });

    const other = await as((await newCustomer()).token);
    expectError(await other.get(path), 404);
    expectError(await other.put(path, { paymentMethods: null, shippingMethods: null }), 404);
    const reader = await employee(customer, ['organisation-unit.read']);
    expect((await (await as(reader.token)).get(path)).status).to.equal(200);
    expectError(await (await as(reader.token)).put(path, { paymentMethods: null, shippingMethods: null }), 403);
    expectError(await (await as(null)).get(path), 401);
  });
});
