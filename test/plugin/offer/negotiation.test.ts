import { expect } from 'chai';
import { EXPIRY_REMINDER_JOB } from '../../../src/plugin/offer/index.js';
import { toDbTime } from '../../../src/lib/time.js';
import { expectError, getShop, http } from '../../helpers/shop.js';
import {
  as,
  company,
  openOffer,
  ordersOfOffer,
  outboxRows,
  product,
  receiveMail,
  requestOffer,
  startShop,
} from './helpers.js';

/** Queued runs of the reminder job, worked by two job workers at once (SQLite: one process, as in production). */
async function workersRace(): Promise<void> {
  const shop = await getShop();
  for (let i = 0; i < 3; i++) await shop.jobs.jobs.enqueue(shop.db, EXPIRY_REMINDER_JOB, {});
  await Promise.all([shop.jobs.runDue(), shop.jobs.runDue()]);
}

const lineOf = (offer: { lineItems: Array<{ label: string }> }, label: string) =>
  offer.lineItems.find((l) => l.label === label) as any;

describe('offers: negotiated quotes', () => {
  before(startShop);

  it('a quote negotiated over three versions and accepted at version 3 (accepting version 2 afterwards → 409)', async () => {
    const c = await company();
    const p = await product(1000, 100);
    const customer = await as(c.customer.token);
    const rep = await as(c.rep.token);
    // Version 1: the request, priced and mailed (the one-round flow).
    const v1 = await openOffer(c, [{ productId: p.id, quantity: 10 }], [9]);
    expect(v1).to.include({ version: 1, netTotal: 90 });
    const line = v1.lineItems[0];

    // Version 2: the customer proposes another quantity (a counter-proposal goes back to the representative).
    const v2 = await customer.post(`/offer/${v1.id}/customer-revision`, {
      lineItems: [{ id: line.id, quantity: 20 }],
      message: 'Can we do 20?',
    });
    expect(v2.status, JSON.stringify(v2.body)).to.equal(200);
    expect(v2.body).to.include({ version: 2, status: 'draft', netTotal: 180 });
    expectError(
      await customer.put(`/offer/${v1.id}`, { action: 'accept', version: 2 }),
      400,
      'SUITE__OFFER_NOT_ACCEPTABLE',
    );

    // Version 3: the representative lowers the price for 20 and mails it.
    const priced = await rep.put(`/offer/${v1.id}`, { lineItems: [{ id: line.id, unitPrice: 8.5 }] });
    expect(priced.body).to.include({ version: 3, status: 'draft', netTotal: 170 });
    // Further changes before mailing stay in version 3.
    expect((await rep.put(`/offer/${v1.id}`, { salesComment: 'Price for 20 units.' })).body.version).to.equal(3);
    expect((await rep.post(`/offer-mail/${v1.id}`, {})).status).to.equal(200);

    const versions = (await customer.get(`/offer/${v1.id}/versions`)).body;
    expect(versions.current).to.equal(3);
    expect(versions.elements.map((v: any) => [v.version, v.side, v.netTotal])).to.deep.equal([
      [1, 'sales', 90],
      [2, 'customer', 180],
      [3, 'sales', 170],
    ]);
    const diff = (await customer.get(`/offer/${v1.id}/versions/3/diff`)).body;
    expect(diff).to.include({ from: 2, to: 3 });
    expect(diff.offer).to.deep.include({ field: 'netTotal', before: 180, after: 170 });
    expect(diff.offer).to.deep.include({ field: 'salesComment', before: null, after: 'Price for 20 units.' });
    expect(diff.lineItems).to.have.length(1);
    expect(diff.lineItems[0]).to.include({ lineItemId: line.id, change: 'changed' });
    expect(diff.lineItems[0].fields).to.deep.include({ field: 'unitPrice', before: 9, after: 8.5 });
    const against1 = (await customer.get(`/offer/${v1.id}/versions/3/diff?against=1`)).body;
    expect(against1.lineItems[0].fields).to.deep.include({ field: 'quantity', before: 10, after: 20 });

    // The PDF of any version: the mailed one, and the customer's version rendered on request.
    for (const n of [1, 2, 3]) {
      const pdf = await (
        await http()
      )
        .get(`/store-api/offer/${v1.id}/versions/${n}/document`)
        .set('suite-context-token', c.customer.token)
        .buffer(true);
      expect(pdf.status, `version ${n}`).to.equal(200);
      expect(pdf.headers['content-type']).to.contain('application/pdf');
    }

    const accepted = await customer.put(`/offer/${v1.id}`, { action: 'accept', version: 3 });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
    expect(accepted.body).to.include({ status: 'accepted', version: 3 });
    const order = (await customer.get(`/order/${accepted.body.orderId}`)).body;
    expect(order.lineItems.map((l: any) => [l.productId, l.quantity, l.unitPrice])).to.deep.equal([[p.id, 20, 8.5]]);

    const stale = await customer.put(`/offer/${v1.id}`, { action: 'accept', version: 2 });
    expectError(stale, 409, 'SUITE__OFFER_VERSION_STALE');
    expectError(await customer.post(`/offer-order/${v1.id}`, { version: 2 }), 409, 'SUITE__OFFER_VERSION_STALE');
    expect((await customer.put(`/offer/${v1.id}`, { action: 'accept', version: 3 })).body.orderId).to.equal(
      accepted.body.orderId,
    );
    expect(await ordersOfOffer(v1.id)).to.have.length(1);
  });

  it('optional positions left out of the order: unticked options and headings are not ordered, free-text positions are; discounts apply', async () => {
    const c = await company();
    const [a, b] = [await product(1000, 100), await product(2000, 100)];
    const requested = await requestOffer(c.customer.token, [
      { productId: a.id, quantity: 2 },
      { productId: b.id, quantity: 1 },
    ]);
    const rep = await as(c.rep.token);
    const [lineA, lineB] = requested.lineItems;
    const edited = await rep.put(`/offer/${requested.id}`, {
      discount: 5,
      lineItems: [
        { id: lineA.id, discount: 10 },
        { id: lineB.id, optional: true },
      ],
    });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    const added = await rep.post(`/offer/${requested.id}/positions`, {
      positions: [
        { kind: 'heading', label: 'Services' },
        { kind: 'text', label: 'Installation', unitPrice: 150, taxRate: 19 },
        { kind: 'text', label: 'Freight', unitPrice: 25, taxRate: 19, optional: true },
      ],
    });
    expect(added.status, JSON.stringify(added.body)).to.equal(200);
    // a: 10.00 less 10 % less 5 % = 8.55; Installation 150 less 5 % = 142.50; b and Freight not ticked.
    expect(lineOf(added.body, requested.lineItems[0].label)).to.include({
      basePrice: 10,
      discount: 10,
      unitPrice: 8.55,
      totalPrice: 17.1,
    });
    expect(lineOf(added.body, 'Installation')).to.include({ kind: 'text', unitPrice: 142.5, productId: null });
    expect(lineOf(added.body, 'Freight')).to.include({ optional: true, selected: false });
    expect(added.body).to.include({ discount: 5, netTotal: 159.6 });
    expectError(
      await rep.post(`/offer/${requested.id}/positions`, {
        positions: [{ kind: 'text', label: 'Setup', taxRate: 19 }],
      }),
      400,
      'SUITE__OFFER_POSITION_PRICE_REQUIRED',
    );
    expectError(
      await rep.post(`/offer/${requested.id}/positions`, {
        positions: [{ kind: 'heading', label: 'X', unitPrice: 1 }],
      }),
      400,
      'SUITE__OFFER_HEADING_NOT_PRICED',
    );
    expect((await rep.post(`/offer-mail/${requested.id}`, {})).status).to.equal(200);

    const customer = await as(c.customer.token);
    const freight = lineOf(added.body, 'Freight');
    expectError(
      await customer.post(`/offer/${requested.id}/customer-revision`, {
        lineItems: [{ id: lineA.id, selected: false }],
      }),
      400,
      'SUITE__OFFER_POSITION_NOT_OPTIONAL',
    );
    const ticked = await customer.post(`/offer/${requested.id}/customer-revision`, {
      lineItems: [{ id: freight.id, selected: true }],
    });
    expect(ticked.status, JSON.stringify(ticked.body)).to.equal(200);
    // Ticking keeps the offer open: the prices are the representative's.
    expect(ticked.body).to.include({ status: 'open', version: 2, netTotal: 183.35 });

    const accepted = await customer.put(`/offer/${requested.id}`, { action: 'accept', version: 2 });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
    const order = (await customer.get(`/order/${accepted.body.orderId}`)).body;
    expect(order.lineItems.map((l: any) => [l.label, l.productId, l.quantity, l.unitPrice])).to.deep.equal([
      [requested.lineItems[0].label, a.id, 2, 8.55],
      ['Installation', null, 1, 142.5],
      ['Freight', null, 1, 23.75],
    ]);
    expect(order.amountNet).to.equal(183.35);
    expect(accepted.body.total).to.equal(order.amountTotal);
    expect(Number((await (await getShop()).db('products').where({ id: b.id }).first('stock')).stock)).to.equal(100);
  });

  it('a message mails the other side over SMTP and counts as unread until read', async () => {
    const c = await company();
    const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 3 }]);
    const customer = await as(c.customer.token);
    const rep = await as(c.rep.token);
    const posted = await customer.post(`/offer/${offer.id}/messages`, { body: 'Could you deliver in week 12?' });
    expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
    expect(posted.body).to.include({ side: 'customer', sequence: 1, offerVersion: 1 });
    const mail = await receiveMail(c.rep.email, `New message on offer ${offer.offerNumber}`);
    expect(mail.text).to.contain('Could you deliver in week 12?');

    expect((await rep.get('/offer-messages/unread')).body.elements).to.deep.include({
      id: offer.id,
      offerNumber: offer.offerNumber,
      unread: 1,
    });
    expect((await rep.get(`/offer/${offer.id}`)).body.unreadMessageCount).to.equal(1);
    expect((await customer.get(`/offer/${offer.id}`)).body.unreadMessageCount).to.equal(0);
    const thread = (await rep.get(`/offer/${offer.id}/messages`)).body;
    expect(thread).to.include({ unreadBefore: 1, total: 1 });
    expect((await rep.get(`/offer/${offer.id}`)).body.unreadMessageCount).to.equal(0);

    expect((await rep.post(`/offer/${offer.id}/messages`, { body: 'Yes, week 12 works.' })).status).to.equal(200);
    const answer = await receiveMail(c.customer.email, `New message on offer ${offer.offerNumber}`);
    expect(answer.text).to.contain('Yes, week 12 works.');
    expect((await customer.get(`/offer/${offer.id}`)).body.unreadMessageCount).to.equal(1);
    expect(
      (await customer.get(`/offer/${offer.id}/messages`)).body.elements.map((m: any) => [m.sequence, m.side]),
    ).to.deep.equal([
      [1, 'customer'],
      [2, 'sales'],
    ]);

    expectError(await customer.post(`/offer/${offer.id}/messages`, { body: '' }), 400);
    expectError(await customer.post(`/offer/${offer.id}/messages`, { body: 'x', extra: 1 }), 400);
    expectError(await (await as(null)).post(`/offer/${offer.id}/messages`, { body: 'x' }), 401);
    const stranger = await company();
    expectError(await (await as(stranger.customer.token)).post(`/offer/${offer.id}/messages`, { body: 'x' }), 404);
    expectError(await (await as(stranger.rep.token)).get(`/offer/${offer.id}/versions`), 404);
    expectError(await (await as(stranger.customer.token)).get(`/offer/${offer.id}/versions/1/diff`), 404);
    expectError(await customer.get(`/offer/${offer.id}/versions/0`), 400);
    expectError(await customer.get(`/offer/${offer.id}/versions/9`), 404);
    expectError(
      await customer.post(`/offer/${offer.id}/positions`, { positions: [{ kind: 'heading', label: 'X' }] }),
      403,
    );
    expectError(
      await rep.post(`/offer/${offer.id}/customer-revision`, {
        lineItems: [{ id: offer.lineItems[0].id, quantity: 2 }],
      }),
      403,
    );
  });

  it('the expiry reminder is mailed once per validity, however many workers run it at once', async () => {
    const c = await company();
    const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
    const shop = await getShop();
    await shop
      .db('b2b_offers')
      .where({ id: offer.id })
      .update({ valid_until: toDbTime(new Date(Date.now() + 2 * 86400000)) });
    await workersRace();
    await workersRace();
    expect(await outboxRows(c.customer.email, 'offer-expiring')).to.have.length(1);
    const mail = await receiveMail(c.customer.email, `Your offer ${offer.offerNumber} expires`);
    expect(mail.text).to.contain(offer.offerNumber);

    // A new validity (an extension, mailed again) is reminded of again, once.
    const later = new Date(Date.now() + 2.5 * 86400000).toISOString();
    expect((await (await as(c.rep.token)).put(`/offer/${offer.id}`, { validUntil: later })).status).to.equal(200);
    expect((await (await as(c.rep.token)).post(`/offer-mail/${offer.id}`, {})).status).to.equal(200);
    await workersRace();
    expect(await outboxRows(c.customer.email, 'offer-expiring')).to.have.length(2);
  });
});
