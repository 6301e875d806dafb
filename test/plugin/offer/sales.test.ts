import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { nowDb } from '../../../src/lib/time.js';
import { insertProduct } from '../../helpers/checkout.js';
import { adminToken, expectError, getShop, http } from '../../helpers/shop.js';
import { createRepresentative, loginAs, newCustomer } from '../sales-representative/helpers.js';
import {
  as,
  backdateValidity,
  company,
  employee,
  openOffer,
  outboxRows,
  product,
  receiveMail,
  requestOffer,
  startShop,
  storedStatus,
} from './helpers.js';

async function setValidityDays(days: number): Promise<void> {
  const res = await (
    await http()
  )
    .patch('/api/_action/plugin-config/suite-b2b')
    .set('authorization', `Bearer ${await adminToken()}`)
    .send({ offerDefaultValidityDays: days });
  expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 204]);
}

describe('offers: the sales side', () => {
  before(startShop);

  describe('PUT /offer/{id} (pricing)', () => {
    it('prices lines, changes quantities, removes lines, sets validity and comments; the offer becomes a draft', async () => {
      const c = await company();
      const [a, b, x] = [await product(1000), await product(2000), await product(300)];
      const offer = await requestOffer(c.customer.token, [
        { productId: a.id, quantity: 5 },
        { productId: b.id, quantity: 1 },
        { productId: x.id, quantity: 1 },
      ]);
      const [la, lb, lx] = offer.lineItems;
      const validUntil = new Date(Date.now() + 14 * 86400000).toISOString();
      const res = await (
        await as(c.rep.token)
      ).put(`/offer/${offer.id}`, {
        subject: 'Renamed',
        salesComment: 'Prices include delivery.',
        validUntil,
        lineItems: [
          { id: la.id, unitPrice: 9.25, comment: 'Volume price' },
          { id: lb.id, quantity: 3 },
        ],
        removeLineItemIds: [lx.id],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({
        status: 'draft',
        subject: 'Renamed',
        salesComment: 'Prices include delivery.',
        validUntil,
        netTotal: 106.25,
        taxTotal: 20.19,
        total: 126.44,
        salesRepresentativeId: c.rep.id,
      });
      expect(
        res.body.lineItems.map((l: any) => [l.id, l.quantity, l.listPrice, l.unitPrice, l.totalPrice, l.comment]),
      ).to.deep.equal([
        [la.id, 5, 10, 9.25, 46.25, 'Volume price'],
        [lb.id, 3, 20, 20, 60, null],
      ]);
    });

    it('refuses past validity, amounts finer than the currency, unknown or all lines, mixed bodies (400)', async () => {
      const c = await company();
      const offer = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      const line = offer.lineItems[0].id;
      const rep = await as(c.rep.token);
      expectError(
        await rep.put(`/offer/${offer.id}`, { validUntil: '2020-01-01T00:00:00.000Z' }),
        400,
        'SUITE__OFFER_VALIDITY_PAST',
      );
      expectError(await rep.put(`/offer/${offer.id}`, { validUntil: 'tomorrow' }), 400, 'SUITE__INVALID_INPUT');
      expect(
        expectError(
          await rep.put(`/offer/${offer.id}`, { lineItems: [{ id: line, unitPrice: 1.005 }] }),
          400,
          'SUITE__INVALID_AMOUNT',
        ).source?.pointer,
      ).to.equal('/lineItems/0/unitPrice');
      expectError(
        await rep.put(`/offer/${offer.id}`, { lineItems: [{ id: line, unitPrice: -1 }] }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(await rep.put(`/offer/${offer.id}`, { lineItems: [{ id: line }] }), 400, 'SUITE__INVALID_INPUT');
      expectError(
        await rep.put(`/offer/${offer.id}`, { lineItems: [{ id: newId(), quantity: 2 }] }),
        400,
        'SUITE__OFFER_LINE_ITEM_NOT_FOUND',
      );
      expectError(await rep.put(`/offer/${offer.id}`, { removeLineItemIds: [line] }), 400, 'SUITE__OFFER_EMPTY');
      expectError(
        await rep.put(`/offer/${offer.id}`, { lineItems: [{ id: line, quantity: 2 }], removeLineItemIds: [line] }),
        400,
        'SUITE__OFFER_LINE_ITEM_CONFLICT',
      );
      expectError(
        await rep.put(`/offer/${offer.id}`, { action: 'accept', subject: 'x' }),
        400,
        'SUITE__OFFER_MIXED_UPDATE',
      );
      expectError(await rep.put(`/offer/${offer.id}`, {}), 400, 'SUITE__INVALID_INPUT');
      expectError(await rep.put(`/offer/${offer.id}`, { action: 'haggle' }), 400, 'SUITE__INVALID_INPUT');
      expect((await (await as(c.customer.token)).get(`/offer/${offer.id}`)).body).to.include({
        status: 'requested',
        netTotal: 10,
      });
    });

    it('refuses changes to an accepted offer (400)', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      expect((await (await as(c.customer.token)).put(`/offer/${offer.id}`, { action: 'accept' })).status).to.equal(200);
      expectError(
        await (await as(c.rep.token)).put(`/offer/${offer.id}`, { subject: 'Too late' }),
        400,
        'SUITE__OFFER_NOT_EDITABLE',
      );
    });

    it('answers 401 without login, 403 for the customer side, 404 for an unassigned representative', async () => {
      const c = await company();
      const offer = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      const body = { lineItems: [{ id: offer.lineItems[0].id, unitPrice: 1 }] };
      expectError(await (await as(null)).put(`/offer/${offer.id}`, body), 401);
      expectError(
        await (await as(c.customer.token)).put(`/offer/${offer.id}`, body),
        403,
        'SUITE__SALES_REPRESENTATIVE_ONLY',
      );
      expectError(
        await (await as((await employee(c.customer, ['offer.read'])).token)).put(`/offer/${offer.id}`, body),
        403,
      );
      expectError(
        await (await as((await employee(c.customer, ['offer.request'])).token)).put(`/offer/${offer.id}`, body),
        403,
      );
      expectError(await (await as((await company()).rep.token)).put(`/offer/${offer.id}`, body), 404);
      expect((await (await as(c.customer.token)).get(`/offer/${offer.id}`)).body.netTotal).to.equal(10);
    });
  });

  describe('POST /offer-add-products/{offerId}', () => {
    it('adds products at the customer’s price or at the price given', async () => {
      const c = await company();
      const offer = await requestOffer(c.customer.token, [{ productId: (await product(1000)).id, quantity: 1 }]);
      const [extra, priced] = [await product(450), await product(8000)];
      const res = await (
        await as(c.rep.token)
      ).post(`/offer-add-products/${offer.id}`, {
        object: [
          { productId: extra.id, quantity: 2 },
          { productId: priced.id, quantity: 1, price: 75.5, comment: 'Demo unit' },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ success: true });
      const read = (await (await as(c.customer.token)).get(`/offer/${offer.id}`)).body;
      expect(read).to.include({ status: 'draft', netTotal: 94.5 });
      expect(
        read.lineItems
          .slice(1)
          .map((l: any) => [l.productId, l.quantity, l.listPrice, l.unitPrice, l.comment, l.position]),
      ).to.deep.equal([
        [extra.id, 2, 4.5, 4.5, null, 1],
        [priced.id, 1, 80, 75.5, 'Demo unit', 2],
      ]);
    });

    it('prices for the offer’s customer when the representative acts for another assigned customer', async () => {
      const [first, second] = [await newCustomer(), await newCustomer()];
      const rep = await createRepresentative([first.customer.id, second.customer.id]);
      const repToken = await loginAs(rep.email, rep.password);
      const [p, special] = [await product(1000), await product(5000)];
      // The second customer has its own price for `special`; the representative acts for the first.
      await (await getShop()).db('suite_customer_prices').insert({
        id: newId(),
        customer_id: second.customer.id,
        product_id: special.id,
        min_quantity: 1,
        price_net: 4200,
        created_at: nowDb(),
      });
      const offer = await requestOffer(second.token, [{ productId: p.id, quantity: 1 }]);
      const res = await (
        await as(repToken)
      ).post(`/offer-add-products/${offer.id}`, { object: [{ productId: special.id, quantity: 2 }] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const read = (await (await as(second.token)).get(`/offer/${offer.id}`)).body;
      expect(read.lineItems.map((l: any) => [l.productId, l.quantity, l.unitPrice])).to.deep.equal([
        [p.id, 1, 10],
        [special.id, 2, 42],
      ]);
      expect(read.netTotal).to.equal(94);
    });

    it('refuses invalid bodies, products the customer cannot buy and offers past edits (400)', async () => {
      const c = await company();
      const offer = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      const rep = await as(c.rep.token);
      const p = await product();
      expectError(
        await rep.post(`/offer-add-products/${offer.id}`, { products: [{ productId: p.id, quantity: 1 }] }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(await rep.post(`/offer-add-products/${offer.id}`, { object: [] }), 400, 'SUITE__INVALID_INPUT');
      expectError(
        await rep.post(`/offer-add-products/${offer.id}`, {
          object: [{ productId: p.id, quantity: 1, price: 'cheap' }],
        }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await rep.post(`/offer-add-products/${offer.id}`, { object: [{ productId: p.id, quantity: 1, price: 0.001 }] }),
        400,
        'SUITE__INVALID_AMOUNT',
      );
      const hidden = await insertProduct({ active: false });
      expect(
        expectError(
          await rep.post(`/offer-add-products/${offer.id}`, { object: [{ productId: hidden.id, quantity: 1 }] }),
          400,
          'SUITE__OFFER_PRODUCT_NOT_AVAILABLE',
        ).source?.pointer,
      ).to.equal('/object/0/productId');
      expect((await (await as(c.customer.token)).put(`/offer/${offer.id}`, { action: 'decline' })).status).to.equal(
        200,
      );
      expectError(
        await rep.post(`/offer-add-products/${offer.id}`, { object: [{ productId: p.id, quantity: 1 }] }),
        400,
        'SUITE__OFFER_NOT_EDITABLE',
      );
      expect((await (await as(c.customer.token)).get(`/offer/${offer.id}`)).body.lineItems).to.have.length(1);
    });

    it('answers 401 without login, 403 for the customer side, 404 for an unassigned representative', async () => {
      const c = await company();
      const offer = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      const body = { object: [{ productId: (await product()).id, quantity: 1 }] };
      expectError(await (await as(null)).post(`/offer-add-products/${offer.id}`, body), 401);
      expectError(await (await as(c.customer.token)).post(`/offer-add-products/${offer.id}`, body), 403);
      expectError(
        await (
          await as((await employee(c.customer, ['offer.read', 'offer.request'])).token)
        ).post(`/offer-add-products/${offer.id}`, body),
        403,
      );
      expectError(await (await as((await company()).rep.token)).post(`/offer-add-products/${offer.id}`, body), 404);
      expectError(await (await as(c.rep.token)).post(`/offer-add-products/${newId()}`, body), 404);
    });
  });

  describe('POST /offer-mail/{id}', () => {
    it('mails the offer with its PDF to the requesting employee (company in copy), valid for the configured days', async () => {
      await setValidityDays(10);
      try {
        const c = await company();
        const buyer = await employee(c.customer, ['offer.request', 'offer.read']);
        const offer = await requestOffer(buyer.token, [{ productId: (await product(2500)).id, quantity: 2 }]);
        const res = await (
          await as(c.rep.token)
        ).post(`/offer-mail/${offer.id}`, { message: 'Looking forward to it.' });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.include({ success: true, recipient: buyer.email });
        const mail = await receiveMail(buyer.email, offer.offerNumber);
        expect(mail.envelopeTo).to.include(c.customer.email);
        expect(mail.text).to.contain('Looking forward to it.').and.contain('50.00 EUR');
        expect(mail.attachments.map((a) => [a.filename, a.contentType])).to.deep.equal([
          [`offer-${offer.offerNumber}.pdf`, 'application/pdf'],
        ]);
        const read = (await (await as(buyer.token)).get(`/offer/${offer.id}`)).body;
        expect(read.status).to.equal('open');
        expect(read.sentAt).to.be.a('string');
        expect((new Date(read.validUntil).getTime() - Date.now()) / 86400000).to.be.within(9.9, 10.1);
        expect(read.documents[0].id).to.equal(res.body.documentId);
      } finally {
        await setValidityDays(30);
      }
    });

    it('sending again makes a new document version and keeps the validity', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      const again = await (await as(c.rep.token)).post(`/offer-mail/${offer.id}`, {});
      expect(again.status).to.equal(200);
      const read = (await (await as(c.customer.token)).get(`/offer/${offer.id}`)).body;
      expect(read.documents.map((d: any) => d.documentNumber)).to.deep.equal([
        `${offer.offerNumber}-2`,
        offer.offerNumber,
      ]);
      expect(read.validUntil).to.equal(offer.validUntil);
    });

    it('refuses an offer whose validity has ended until a new one is set, and a decided offer (400)', async () => {
      const c = await company();
      const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      await backdateValidity(offer.id);
      const rep = await as(c.rep.token);
      expectError(await rep.post(`/offer-mail/${offer.id}`, {}), 400, 'SUITE__OFFER_VALIDITY_PAST');
      expectError(await rep.post(`/offer-mail/${offer.id}`, { message: 42 }), 400, 'SUITE__INVALID_INPUT');
      const renewed = await rep.put(`/offer/${offer.id}`, {
        validUntil: new Date(Date.now() + 86400000).toISOString(),
      });
      expect(renewed.body.status).to.equal('draft');
      expect((await rep.post(`/offer-mail/${offer.id}`, {})).status).to.equal(200);
      expect((await (await as(c.customer.token)).put(`/offer/${offer.id}`, { action: 'decline' })).status).to.equal(
        200,
      );
      expectError(await rep.post(`/offer-mail/${offer.id}`, {}), 400, 'SUITE__OFFER_NOT_EDITABLE');
    });

    it('answers 401 without login, 403 for the customer side, 404 for an unassigned representative', async () => {
      const c = await company();
      const offer = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      expectError(await (await as(null)).post(`/offer-mail/${offer.id}`, {}), 401);
      expectError(await (await as(c.customer.token)).post(`/offer-mail/${offer.id}`, {}), 403);
      expectError(
        await (await as((await employee(c.customer, ['offer.read'])).token)).post(`/offer-mail/${offer.id}`, {}),
        403,
      );
      expectError(await (await as((await company()).rep.token)).post(`/offer-mail/${offer.id}`, {}), 404);
      expect(await outboxRows(c.customer.email, 'offer-sent')).to.have.length(0);
      expect(await storedStatus(offer.id)).to.equal('requested');
    });
  });

  describe('DELETE /sales-representative/offer/{id}', () => {
    it('deletes an offer of an assigned customer, but not an accepted one', async () => {
      const c = await company();
      const offer = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      const res = await (await as(c.rep.token)).delete(`/sales-representative/offer/${offer.id}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ success: true });
      expectError(await (await as(c.customer.token)).get(`/offer/${offer.id}`), 404);

      const accepted = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
      expect((await (await as(c.customer.token)).put(`/offer/${accepted.id}`, { action: 'accept' })).status).to.equal(
        200,
      );
      expectError(
        await (await as(c.rep.token)).delete(`/sales-representative/offer/${accepted.id}`),
        400,
        'SUITE__OFFER_ACCEPTED',
      );
    });

    it('answers 400 for a malformed id, 401 without login, 403 for the customer side, 404 for an unassigned representative', async () => {
      const c = await company();
      const offer = await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      expectError(await (await as(c.rep.token)).delete('/sales-representative/offer/123'), 400);
      expectError(await (await as(null)).delete(`/sales-representative/offer/${offer.id}`), 401);
      expectError(await (await as(c.customer.token)).delete(`/sales-representative/offer/${offer.id}`), 403);
      expectError(
        await (
          await as((await employee(c.customer, ['offer.read', 'offer.request'])).token)
        ).delete(`/sales-representative/offer/${offer.id}`),
        403,
      );
      expectError(await (await as((await company()).rep.token)).delete(`/sales-representative/offer/${offer.id}`), 404);
      expect(await storedStatus(offer.id)).to.equal('requested');
    });
  });
});
