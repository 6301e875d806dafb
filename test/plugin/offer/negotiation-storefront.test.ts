import { expect } from 'chai';
import { loggedInVisitor } from '../../helpers/storefront.js';
import { as, company, ordersOfOffer, product, requestOffer, startShop } from './helpers.js';

const page = (id: string) => `/account/offers/${id}`;

describe('negotiated quotes: storefront pages of both sides', function () {
  this.timeout(60000);
  before(startShop);

  it('the representative and a buyer negotiate over two rounds in the storefront (messages, options, versions) and the buyer accepts the version shown', async () => {
    const c = await company();
    const p = await product(1000, 100);
    const requested = await requestOffer(c.customer.token, [{ productId: p.id, quantity: 10 }]);
    await (
      await as(c.rep.token)
    ).post(`/offer/${requested.id}/positions`, {
      positions: [{ kind: 'text', label: 'Installation', unitPrice: 50, taxRate: 19, optional: true }],
    });
    const repBrowser = await loggedInVisitor(c.rep.email, c.rep.password);
    const buyer = await loggedInVisitor(c.customer.email, c.customer.password);
    const line = requested.lineItems[0];

    // Round 1: the representative prices and sends; the buyer asks for a better price.
    expect((await repBrowser.post(`${page(requested.id)}/price`, { [`price-${line.id}`]: '9.00' })).status).to.equal(
      303,
    );
    expect((await repBrowser.post(`${page(requested.id)}/send`, {})).status).to.equal(303);
    const round1 = await buyer.get(page(requested.id));
    expect(round1.text)
      .to.contain('data-test="offer-version">1<')
      .and.to.contain('data-test="options-form"')
      .and.to.contain('not in the total');
    expect(
      (await buyer.post(`${page(requested.id)}/message`, { body: 'Can you do 8.50 with installation?' })).status,
    ).to.equal(303);

    // Round 2: the representative reads the thread, answers and sends a new price.
    const repView = await repBrowser.get(page(requested.id));
    expect(repView.text).to.contain('Can you do 8.50 with installation?');
    expect(
      (await repBrowser.post(`${page(requested.id)}/message`, { body: 'Yes, 8.50 if you take the installation.' }))
        .status,
    ).to.equal(303);
    expect((await repBrowser.post(`${page(requested.id)}/price`, { [`price-${line.id}`]: '8.50' })).status).to.equal(
      303,
    );
    expect((await repBrowser.post(`${page(requested.id)}/send`, {})).status).to.equal(303);

    const round2 = await buyer.get(page(requested.id));
    expect(round2.text)
      .to.contain('data-test="offer-version">2<')
      .and.to.contain('Yes, 8.50 if you take the installation.');
    expect(round2.text).to.contain('data-test="offer-changes"').and.to.contain('unitPrice 9 → 8.5');
    const installation = (await (await as(c.customer.token)).get(`/offer/${requested.id}`)).body.lineItems.find(
      (l: any) => l.label === 'Installation',
    );
    expect((await buyer.post(`${page(requested.id)}/options`, { [`option-${installation.id}`]: '1' })).status).to.equal(
      303,
    );
    const ticked = await buyer.get(page(requested.id));
    expect(ticked.text).to.contain('data-test="offer-version">3<').and.to.contain('name="version" value="3"');
    const pdf = await buyer.get(`${page(requested.id)}/versions/3/document`);
    expect(pdf.status).to.equal(200);

    // A form still showing version 2 is refused; the one showing version 3 orders.
    expect((await buyer.post(`${page(requested.id)}/accept`, { version: '2' })).status).to.equal(409);
    expect((await buyer.post(`${page(requested.id)}/accept`, { version: '3' })).status).to.equal(303);
    const offer = (await (await as(c.customer.token)).get(`/offer/${requested.id}`)).body;
    expect(offer).to.include({ status: 'accepted', version: 3, netTotal: 135 });
    expect(await ordersOfOffer(requested.id)).to.have.length(1);
  });
});
