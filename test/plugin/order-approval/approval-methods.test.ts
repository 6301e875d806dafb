import { expect } from 'chai';
import { expectError } from '../../helpers/shop.js';
import { createUnit } from '../company/helpers.js';
import { as as companyClient } from '../sales-representative/helpers.js';
import { as, company, fillCart, product, startShop } from './helpers.js';

/** The requester asks for approval of one product with the given body fields; answers the response. */
async function ask(token: string, fields: Record<string, unknown>) {
  const p = await product();
  const cartToken = await fillCart(token, [{ productId: p.id, quantity: 1 }]);
  return (await as(token)).post('/order-approval/create', { cartToken, ...fields });
}

describe('order approval: the delivery and payment method chosen when asking', () => {
  before(startShop);

  it('the approved order is placed with the methods chosen in the request, and the approval shows them', async () => {
    const { customer, requester } = await company();
    const asked = await ask(requester.token, { shippingMethod: 'express', paymentMethod: 'invoice' });
    expect(asked.status, JSON.stringify(asked.body)).to.equal(200);
    const id = asked.headers['suite-order-approval-id'] as string;
    const read = await (await as(requester.token)).get(`/b2b/order-approval/${id}`);
    expect(read.body).to.include({ shippingMethod: 'express', paymentMethod: 'invoice' });
    expect((await (await as(customer.token)).post(`/b2b/order-approval/${id}/approve`, {})).status).to.equal(200);
    const executed = await (await as(requester.token)).post(`/b2b/order-approval/${id}/execute`, {});
    expect(executed.status, JSON.stringify(executed.body)).to.equal(200);
    const order = await (await as(requester.token)).get(`/order/${executed.body.executionResult.orderId}`);
    expect(order.body.deliveries[0].shippingMethod.technicalName).to.equal('express');
    expect(order.body.transactions[0].paymentMethod.technicalName).to.equal('invoice');
  });

  it('refuses an unknown method and one the requester’s unit does not allow, before anyone is asked', async () => {
    const { customer, requester } = await company();
    const unknown = expectError(
      await ask(requester.token, { shippingMethod: 'drone' }),
      400,
      'SUITE__CHECKOUT_METHOD_UNKNOWN',
    ) as {
      source?: { pointer?: string };
    };
    expect(unknown.source?.pointer).to.equal('/shippingMethod');
    const client = await companyClient(customer.token);
    const unit = await createUnit(client, 'Field team');
    await client.put(`/b2b/organisation-unit/${unit}/member/${requester.id}`, {});
    await client.put(`/b2b/organisation-unit/${unit}/checkout-methods`, {
      paymentMethods: null,
      shippingMethods: ['express'],
    });
    expectError(await ask(requester.token, { shippingMethod: 'standard' }), 400, 'SUITE__SHIPPING_METHOD_NOT_ALLOWED');
    expect((await ask(requester.token, { shippingMethod: 'express' })).status).to.equal(200);
  });
});
