import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { createEmployee } from '../employee/helpers.js';
import { getShop } from '../../helpers/shop.js';
import { loggedInVisitor, storefrontVisitor } from '../../helpers/storefront.js';
import {
  as,
  backdateValidity,
  company,
  newCustomer,
  openOffer,
  ordersOfOffer,
  outboxRows,
  product,
  requestOffer,
  startShop,
  storedStatus,
} from './helpers.js';
import { locationOf } from '../../helpers/headers.js';

const page = (id: string) => `/account/offers/${id}`;

async function readOffer(token: string, id: string): Promise<Record<string, any>> {
  const res = await (await as(token)).get(`/offer/${id}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

describe('offers: storefront pages', function () {
  this.timeout(60000);
  before(startShop);

  it('sends guests to the login form and refuses forms without the CSRF field', async () => {
    const c = await company();
    const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
    const guest = await storefrontVisitor();
    for (const path of ['/account/offers', page(offer.id), `${page(offer.id)}/document/${offer.documents[0].id}`]) {
      const res = await guest.get(path);
      expect(res.status, path).to.equal(302);
      expect(res.headers.location).to.equal(`/account/login?redirect=${encodeURIComponent(path)}`);
    }
    expect((await guest.forge(`${page(offer.id)}/accept`)).status).to.equal(403);
    const browser = await loggedInVisitor(c.customer.email, c.customer.password);
    for (const action of ['accept', 'decline', 'extension'])
      expect((await browser.forge(`${page(offer.id)}/${action}`)).status, action).to.equal(403);
    expect(await storedStatus(offer.id)).to.equal('open');
  });

  it('lists the offers and shows one with lines, prices, validity, status and its PDF', async () => {
    const c = await company();
    const p = await product(1000);
    const offer = await openOffer(c, [{ productId: p.id, quantity: 4 }], [8.5]);
    const requested = await requestOffer(c.customer.token, [{ productId: p.id, quantity: 1 }], {
      subject: 'Not <priced> yet',
    });
    const browser = await loggedInVisitor(c.customer.email, c.customer.password);

    expect((await browser.get('/account')).text, 'the account page links the list').to.contain(
      '<a href="/account/offers" data-test="account-offers">',
    );
    const list = await browser.get('/account/offers');
    expect(list.status).to.equal(200);
    expect(list.text)
      .to.contain(`data-test="offer" data-id="${offer.id}"`)
      .and.to.contain(`data-test="offer" data-id="${requested.id}"`);
    expect(list.text).to.contain('Not &lt;priced&gt; yet');

    const detail = await browser.get(page(offer.id));
    expect(detail.status).to.equal(200);
    expect(detail.text).to.contain(`Offer ${offer.offerNumber}`).and.to.contain(p.name);
    expect(detail.text).to.contain('data-status="open">Open<');
    expect(detail.text)
      .to.contain('<td data-test="offer-line-price">€8.50</td>')
      .and.to.contain('<td data-test="offer-net-total">€34.00</td>');
    const { time_zone: timeZone } = await (
      await getShop()
    )
      .db('sales_channels')
      .where({ id: c.customer.customer.salesChannelId })
      .first('time_zone');
    const validUntil = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone }).format(
      new Date(offer.validUntil),
    );
    expect(detail.text).to.contain(`data-test="offer-valid-until">${validUntil}<`);
    expect(detail.text)
      .to.contain('data-test="accept-form"')
      .and.to.contain('data-test="decline-form"')
      .and.to.contain('data-test="extension-form"');

    const link = /href="([^"]+)" data-test="offer-document"/.exec(detail.text)?.[1];
    expect(link).to.equal(`${page(offer.id)}/document/${offer.documents[0].id}`);
    const pdf = await browser.agent
      .get(link!)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).to.equal(200);
    expect(pdf.headers['content-type']).to.equal('application/pdf');
    // res.attachment() (Express 5) quotes the file name only when it is not a plain token.
    expect(pdf.headers['content-disposition']).to.equal(`attachment; filename=${offer.documents[0].fileName}`);
    expect((pdf.body as Buffer).subarray(0, 5).toString()).to.equal('%PDF-');
    expect((await browser.get(`${page(offer.id)}/document/${newId()}`)).status).to.equal(404);
    expect(
      (await browser.get(`${page(requested.id)}/document/${offer.documents[0].id}`)).status,
      'a document of another offer',
    ).to.equal(404);

    const draft = await browser.get(page(requested.id));
    expect(draft.text).not.to.contain('data-test="accept-form"');
    expect(draft.text, 'a requested offer can still be declined').to.contain('data-test="decline-form"');
  });

  it('accepts with the form: one order at the offered prices, as the Store API would', async () => {
    const c = await company();
    const p = await product(1000, 50);
    const offer = await openOffer(c, [{ productId: p.id, quantity: 5 }], [7.77]);
    const browser = await loggedInVisitor(c.customer.email, c.customer.password);
    await browser.get(page(offer.id));
    const accepted = await browser.post(`${page(offer.id)}/accept`, { comment: 'Deliver to gate 2' });
    expect(accepted.status, accepted.text).to.equal(303);
    expect(accepted.headers.location).to.equal(`${page(offer.id)}?done=accepted`);
    const stored = await readOffer(c.customer.token, offer.id);
    expect(stored).to.include({ status: 'accepted', netTotal: 38.85 });
    const order = (await (await as(c.customer.token)).get(`/order/${stored.orderId}`)).body;
    expect(order).to.include({ customerComment: 'Deliver to gate 2' });
    expect(order.lineItems[0]).to.include({ productId: p.id, quantity: 5, unitPrice: 7.77 });
    expect(await outboxRows(c.rep.email, 'offer-accepted')).to.have.length(1);

    const shown = await browser.get(locationOf(accepted));
    expect(shown.text)
      .to.contain(`data-test="offer-order-number">${stored.orderNumber}<`)
      .and.to.contain('You accepted the offer.');
    expect(shown.text).not.to.contain('data-test="offer-decision"');
    expect((await browser.post(`${page(offer.id)}/accept`)).status, 'accepting again answers the same order').to.equal(
      303,
    );
    expect(await ordersOfOffer(offer.id)).to.have.length(1);
  });

  it('declines with the form and asks for more time on an expired offer; accepting it shows why not', async () => {
    const c = await company();
    const declining = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
    const expiring = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
    await backdateValidity(expiring.id);
    const browser = await loggedInVisitor(c.customer.email, c.customer.password);
    await browser.get(page(declining.id));

    const declined = await browser.post(`${page(declining.id)}/decline`, { comment: 'Found it cheaper' });
    expect(declined.status).to.equal(303);
    expect(await readOffer(c.customer.token, declining.id)).to.include({
      status: 'declined',
      declineComment: 'Found it cheaper',
    });
    expect(await outboxRows(c.rep.email, 'offer-declined')).to.have.length(1);

    const expired = await browser.get(page(expiring.id));
    expect(expired.text).to.contain('data-status="expired"').and.to.contain('data-test="extension-form"');
    expect(expired.text).not.to.contain('data-test="accept-form"');
    const tooLate = await browser.post(`${page(expiring.id)}/accept`);
    expect(tooLate.status).to.equal(400);
    expect(tooLate.text).to.contain('data-test="offer-error">The offer has expired; ask for a validity extension.<');
    expect(await ordersOfOffer(expiring.id)).to.have.length(0);

    const asked = await browser.post(`${page(expiring.id)}/extension`, { comment: 'Two more weeks, please' });
    expect(asked.status).to.equal(303);
    expect(asked.headers.location).to.equal(`${page(expiring.id)}?done=extension-requested`);
    expect(await readOffer(c.customer.token, expiring.id)).to.include({ extensionComment: 'Two more weeks, please' });
    expect(await outboxRows(c.rep.email, 'offer-validity-extension-requested')).to.have.length(1);
    expect((await browser.get(locationOf(asked))).text).to.contain('data-test="offer-extension-requested"');
  });

  it("answers 404 for another customer's offer, 403 without offer.read, and keeps decisions to the customer side", async () => {
    const c = await company();
    const offer = await openOffer(c, [{ productId: (await product()).id, quantity: 1 }]);
    const stranger = await newCustomer();
    const browser = await loggedInVisitor(stranger.email, stranger.password);
    for (const path of [
      page(offer.id),
      page(newId()),
      page('not-an-id'),
      `${page(offer.id)}/document/${offer.documents[0].id}`,
    ])
      expect((await browser.get(path)).status, path).to.equal(404);
    expect((await browser.get('/account/offers')).text).not.to.contain(offer.id);
    for (const action of ['accept', 'decline', 'extension'])
      expect((await browser.post(`${page(offer.id)}/${action}`)).status, action).to.equal(404);
    expect(await storedStatus(offer.id)).to.equal('open');

    const blind = await createEmployee(c.customer.token, { permissions: ['orders.create'] });
    const blindBrowser = await loggedInVisitor(blind.email, blind.password);
    expect((await blindBrowser.get('/account/offers')).status).to.equal(403);
    expect((await blindBrowser.get(page(offer.id))).status).to.equal(403);

    const reader = await createEmployee(c.customer.token, { permissions: ['offer.read'] });
    const readerBrowser = await loggedInVisitor(reader.email, reader.password);
    const readOnly = await readerBrowser.get(page(offer.id));
    expect(readOnly.text).to.contain('data-test="accept-not-allowed"');
    expect(readOnly.text).not.to.contain('data-test="extension-form"');
    expect((await readerBrowser.post(`${page(offer.id)}/accept`)).status).to.equal(403);
    expect(await storedStatus(offer.id)).to.equal('open');

    const rep = await loggedInVisitor(c.rep.email, c.rep.password);
    expect((await rep.get('/account/offers')).text).to.contain(`data-id="${offer.id}"`);
    const repView = await rep.get(page(offer.id));
    expect(repView.status).to.equal(200);
    expect(repView.text).not.to.contain('data-test="offer-decision"');
    expect((await rep.post(`${page(offer.id)}/accept`)).status).to.equal(403);
    expect(await storedStatus(offer.id)).to.equal('open');
  });
  it('lets the sales representative price lines (price or discount) and send the offer; the customer then decides on it', async () => {
    const c = await company();
    const drill = await product(1000);
    const saw = await product(2000);
    const offer = await requestOffer(c.customer.token, [
      { productId: drill.id, quantity: 2 },
      { productId: saw.id, quantity: 1 },
    ]);
    const [drillLine, sawLine] = offer.lineItems as Array<{ id: string; listPrice: number }>;
    const rep = await loggedInVisitor(c.rep.email, c.rep.password);
    const shown = await rep.get(page(offer.id));
    expect(shown.text).to.contain('data-test="pricing-form"').and.to.contain('data-test="send-form"');
    expect(shown.text, 'decisions stay with the customer').not.to.contain('data-test="offer-decision"');

    const bad = await rep.post(`${page(offer.id)}/price`, {
      [`price-${drillLine!.id}`]: 'cheap',
      [`discount-${sawLine!.id}`]: '',
    });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('data-test="offer-error">Line 1.').and.to.contain('value="cheap"');
    expect(
      (await rep.post(`${page(offer.id)}/price`, { [`discount-${sawLine!.id}`]: '120' })).status,
      'a discount over 100 %',
    ).to.equal(400);
    expect(await storedStatus(offer.id)).to.equal('requested');

    const priced = await rep.post(`${page(offer.id)}/price`, {
      [`price-${drillLine!.id}`]: '8,50',
      [`quantity-${drillLine!.id}`]: '3',
      [`comment-${drillLine!.id}`]: 'Bulk price',
      [`price-${sawLine!.id}`]: '20.00',
      [`discount-${sawLine!.id}`]: '25',
      salesComment: 'Happy to help',
    });
    expect(priced.status, priced.text).to.equal(303);
    expect(priced.headers.location).to.equal(`${page(offer.id)}?done=priced`);
    const draft = await readOffer(c.rep.token, offer.id);
    expect(draft).to.include({ status: 'draft', salesComment: 'Happy to help', netTotal: 40.5 });
    expect(draft.lineItems[0]).to.include({ unitPrice: 8.5, quantity: 3, comment: 'Bulk price' });
    expect(draft.lineItems[1], 'the discount wins: 25 % off 20.00').to.include({ unitPrice: 15 });
    expect((await rep.get(locationOf(priced))).text).to.contain('The offer was saved as a draft.');

    const customer = await loggedInVisitor(c.customer.email, c.customer.password);
    expect((await customer.get(page(offer.id))).text).not.to.contain('data-test="accept-form"');
    expect(
      (await customer.post(`${page(offer.id)}/price`, { [`price-${drillLine!.id}`]: '0.01' })).status,
      'the customer does not price',
    ).to.equal(403);
    expect((await customer.post(`${page(offer.id)}/send`)).status, 'nor send').to.equal(403);

    await rep.get(page(offer.id));
    const sent = await rep.post(`${page(offer.id)}/send`, { comment: 'See the attached PDF' });
    expect(sent.status, sent.text).to.equal(303);
    expect(sent.headers.location).to.equal(`${page(offer.id)}?done=sent`);
    expect(await storedStatus(offer.id)).to.equal('open');
    expect(await outboxRows(c.customer.email, 'offer-sent')).to.have.length(1);
    const after = await rep.get(locationOf(sent));
    expect(after.text).to.contain('The offer was sent to the customer').and.to.contain('data-test="offer-document"');

    const deciding = await customer.get(page(offer.id));
    expect(deciding.text)
      .to.contain('data-test="accept-form"')
      .and.to.contain('<td data-test="offer-net-total">€40.50</td>');
    expect((await rep.post(`${page(newId())}/send`)).status, 'an unknown offer').to.equal(404);
    const stranger = await company();
    const otherRep = await loggedInVisitor(stranger.rep.email, stranger.rep.password);
    expect(
      (await otherRep.post(`${page(offer.id)}/price`, { [`price-${drillLine!.id}`]: '1' })).status,
      "another representative's customer",
    ).to.equal(404);
  });
  it('asks for an offer for the cart from the cart page; the cart stays; without offer.request there is no link and a 403', async () => {
    const c = await company();
    const p = await product(1000);
    const browser = await loggedInVisitor(c.customer.email, c.customer.password);
    expect((await browser.get('/account/offers')).text).to.contain('data-test="no-offers"');
    expect((await browser.get('/cart')).text, 'an empty cart offers nothing to ask for').not.to.contain(
      'data-test="ask-for-offer"',
    );
    await browser.get('/account/offers/request');
    const empty = await browser.post('/account/offers/request', { subject: 'Nothing' });
    expect(empty.status).to.equal(400);
    expect(empty.text)
      .to.contain('data-test="offer-request-error"')
      .and.contain('The cart is empty')
      .and.contain('value="Nothing"');

    await browser.post('/cart/add', { productId: p.id, quantity: '3' });
    const cart = await browser.get('/cart');
    expect(cart.text).to.contain('href="/account/offers/request" data-test="ask-for-offer"');
    expect((await browser.get('/account/offers/request')).text).to.contain('data-test="offer-request-form"');
    const asked = await browser.post('/account/offers/request', {
      subject: 'Spring order',
      commission: 'PO-9',
      customerComment: 'Volume price?',
    });
    expect(asked.status, asked.text).to.equal(303);
    const id = /^\/account\/offers\/([0-9a-f]{32})\?done=requested$/.exec(locationOf(asked))?.[1];
    expect(id, asked.headers.location).to.be.a('string');
    const offer = await readOffer(c.customer.token, id!);
    expect(offer).to.include({
      status: 'requested',
      subject: 'Spring order',
      commission: 'PO-9',
      customerComment: 'Volume price?',
    });
    expect(offer.lineItems[0]).to.include({ productId: p.id, quantity: 3 });
    expect((await browser.get(locationOf(asked))).text).to.contain('You asked for an offer.');
    expect((await browser.get('/cart')).text, 'the cart stays').to.contain('data-test="cart-line"');

    const buyer = await createEmployee(c.customer.token, { permissions: ['orders.create', 'offer.read'] });
    const buyerBrowser = await loggedInVisitor(buyer.email, buyer.password);
    await buyerBrowser.post('/cart/add', { productId: p.id, quantity: '1' });
    expect((await buyerBrowser.get('/cart')).text).not.to.contain('data-test="ask-for-offer"');
    expect((await buyerBrowser.get('/account/offers/request')).status).to.equal(403);
    expect((await buyerBrowser.post('/account/offers/request', {})).status).to.equal(403);
  });
});
