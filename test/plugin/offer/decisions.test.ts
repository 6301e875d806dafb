import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError, getShop } from '../../helpers/shop.js';
import {
  as,
  backdateValidity,
  company,
  employee,
  openOffer,
  ordersOfOffer,
  outboxRows,
  product,
  receiveMail,
  requestOffer,
  startShop,
  storedStatus,
} from './helpers.js';

describe('offers: the customer’s decisions', () => {
  before(startShop);

  describe('PUT /offer/{id} with action accept', () => {
    it('an employee with offer.read and orders.create accepts: one order at the offered prices, the representative is told', async () => {
      const c = await company();
      const buyer = await employee(c.customer, ['offer.read', 'orders.create', 'orders.read']);
      const p = await product(1000, 50);
      const offer = await openOffer(c, [{ productId: p.id, quantity: 5 }], [7.77]);
      const res = await (
        await as(buyer.token)
      ).put(`/offer/${offer.id}`, { action: 'accept', comment: 'Deliver to gate 2' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ status: 'accepted', netTotal: 38.85 });
      expect(res.body.acceptedAt).to.be.a('string');
      const order = (await (await as(buyer.token)).get(`/order/${res.body.orderId}`)).body;
      expect(order).to.include({ amountNet: 38.85, amountTotal: res.body.total, customerComment: 'Deliver to gate 2' });
      expect(order.lineItems[0]).to.include({ productId: p.id, quantity: 5, unitPrice: 7.77 });
      expect(order.placedBy).to.deep.equal({ type: 'employee', id: buyer.id });
      expect(Number((await (await getShop()).db('products').where({ id: p.id }).first('stock')).stock)).to.equal(45);
      expect(await outboxRows(c.rep.email, 'offer-accepted')).to.have.length(1);

      // Accepting again answers the same order; nothing new is placed.
      const again = await (await as(c.customer.token)).put(`/offer/${offer.id}`, { action: 'accept' });
      expect(again.status).to.equal(200);
      expect(again.body.orderId).to.equal(res.body.orderId);
      expect(await ordersOfOffer(offer.id)).to.have.length(1);
    });

    it('refuses offers not sent yet, expired or declined ones, and lost stock, leaving the offer open (400)', async () => {
      const c = await company();
      const client = await as(c.customer.token);
      const requested = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      expectError(await client.put(`/offer/${requested.id}`, { action: 'accept' }), 400, 'SUITE__OFFER_NOT_ACCEPTABLE');

      const expiring = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      await backdateValidity(expiring.id);
      expectError(await client.put(`/offer/${expiring.id}`, { action: 'accept' }), 400, 'SUITE__OFFER_EXPIRED');
      expect(await storedStatus(expiring.id)).to.equal('expired');

      const declined = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      expect((await client.put(`/offer/${declined.id}`, { action: 'decline' })).status).to.equal(200);
      expectError(await client.put(`/offer/${declined.id}`, { action: 'accept' }), 400, 'SUITE__OFFER_NOT_ACCEPTABLE');

      const scarce = await product(1000, 3);
      const tooMany = await openOffer(c, [{ productId: scarce.id, quantity: 3 }]);
      await (await getShop()).db('products').where({ id: scarce.id }).update({ stock: 2 });
      expect((await client.put(`/offer/${tooMany.id}`, { action: 'accept' })).status).to.equal(400);
      expect(await storedStatus(tooMany.id)).to.equal('open');
      expect(await ordersOfOffer(tooMany.id)).to.have.length(0);
      expectError(
        await client.put(`/offer/${tooMany.id}`, { action: 'accept', comment: 42 }),
        400,
        'SUITE__INVALID_INPUT',
      );
    });

    it('answers 401 without login, 403 for the representative and employees lacking offer.read or orders.create, 404 for another customer', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      expectError(await (await as(null)).put(`/offer/${offer.id}`, { action: 'accept' }), 401);
      expectError(
        await (await as(c.rep.token)).put(`/offer/${offer.id}`, { action: 'accept' }),
        403,
        'SUITE__CUSTOMER_SIDE_ONLY',
      );
      expectError(
        await (
          await as((await employee(c.customer, ['offer.read'])).token)
        ).put(`/offer/${offer.id}`, { action: 'accept' }),
        403,
        'SUITE__OFFER_ORDER_NOT_ALLOWED',
      );
      expectError(
        await (
          await as((await employee(c.customer, ['orders.create', 'offer.request'])).token)
        ).put(`/offer/${offer.id}`, { action: 'accept' }),
        403,
      );
      expectError(
        await (await as((await company()).customer.token)).put(`/offer/${offer.id}`, { action: 'accept' }),
        404,
      );
      expectError(await (await as(c.customer.token)).put(`/offer/${newId()}`, { action: 'accept' }), 404);
      expect(await storedStatus(offer.id)).to.equal('open');
    });
  });

  describe('PUT /offer/{id} with action decline', () => {
    it('declines with a reason and tells the representative; declining again is harmless', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      const res = await (
        await as(c.customer.token)
      ).put(`/offer/${offer.id}`, { action: 'decline', comment: 'Found a cheaper supplier' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ status: 'declined', declineComment: 'Found a cheaper supplier', orderId: null });
      expect(res.body.state.isFinal).to.equal(true);
      const mail = await receiveMail(c.rep.email, `Offer ${offer.offerNumber} declined`);
      expect(mail.text).to.contain('Found a cheaper supplier');
      expect(
        (await (await as(c.customer.token)).put(`/offer/${offer.id}`, { action: 'decline' })).body.status,
      ).to.equal('declined');
    });

    it('refuses declining an accepted offer (400) and answers 401, 403 and 404 as accept does', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      expectError(await (await as(null)).put(`/offer/${offer.id}`, { action: 'decline' }), 401);
      expectError(await (await as(c.rep.token)).put(`/offer/${offer.id}`, { action: 'decline' }), 403);
      expectError(
        await (
          await as((await employee(c.customer, ['offer.request'])).token)
        ).put(`/offer/${offer.id}`, { action: 'decline' }),
        403,
      );
      expectError(
        await (await as((await company()).customer.token)).put(`/offer/${offer.id}`, { action: 'decline' }),
        404,
      );
      expect((await (await as(c.customer.token)).put(`/offer/${offer.id}`, { action: 'accept' })).status).to.equal(200);
      expectError(
        await (await as(c.customer.token)).put(`/offer/${offer.id}`, { action: 'decline' }),
        400,
        'SUITE__OFFER_NOT_DECLINABLE',
      );
    });
  });

  describe('POST /offer/{id}/request-validity-extension', () => {
    it('asks the representative for more time; a new validity and another mail reopen the offer for acceptance', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 2 }]);
      await backdateValidity(offer.id);
      const res = await (
        await as(c.customer.token)
      ).post(`/offer/${offer.id}/request-validity-extension`, { comment: 'Budget approval takes until next month' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ success: true });
      const mail = await receiveMail(c.rep.email, `Validity extension requested for offer ${offer.offerNumber}`);
      expect(mail.text).to.contain('Budget approval takes until next month');
      const asked = (await (await as(c.rep.token)).get(`/offer/${offer.id}`)).body;
      expect(asked).to.include({ status: 'expired', extensionComment: 'Budget approval takes until next month' });
      expect(asked.extensionRequestedAt).to.be.a('string');

      const rep = await as(c.rep.token);
      const extended = await rep.put(`/offer/${offer.id}`, {
        validUntil: new Date(Date.now() + 30 * 86400000).toISOString(),
      });
      expect(extended.body).to.include({ status: 'draft', extensionRequestedAt: null });
      expect((await rep.post(`/offer-mail/${offer.id}`, {})).status).to.equal(200);
      const accepted = await (await as(c.customer.token)).put(`/offer/${offer.id}`, { action: 'accept' });
      expect(accepted.body.status).to.equal('accepted');
    });

    it('refuses offers not sent yet or decided (400) and invalid bodies', async () => {
      const c = await company();
      const client = await as(c.customer.token);
      const requested = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      expectError(
        await client.post(`/offer/${requested.id}/request-validity-extension`, {}),
        400,
        'SUITE__OFFER_EXTENSION_NOT_POSSIBLE',
      );
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      expectError(
        await client.post(`/offer/${offer.id}/request-validity-extension`, { comment: ['x'] }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await client.post(`/offer/${offer.id}/request-validity-extension`, { days: 5 }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expect((await client.put(`/offer/${offer.id}`, { action: 'decline' })).status).to.equal(200);
      expectError(
        await client.post(`/offer/${offer.id}/request-validity-extension`, {}),
        400,
        'SUITE__OFFER_EXTENSION_NOT_POSSIBLE',
      );
      expect(await outboxRows(c.rep.email, 'offer-validity-extension-requested')).to.have.length(0);
    });

    it('answers 401 without login, 403 for the representative and employees without offer.request, 404 for another customer', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      const path = `/offer/${offer.id}/request-validity-extension`;
      expectError(await (await as(null)).post(path, {}), 401);
      expectError(await (await as(c.rep.token)).post(path, {}), 403, 'SUITE__CUSTOMER_SIDE_ONLY');
      expectError(await (await as((await employee(c.customer, ['offer.read'])).token)).post(path, {}), 403);
      expectError(await (await as((await company()).customer.token)).post(path, {}), 404);
      expect((await (await as((await employee(c.customer, ['offer.request'])).token)).post(path, {})).status).to.equal(
        200,
      );
    });
  });

  describe('expiry', () => {
    it('the scheduled job marks open offers past their validity expired and leaves the others', async () => {
      const c = await company();
      const past = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      const current = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      const requested = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      await backdateValidity(past.id);
      await backdateValidity(requested.id);
      await (await getShop()).jobs.runDue();
      expect(await storedStatus(past.id)).to.equal('expired');
      expect(await storedStatus(current.id)).to.equal('open');
      expect(await storedStatus(requested.id)).to.equal('requested');
    });
  });
});
