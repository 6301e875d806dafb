import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { writeJson } from '../../../src/lib/db.js';
import { nowDb } from '../../../src/lib/time.js';
import { insertProduct, type TestProduct } from '../../helpers/checkout.js';
import { adminToken, createTestCustomer, expectError, getShop, http } from '../../helpers/shop.js';
import { storefrontVisitor } from '../../helpers/storefront.js';

/**
 * Closed shop (decision 0026): a sales channel listed in `closedShopSalesChannelIds`
 * shows guests no prices — not in the Store API's product answers, not through a price sort or
 * filter, not in the quantity rule route, not on the storefront's pages (a login prompt instead of
 * price and buy button) — while its logged-in customers and the guests of other channels see them.
 */
describe('Closed shop per sales channel', () => {
  let accessKey: string;
  let channelId: string;
  let product: TestProduct;

  async function setClosed(ids: string[]) {
    const res = await (
      await http()
    )
      .patch('/api/_action/plugin-config/suite-b2b')
      .set('authorization', `Bearer ${await adminToken()}`)
      .send({ closedShopSalesChannelIds: ids });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }

  const closedGuest = async () => (await http()).set('suite-access-key', accessKey);

  before(async () => {
    accessKey = `SWSC${newId().slice(0, 20).toUpperCase()}`;
    channelId = newId();
    await (await getShop()).db('sales_channels').insert({
      id: channelId,
      name: 'Closed channel',
      access_key: accessKey,
      currency_iso: 'EUR',
      currency_precision: 2,
      language_code: 'en-GB',
      time_zone: 'Europe/Berlin',
      domains: writeJson(['http://closed.test']),
      active: true,
      created_at: nowDb(),
    });
    product = await insertProduct({ name: `Closed ${newId().slice(0, 8)}`, priceNet: 4321, tiers: [[10, 3999]] });
    await setClosed([channelId]);
  });

  after(async () => {
    await setClosed([]);
  });

  describe('Store API', () => {
    it("a guest of the closed channel gets the product without calculatedPrice or tierPrices; the open channel's guest sees 43.21", async () => {
      const closed = await (await closedGuest()).get(`/store-api/product/${product.id}`);
      expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
      expect(closed.body.name).to.equal(product.name);
      expect(closed.body).not.to.have.property('calculatedPrice');
      expect(closed.body).not.to.have.property('tierPrices');
      expect(JSON.stringify(closed.body)).not.to.contain('43.21').and.not.to.contain('39.99');

      const open = await (await http()).get(`/store-api/product/${product.id}`);
      expect(open.status).to.equal(200);
      expect(open.body.calculatedPrice.unitPrice).to.equal(43.21);
      expect(open.body.tierPrices).to.deep.equal([{ minQuantity: 10, unitPrice: 39.99 }]);
    });

    it('listings and search answer the products without prices to the closed channel’s guest', async () => {
      const listing = await (await closedGuest()).post('/store-api/product').send({ ids: [product.id] });
      expect(listing.status, JSON.stringify(listing.body)).to.equal(200);
      expect(listing.body.elements.map((e: { id: string }) => e.id)).to.deep.equal([product.id]);
      expect(listing.body.elements[0]).not.to.have.property('calculatedPrice');
      const search = await (await closedGuest()).post('/store-api/search').send({ search: product.name });
      expect(search.status).to.equal(200);
      expect(search.body.elements.map((e: { id: string }) => e.id)).to.include(product.id);
      for (const element of search.body.elements) expect(element).not.to.have.property('calculatedPrice');
    });

    it('a price sort or price filter is refused with 401 SUITE__LOGIN_REQUIRED (it would reveal the prices)', async () => {
      const sorted = await (
        await closedGuest()
      )
        .post('/store-api/product')
        .send({ ids: [product.id], sort: [{ field: 'price', order: 'ASC' }] });
      expectError(sorted, 401, 'SUITE__LOGIN_REQUIRED');
      const filtered = await (
        await closedGuest()
      )
        .post('/store-api/product')
        .send({ filter: [{ type: 'range', field: 'price', parameters: { gte: 43, lte: 44 } }] });
      expectError(filtered, 401, 'SUITE__LOGIN_REQUIRED');
      const open = await (
        await http()
      )
        .post('/store-api/product')
        .send({ ids: [product.id], sort: [{ field: 'price', order: 'ASC' }] });
      expect(open.status).to.equal(200);
    });

    it('the quantity rule route leaves out the piece and pack price for the guest', async () => {
      const closed = await (await closedGuest()).get(`/store-api/quantity-rule/${product.id}`);
      expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
      expect(closed.body).not.to.have.property('unitPrice');
      expect(closed.body).not.to.have.property('packPrice');
      const open = await (await http()).get(`/store-api/quantity-rule/${product.id}`);
      expect(open.body.unitPrice).to.equal(43.21);
    });

    it("the guest cannot fill a cart (401); the channel's logged-in customer sees the price and buys", async () => {
      const refused = await (
        await closedGuest()
      )
        .post('/store-api/checkout/cart/line-item')
        .send({ items: [{ type: 'product', referencedId: product.id, quantity: 1 }] });
      expect(refused.status).to.equal(401);

      const { customer, email, password } = await createTestCustomer();
      await (await getShop()).db('customers').where({ id: customer.id }).update({ sales_channel_id: channelId });
      const loggedIn = await (await closedGuest()).post('/store-api/account/login').send({ email, password });
      expect(loggedIn.status, JSON.stringify(loggedIn.body)).to.equal(200);
      const token = loggedIn.body.contextToken as string;
      const seen = await (
        await closedGuest()
      )
        .get(`/store-api/product/${product.id}`)
        .set('suite-context-token', token);
      expect(seen.body.calculatedPrice.unitPrice).to.equal(43.21);
      const added = await (
        await closedGuest()
      )
        .post('/store-api/checkout/cart/line-item')
        .set('suite-context-token', token)
        .send({ items: [{ type: 'product', referencedId: product.id, quantity: 2 }] });
      expect(added.status, JSON.stringify(added.body)).to.equal(200);
      expect(added.body.lineItems.map((l: { quantity: number }) => l.quantity)).to.deep.equal([2]);
    });
  });

  describe('storefront', () => {
    it('the product page shows the closed channel’s guest a login prompt instead of price and buy button', async () => {
      const visitor = await storefrontVisitor();
      visitor.agent.set('suite-access-key', accessKey);
      const page = await visitor.get(`/product/${product.id}`);
      expect(page.status).to.equal(200);
      expect(page.text).to.contain(product.name);
      expect(page.text).to.contain('data-test="login-for-prices"').and.contain('href="/account/login?redirect');
      expect(page.text).not.to.contain('data-test="your-price"');
      expect(page.text).not.to.contain('data-test="price-table"');
      expect(page.text).not.to.contain('data-test="add-to-cart"');
      expect(page.text).not.to.match(/43[.,]21/);

      const open = await (await storefrontVisitor()).get(`/product/${product.id}`);
      expect(open.text)
        .to.contain('data-test="your-price"')
        .and.match(/43[.,]21/);
      expect(open.text).not.to.contain('data-test="login-for-prices"');
    });

    it('search cards carry a login link instead of the price, and no sort by price is offered', async () => {
      const visitor = await storefrontVisitor();
      visitor.agent.set('suite-access-key', accessKey);
      const page = await visitor.get(`/search?q=${encodeURIComponent(product.name)}&order=price-asc`);
      expect(page.status, page.text).to.equal(200);
      expect(page.text).to.contain(`data-product-id="${product.id}"`);
      expect(page.text).to.contain('data-test="login-for-prices"');
      expect(page.text).not.to.contain('data-test="product-price"');
      expect(page.text).not.to.contain('value="price-asc"');
      expect(page.text).not.to.match(/43[.,]21/);
    });
  });
});
