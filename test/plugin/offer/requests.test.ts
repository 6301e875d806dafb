import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { insertProduct } from '../../helpers/checkout.js';
import { expectError, getShop } from '../../helpers/shop.js';
import {
  as,
  company,
  defaultAddressId,
  employee,
  fillCart,
  newCustomer,
  outboxRows,
  product,
  requestOffer,
  startShop,
} from './helpers.js';

describe('offers: requests', () => {
  before(startShop);

  describe('POST /offer-request (from the cart)', () => {
    it('snapshots the cart lines at the customer’s prices and tells the representative', async () => {
      const c = await company();
      const p = await product(1234);
      await fillCart(c.customer.token, [{ productId: p.id, quantity: 3 }]);
      const res = await (
        await as(c.customer.token)
      ).post('/offer-request', { subject: 'Tender', commission: 'C-9', customerComment: null });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({
        status: 'requested',
        subject: 'Tender',
        commission: 'C-9',
        customerId: c.customer.customer.id,
        netTotal: 37.02,
        taxTotal: 7.03,
        total: 44.05,
        orderId: null,
        validUntil: null,
      });
      expect(res.body.offerNumber).to.match(/^OF\d+$/);
      expect(res.body.state).to.include({
        technicalName: 'requested',
        allowsAccept: false,
        allowsSalesEdit: true,
        isFinal: false,
      });
      expect(res.body.requestedBy).to.include({
        type: 'customer',
        id: c.customer.customer.id,
        email: c.customer.email,
      });
      expect(res.body.lineItems).to.have.length(1);
      expect(res.body.lineItems[0]).to.include({
        productId: p.id,
        quantity: 3,
        unitPrice: 12.34,
        totalPrice: 37.02,
        taxRate: 19,
      });
      expect(await outboxRows(c.rep.email, 'offer-requested')).to.have.length(1);
      // The cart is left alone: the customer may still order it directly.
      const cart = await (await as(c.customer.token)).get('/checkout/cart');
      expect(cart.body.lineItems).to.have.length(1);
    });

    it('replays the first answer for the same Idempotency-Key and refuses the key with another body', async () => {
      const c = await company();
      await fillCart(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      const client = await as(c.customer.token);
      const key = `offer-${newId()}`;
      const first = await client.post('/offer-request', { subject: 'Once' }).set('Idempotency-Key', key);
      const again = await client.post('/offer-request', { subject: 'Once' }).set('Idempotency-Key', key);
      expect(first.status).to.equal(200);
      expect(again.status).to.equal(200);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      expect(again.body.id).to.equal(first.body.id);
      expect(
        await (await getShop()).db('b2b_offers').where({ customer_id: c.customer.customer.id }).select('id'),
      ).to.have.length(1);
      expectError(
        await client.post('/offer-request', { subject: 'Other' }).set('Idempotency-Key', key),
        422,
        'SUITE__IDEMPOTENCY_KEY_REUSED',
      );
    });

    it('refuses an empty cart, unavailable products and invalid fields (400)', async () => {
      const c = await company();
      const client = await as(c.customer.token);
      expectError(await client.post('/offer-request', {}), 400, 'SUITE__CART_EMPTY');
      const gone = await insertProduct();
      await fillCart(c.customer.token, [{ productId: gone.id, quantity: 1 }]);
      await (await getShop()).db('products').where({ id: gone.id }).update({ active: false });
      expectError(await client.post('/offer-request', {}), 400, 'SUITE__OFFER_PRODUCT_NOT_AVAILABLE');
      expect(
        expectError(await client.post('/offer-request', { billigAddressId: 'nope' }), 400, 'SUITE__INVALID_INPUT')
          .source?.pointer,
      ).to.equal('/billigAddressId');
      expect(
        expectError(await client.post('/offer-request', { billingAddressId: newId() }), 400, 'SUITE__INVALID_INPUT')
          .source?.pointer,
      ).to.equal('/billingAddressId');
      expectError(await client.post('/offer-request', { subject: 'x'.repeat(256) }), 400, 'SUITE__INVALID_INPUT');
    });

    it('answers 401 without a login, 403 for an employee without offer.request, 404 for another customer’s address', async () => {
      const c = await company();
      expectError(await (await as(null)).post('/offer-request', {}), 401);
      const reader = await employee(c.customer, ['offer.read']);
      expectError(await (await as(reader.token)).post('/offer-request', {}), 403);
      const other = await newCustomer();
      await fillCart(c.customer.token, [{ productId: (await product()).id, quantity: 1 }]);
      const foreignAddress = await defaultAddressId(other.customer.id);
      expectError(await (await as(c.customer.token)).post('/offer-request', { deliverAddressId: foreignAddress }), 404);
      expect(
        await (await getShop()).db('b2b_offers').where({ customer_id: c.customer.customer.id }).select('id'),
      ).to.have.length(0);
    });
  });

  describe('POST /offer-item-request (chosen items)', () => {
    it('prices chosen items with their comments; an employee’s request names the employee', async () => {
      const c = await company();
      const buyer = await employee(c.customer, ['offer.request']);
      const [a, b] = [await product(500), await product(999)];
      const address = await defaultAddressId(c.customer.customer.id);
      const offer = await requestOffer(
        buyer.token,
        [
          { productId: a.id, quantity: 4, comment: 'Blue only' },
          { productId: b.id, quantity: 1 },
        ],
        { billigAddressId: address, deliverAddressId: address, customerComment: 'Needed by May' },
      );
      expect(offer).to.include({
        status: 'requested',
        netTotal: 29.99,
        billigAddressId: address,
        customerComment: 'Needed by May',
      });
      expect(offer.requestedBy).to.include({ type: 'employee', id: buyer.id, email: buyer.email });
      expect(offer.lineItems.map((l: any) => [l.productId, l.quantity, l.unitPrice, l.comment])).to.deep.equal([
        [a.id, 4, 5, 'Blue only'],
        [b.id, 1, 9.99, null],
      ]);
      expect(await outboxRows(c.rep.email, 'offer-requested')).to.have.length(1);
    });

    it('a representative’s own offer for its customer starts as a draft', async () => {
      const c = await company();
      const offer = await requestOffer(c.rep.token, [{ productId: (await product()).id, quantity: 2 }]);
      expect(offer).to.include({
        status: 'draft',
        customerId: c.customer.customer.id,
        salesRepresentativeId: c.rep.id,
      });
      expect(offer.requestedBy.type).to.equal('salesRepresentative');
    });

    it('refuses missing items, bad quantities and products the customer cannot buy (400)', async () => {
      const c = await company();
      const client = await as(c.customer.token);
      expect(
        expectError(await client.post('/offer-item-request', { subject: 'x' }), 400, 'SUITE__INVALID_INPUT').source
          ?.pointer,
      ).to.equal('/lineItems');
      expectError(await client.post('/offer-item-request', { lineItems: [] }), 400, 'SUITE__INVALID_INPUT');
      const p = await product();
      expectError(
        await client.post('/offer-item-request', { lineItems: [{ productId: p.id, quantity: 0 }] }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await client.post('/offer-item-request', { lineItems: [{ productId: p.id, quantity: 1.5 }] }),
        400,
        'SUITE__INVALID_INPUT',
      );
      const hidden = await insertProduct({ active: false });
      const refused = expectError(
        await client.post('/offer-item-request', {
          lineItems: [
            { productId: p.id, quantity: 1 },
            { productId: hidden.id, quantity: 1 },
          ],
        }),
        400,
        'SUITE__OFFER_PRODUCT_NOT_AVAILABLE',
      );
      expect(refused.source?.pointer).to.equal('/lineItems/1/productId');
      expectError(
        await client.post('/offer-item-request', { lineItems: [{ productId: newId(), quantity: 1 }] }),
        400,
        'SUITE__OFFER_PRODUCT_NOT_AVAILABLE',
      );
    });

    it('answers 401 without a login, 403 for an employee without offer.request, 404 for another customer’s address', async () => {
      const c = await company();
      const p = await product();
      const body = { lineItems: [{ id: 'line-1', productId: p.id, quantity: 1, comment: 'x' }] };
      expectError(await (await as(null)).post('/offer-item-request', body), 401);
      const reader = await employee(c.customer, ['offer.read', 'orders.create']);
      expectError(await (await as(reader.token)).post('/offer-item-request', body), 403);
      const other = await newCustomer();
      expectError(
        await (
          await as(c.customer.token)
        ).post('/offer-item-request', { ...body, billigAddressId: await defaultAddressId(other.customer.id) }),
        404,
      );
    });
  });
});
