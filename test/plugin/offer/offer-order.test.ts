import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError } from '../../helpers/shop.js';
import { as, company, employee, openOffer, ordersOfOffer, product, requestOffer, startShop } from './helpers.js';

describe('offers: POST /offer-order/{id}', () => {
  before(startShop);

  it('orders an open offer at the offered prices and answers the order; calling again answers the same order', async () => {
    const c = await company();
    const buyer = await employee(c.customer, ['offer.read', 'orders.create', 'orders.read']);
    const p = await product(1000, 50);
    const offer = await openOffer(c, [{ productId: p.id, quantity: 2 }], [8.5]);
    const client = await as(buyer.token);
    const res = await client.post(`/offer-order/${offer.id}`, { comment: 'Gate 3' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ amountNet: 17, customerComment: 'Gate 3' });
    expect(res.body.lineItems[0]).to.include({ productId: p.id, quantity: 2, unitPrice: 8.5 });
    expect((await client.get(`/offer/${offer.id}`)).body).to.include({ status: 'accepted', orderId: res.body.id });
    const again = await client.post(`/offer-order/${offer.id}`, {});
    expect(again.body.id).to.equal(res.body.id);
    expect(await ordersOfOffer(offer.id)).to.have.length(1);
  });

  it('refuses what accepting refuses: not sent (400), no orders.create (403), another customer’s offer and unknown ids (404), guests (401)', async () => {
    const c = await company();
    const requested = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
    expectError(
      await (await as(c.customer.token)).post(`/offer-order/${requested.id}`, {}),
      400,
      'SUITE__OFFER_NOT_ACCEPTABLE',
    );
    const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
    const reader = await employee(c.customer, ['offer.read']);
    expectError(await (await as(reader.token)).post(`/offer-order/${offer.id}`, {}), 403);
    const other = await company();
    expectError(await (await as(other.customer.token)).post(`/offer-order/${offer.id}`, {}), 404);
    expectError(await (await as(c.customer.token)).post(`/offer-order/${newId()}`, {}), 404);
    expectError(await (await as(null)).post(`/offer-order/${offer.id}`, {}), 401);
    expectError(
      await (await as(c.customer.token)).post(`/offer-order/${offer.id}`, { comment: 5 }),
      400,
      'SUITE__INVALID_INPUT',
    );
  });
});
