import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { placeOrder } from '../../helpers/checkout.js';
import { expectError, getShop } from '../../helpers/shop.js';
import { createRepresentative, loginAs } from '../sales-representative/helpers.js';
import {
  as,
  backdateValidity,
  company,
  employee,
  fillCart,
  newCustomer,
  openOffer,
  product,
  requestOffer,
  startShop,
} from './helpers.js';

describe('offers: reading', () => {
  before(startShop);

  describe('GET /offer/{id}', () => {
    it('shows the offer to the customer, its employees with offer.read and its representative', async () => {
      const c = await company();
      const offer = await requestOffer(c.customer.token, [{ productId: (await product(700)).id, quantity: 2 }]);
      const reader = await employee(c.customer, ['offer.read']);
      for (const token of [c.customer.token, reader.token, c.rep.token]) {
        const res = await (await as(token)).get(`/offer/${offer.id}`);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.include({
          id: offer.id,
          offerNumber: offer.offerNumber,
          netTotal: 14,
          status: 'requested',
        });
      }
    });

    it('shows an open offer past its validity as expired before the expiry job has run', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      await backdateValidity(offer.id);
      const res = await (await as(c.customer.token)).get(`/offer/${offer.id}`);
      expect(res.body.status).to.equal('expired');
      expect(res.body.state).to.include({
        technicalName: 'expired',
        allowsAccept: false,
        allowsExtensionRequest: true,
      });
    });

    it('answers 400 for a malformed id, 401 without login, 403 without offer.read, 404 for another customer or an unassigned representative', async () => {
      const c = await company();
      const offer = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      expectError(await (await as(c.customer.token)).get('/offer/not-an-id'), 400, 'SUITE__INVALID_INPUT');
      expectError(await (await as(null)).get(`/offer/${offer.id}`), 401);
      const requester = await employee(c.customer, ['offer.request']);
      expectError(await (await as(requester.token)).get(`/offer/${offer.id}`), 403);
      const other = await company();
      expectError(await (await as(other.customer.token)).get(`/offer/${offer.id}`), 404, 'SUITE__NOT_FOUND');
      expectError(await (await as(other.rep.token)).get(`/offer/${offer.id}`), 404, 'SUITE__NOT_FOUND');
      expectError(await (await as(c.customer.token)).get(`/offer/${newId()}`), 404);
    });
  });

  describe('POST /offer/list', () => {
    it('lists the customer’s own offers by criteria; a representative sees every assigned customer’s', async () => {
      const [a, b] = [await newCustomer(), await newCustomer()];
      const rep = await createRepresentative([a.customer.id, b.customer.id]);
      const repToken = await loginAs(rep.email, rep.password);
      const p = await product();
      const first = await requestOffer(a.token, [{ productId: p.id, quantity: 1 }], { subject: 'First' });
      const second = await requestOffer(a.token, [{ productId: p.id, quantity: 2 }], { subject: 'Second' });
      const ofB = await requestOffer(b.token, [{ productId: p.id, quantity: 3 }], { subject: 'Other company' });
      await requestOffer((await newCustomer()).token, [{ productId: p.id, quantity: 1 }]);

      const mine = await (await as(a.token)).post('/offer/list', {});
      expect(mine.status, JSON.stringify(mine.body)).to.equal(200);
      expect(mine.body.total).to.equal(2);
      expect(mine.body.elements.map((o: any) => o.id)).to.deep.equal([second.id, first.id]);
      const filtered = await (
        await as(a.token)
      ).post('/offer/list', { filter: [{ type: 'equals', field: 'subject', value: 'First' }], limit: 1 });
      expect(filtered.body.elements.map((o: any) => o.id)).to.deep.equal([first.id]);
      const byProduct = await (
        await as(a.token)
      ).post('/offer/list', { filter: [{ type: 'equals', field: 'productId', value: p.id }], term: 'Sec' });
      expect(byProduct.body.elements.map((o: any) => o.id)).to.deep.equal([second.id]);

      const all = await (await as(repToken)).post('/offer/list', { sort: [{ field: 'subject', order: 'ASC' }] });
      expect(all.body.total).to.equal(3);
      expect(all.body.elements.map((o: any) => o.id)).to.deep.equal([first.id, ofB.id, second.id]);
      const onlyB = await (
        await as(repToken)
      ).post('/offer/list', { filter: [{ type: 'equals', field: 'customerId', value: b.customer.id }] });
      expect(onlyB.body.elements.map((o: any) => o.id)).to.deep.equal([ofB.id]);
    });

    it('finds offers past their validity under the status expired', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      await backdateValidity(offer.id);
      const res = await (
        await as(c.customer.token)
      ).post('/offer/list', { filter: [{ type: 'equals', field: 'status', value: 'expired' }] });
      expect(res.body.elements.map((o: any) => o.id)).to.deep.equal([offer.id]);
    });

    it('answers 400 for unknown fields and limits, 401 without login, 403 without offer.read', async () => {
      const c = await company();
      const client = await as(c.customer.token);
      expectError(await client.post('/offer/list', { filter: [{ type: 'equals', field: 'secret', value: 1 }] }), 400);
      expectError(await client.post('/offer/list', { limit: 501 }), 400);
      expectError(await (await as(null)).post('/offer/list', {}), 401);
      expectError(await (await as((await employee(c.customer, ['offer.request'])).token)).post('/offer/list', {}), 403);
    });
  });

  describe('POST /offer-states', () => {
    it('lists the statuses with their flags, filterable', async () => {
      const c = await company();
      const res = await (await as(c.customer.token)).post('/offer-states', {});
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.total).to.equal(6);
      expect(res.body.elements.map((s: any) => s.technicalName)).to.deep.equal([
        'requested',
        'draft',
        'open',
        'accepted',
        'declined',
        'expired',
      ]);
      expect(res.body.elements.find((s: any) => s.technicalName === 'accepted')).to.include({
        isFinal: true,
        allowsAccept: false,
        allowsSalesEdit: false,
      });
      const acceptable = await (
        await as(c.customer.token)
      ).post('/offer-states', { filter: [{ type: 'equals', field: 'allowsAccept', value: true }] });
      expect(acceptable.body.elements.map((s: any) => s.technicalName)).to.deep.equal(['open']);
      const final = await (
        await as(c.rep.token)
      ).post('/offer-states', {
        filter: [{ type: 'equals', field: 'isFinal', value: true }],
        sort: [{ field: 'name', order: 'DESC' }],
      });
      expect(final.body.elements.map((s: any) => s.technicalName)).to.deep.equal(['declined', 'accepted']);
    });

    it('answers 400 for invalid criteria, 401 without login, 403 without offer.read', async () => {
      const c = await company();
      expectError(
        await (
          await as(c.customer.token)
        ).post('/offer-states', { filter: [{ type: 'equals', field: 'color', value: 'red' }] }),
        400,
      );
      expectError(await (await as(c.customer.token)).post('/offer-states', { page: 0 }), 400);
      expectError(await (await as(null)).post('/offer-states', {}), 401);
      expectError(
        await (await as((await employee(c.customer, ['offer.request'])).token)).post('/offer-states', {}),
        403,
      );
    });
  });

  describe('GET /offer-document/{id}', () => {
    it('downloads the mailed PDF for the customer, its readers and its representative', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      const [document] = offer.documents;
      expect(document.fileName).to.equal(`offer-${offer.offerNumber}.pdf`);
      const reader = await employee(c.customer, ['offer.read']);
      for (const token of [c.customer.token, reader.token, c.rep.token]) {
        const res = await (await as(token)).get(`/offer-document/${document.id}`).buffer(true);
        expect(res.status).to.equal(200);
        expect(res.headers['content-type']).to.contain('application/pdf');
        expect(res.headers['content-disposition']).to.contain(document.fileName);
        expect(Buffer.from(res.body).subarray(0, 5).toString()).to.equal('%PDF-');
      }
    });

    it('answers 400 for a malformed id, 401 without login, 403 without offer.read, 404 for another customer’s document or an order invoice', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      const documentId = offer.documents[0].id;
      expectError(await (await as(c.customer.token)).get('/offer-document/x'), 400);
      expectError(await (await as(null)).get(`/offer-document/${documentId}`), 401);
      expectError(
        await (await as((await employee(c.customer, ['offer.request'])).token)).get(`/offer-document/${documentId}`),
        403,
      );
      const other = await company();
      expectError(await (await as(other.customer.token)).get(`/offer-document/${documentId}`), 404);
      expectError(await (await as(other.rep.token)).get(`/offer-document/${documentId}`), 404);
      // An invoice is a document of the customer too, but not an offer document.
      await fillCart(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      const order = await placeOrder(c.customer.token);
      expectError(await (await as(c.customer.token)).get(`/offer-document/${order.body.documents[0].id}`), 404);
    });
  });

  describe('GET /b2b/offer-reference-product/{productId}', () => {
    it('answers the customer’s latest order with the product and its latest sent offer with it', async () => {
      const c = await company();
      const p = await product(1500);
      const client = await as(c.customer.token);
      const none = await client.get(`/b2b/offer-reference-product/${p.id}`);
      expect(none.status, JSON.stringify(none.body)).to.equal(200);
      expect(none.body).to.deep.equal({ productId: p.id, order: null, orderLineItem: null, offer: null });

      await fillCart(c.customer.token, [{ productId: p.id, quantity: 4 }]);
      const order = (await placeOrder(c.customer.token)).body;
      const offer = await openOffer(c, [{ productId: p.id, quantity: 10 }], [12]);
      const res = await client.get(`/b2b/offer-reference-product/${p.id}`);
      expect(res.body.order.id).to.equal(order.id);
      expect(res.body.orderLineItem).to.include({ quantity: 4, unitPrice: 15, totalPrice: 60 });
      expect(res.body.offer.id).to.equal(offer.id);
      expect(res.body.offer.lineItems[0]).to.include({ unitPrice: 12, listPrice: 15 });

      const forRep = await (
        await as(c.rep.token)
      ).get(`/b2b/offer-reference-product/${p.id}?customerId=${c.customer.customer.id}`);
      expect(forRep.body.order.id).to.equal(order.id);
    });

    it('answers 400 for a malformed id, 401 without login, 403 without offer.read, 404 for unknown products and other customers', async () => {
      const c = await company();
      const p = await product();
      expectError(await (await as(c.customer.token)).get('/b2b/offer-reference-product/nope'), 400);
      expectError(await (await as(c.customer.token)).get(`/b2b/offer-reference-product/${p.id}?customerId=bad`), 400);
      expectError(await (await as(null)).get(`/b2b/offer-reference-product/${p.id}`), 401);
      expectError(
        await (
          await as((await employee(c.customer, ['offer.request'])).token)
        ).get(`/b2b/offer-reference-product/${p.id}`),
        403,
      );
      expectError(await (await as(c.customer.token)).get(`/b2b/offer-reference-product/${newId()}`), 404);
      const other = await company();
      expectError(
        await (
          await as(c.customer.token)
        ).get(`/b2b/offer-reference-product/${p.id}?customerId=${other.customer.customer.id}`),
        404,
      );
      expectError(
        await (
          await as(c.rep.token)
        ).get(`/b2b/offer-reference-product/${p.id}?customerId=${other.customer.customer.id}`),
        404,
      );
    });

    it('answers a product the caller may not see like an unknown id (no existence oracle)', async () => {
      const c = await company();
      const hidden = await product();
      await (await getShop()).db('products').where({ id: hidden.id }).update({ active: false });
      const seen = expectError(
        await (await as(c.customer.token)).get(`/b2b/offer-reference-product/${hidden.id}`),
        404,
        'SUITE__NOT_FOUND',
      );
      const unknownId = newId();
      const unknown = expectError(
        await (await as(c.customer.token)).get(`/b2b/offer-reference-product/${unknownId}`),
        404,
        'SUITE__NOT_FOUND',
      );
      expect(seen.detail!.replace(hidden.id, '<id>')).to.equal(unknown.detail!.replace(unknownId, '<id>'));
    });
  });
});
