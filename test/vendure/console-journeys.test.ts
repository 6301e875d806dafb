import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { newId } from '../../src/lib/ids.js';
import { DEMO_CUSTOMER, PARTNER_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { browserFor } from '../helpers/browser.js';
import { startSmtp, type ReceivedMail, type TestMailbox } from '../helpers/smtp.js';
import { consolePage, SUPERADMIN } from './helpers/console.js';
import { bearer, bootShop, createNameCollection, type ShopClient } from './helpers/shop.js';

/** Screenshots for a person to look at (outside the repository). */
const SCREENSHOTS = process.env.SCREENSHOTS_DIR ?? join(tmpdir(), 'suite-b2b-screenshots', 'vendure-console');

/**
 * Operator journeys in the console on Vendure (what an operator must get done there), in Chromium, each checked
 * where a customer sees the effect: Vendure's Shop API and the plugin's Store API.
 */
describe('Vendure: operator journeys in the console', function () {
  this.timeout(120_000);
  let client: ShopClient;
  let browser: Browser;
  let mailbox: TestMailbox;

  /** The shop's queued mails sent now (the test shop runs no job worker), then the first that matches. */
  const mailTo = async (to: string, subject: string): Promise<ReceivedMail> => {
    await client.shop.state.mail.sendQueued();
    return mailbox.waitFor((mail) => mail.envelopeTo.includes(to) && String(mail.subject).includes(subject));
  };

  before(async function () {
    this.timeout(240_000);
    mailbox = await startSmtp();
    client = await bootShop({ label: 'vendure_console_journeys', runJobs: false, mailerUrl: mailbox.url });
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await browserFor(this, Number(new URL(client.shop.url).port));
  });

  after(async function () {
    this.timeout(60_000);
    await browser?.close();
    await client?.close();
    await mailbox?.stop();
  });

  it('journey: an operator accepts an account request; the new company admin logs in with the mailed link and is a Vendure customer', async () => {
    const email = `journey-${newId().slice(0, 8)}@tools.test`;
    const asked = await client.rest(
      'POST',
      '/store-api/account-request',
      {},
      { company: 'Journey Tools GmbH', firstName: 'Jo', lastName: 'Urney', email },
    );
    expect(asked.status, JSON.stringify(asked.body)).to.equal(200);

    const page = await consolePage(browser, SUPERADMIN);
    expect(await page.textContent('[data-test=count-open-account-requests]')).to.contain('Account requests waiting');
    await page.click('[data-test=count-open-account-requests] a');
    await page.click('a:has-text("Journey Tools GmbH")');
    expect(await page.textContent('h1')).to.equal('Journey Tools GmbH');
    await page.fill('#accept-comment', 'Known from the trade fair');
    await page.click('[data-test=accept]');
    expect(await page.textContent('[data-test=notice]')).to.contain('The request is accepted');
    expect(await page.textContent('[data-test=request-status]')).to.equal('accepted');
    await page.screenshot({ path: join(SCREENSHOTS, 'account-request-accepted.png'), fullPage: true });
    await page.context().close();

    // The acceptance mail tells them where to log in; they ask for a login link and use it.
    expect((await mailTo(email, 'is ready')).text).to.contain('/account/login');
    const requested = await client.rest('POST', '/store-api/passwordless-login', {}, { email });
    expect(requested.status, JSON.stringify(requested.body)).to.equal(200);
    const link = /\/account\/passwordless-login\/([A-Za-z0-9_-]+)/.exec((await mailTo(email, 'login link')).text ?? '');
    expect(link, 'a login link').to.not.equal(null);
    const login = await client.rest('POST', `/store-api/passwordless-login/${link![1]}`, {}, {});
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    const contextToken = login.body.contextToken as string;
    const context = await client.rest('GET', '/store-api/context', { 'suite-context-token': contextToken });
    expect(context.body.customer?.email).to.equal(email);
    // In Vendure's Shop API the same login is a session of the new Vendure customer.
    const session = await client.gql(
      'shop-api',
      'mutation ($t: String!) { authenticate(input: { suiteB2B: { contextToken: $t } }) { __typename ... on CurrentUser { identifier } } }',
      { t: contextToken },
    );
    expect(session.data.authenticate).to.deep.equal({ __typename: 'CurrentUser', identifier: email });
    const me = await client.gql('shop-api', '{ activeCustomer { emailAddress lastName } }', {}, bearer(session.token!));
    expect(me.data.activeCustomer).to.deep.equal({ emailAddress: email, lastName: 'Urney' });
  });

  it('journey: an operator closes the shop in the settings; a guest can no longer fill a cart in the Shop API, a customer still can', async () => {
    const channelId = (await client.rest('GET', '/store-api/context', {})).body.salesChannel.id as string;
    const variantId = (await client.gql('shop-api', '{ product(slug: "copy-paper-a4") { variants { id } } }')).data
      .product.variants[0].id as string;
    const addItem = `mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 1) { __typename ... on OrderInterceptorError { interceptorError } } }`;
    const guestAdds = async () => (await client.gql('shop-api', addItem, { v: variantId })).data.addItemToOrder;
    expect((await guestAdds()).__typename).to.equal('Order');

    const page = await consolePage(browser, SUPERADMIN);
    await page.click('nav.menu a:has-text("Settings")');
    await page.fill('#closedShopSalesChannelIds', channelId);
    await page.click('[data-test=save-settings]');
    expect(await page.textContent('[data-test=notice]')).to.contain('saved');
    expect(await page.inputValue('#closedShopSalesChannelIds')).to.equal(channelId);
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-closed-shop.png'), fullPage: true });

    const refused = await guestAdds();
    expect(refused.__typename).to.equal('OrderInterceptorError');
    expect(refused.interceptorError).to.match(/^SUITE__LOGIN_REQUIRED: /);
    const buyer = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    expect((await client.gql('shop-api', addItem, { v: variantId }, buyer)).data.addItemToOrder.__typename).to.equal(
      'Order',
    );

    // Open again: the guest may add.
    await page.fill('#closedShopSalesChannelIds', '');
    await page.click('[data-test=save-settings]');
    await page.context().close();
    expect((await guestAdds()).__typename).to.equal('Order');
  });

  it('journey: an operator rules a category and a product out for one customer; their collections, products, search and Store API listing leave them out, another customer still sees them', async () => {
    const admin = bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    const furniture = await createNameCollection(client, admin, 'Furniture', 'Chair');
    await createNameCollection(client, admin, 'Seating', 'Chair', furniture);
    await client.settleJobs();
    const { db, runtime } = client.shop.state;
    const demo = (await runtime.customers.findByEmail(db, DEMO_CUSTOMER.email))!;
    const buyer = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const partner = bearer(await client.vendureLogin('shop-api', PARTNER_CUSTOMER.email, PARTNER_CUSTOMER.password));

    /** What a caller sees of the seating collection and the chair in Vendure's Shop API and the plugin's Store API. */
    const seen = async (headers: Record<string, string>) => {
      const { data } = await client.gql(
        'shop-api',
        `{ collection(slug: "seating") { slug } collections { items { slug } }
           furniture: collection(slug: "furniture") { children { slug } }
           inSeating: search(input: { collectionSlug: "seating", groupByProduct: true }) { totalItems }
           products { items { slug } }
           search(input: { term: "chair", groupByProduct: true }) { items { slug } collections { collection { slug } } } }`,
        {},
        headers,
      );
      const listing = await client.rest('POST', '/store-api/product-table-listing', headers, { limit: 100 });
      expect(listing.status, JSON.stringify(listing.body)).to.equal(200);
      return {
        collection: (data.collection?.slug as string | undefined) ?? null,
        collections: (data.collections.items as Array<{ slug: string }>).map((c) => c.slug),
        furnitureChildren: (data.furniture.children as Array<{ slug: string }>).map((c) => c.slug),
        inSeating: data.inSeating.totalItems as number,
        products: (data.products.items as Array<{ slug: string }>).map((p) => p.slug).includes('office-chair'),
        search: (data.search.items as Array<{ slug: string }>).map((p) => p.slug).includes('office-chair'),
        searchCollections: (data.search.collections as Array<{ collection: { slug: string } }>).map(
          (c) => c.collection.slug,
        ),
        listing: (listing.body.elements as Array<{ productNumber: string }>)
          .map((p) => p.productNumber)
          .includes('CHAIR-001'),
      };
    };
    const everything = {
      collection: 'seating',
      collections: ['furniture', 'seating'],
      furnitureChildren: ['seating'],
      inSeating: 1,
      products: true,
      search: true,
      searchCollections: ['furniture', 'seating'],
      listing: true,
    };
    expect(await seen(buyer)).to.deep.equal(everything);

    const page = await consolePage(browser, SUPERADMIN);
    await page.click('nav.menu a:has-text("Partial assortments")');
    await page.selectOption('#kind', 'category');
    await page.selectOption('#categoryId', { label: 'Seating' });
    await page.check('input[name=audience][value=except]');
    await page.fill('#customerNumber', demo.customerNumber);
    await page.click('[data-test=limit]');
    expect(await page.textContent('[data-test=notice]')).to.equal(
      `The category is now visible to everyone but customer ${demo.customerNumber}.`,
    );
    expect(await page.locator('[data-test=assignment-row]').allTextContents()).to.have.length(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'partial-assortment-category.png'), fullPage: true });
    // The category is gone for the buyer (collections, the search's collection facet); its products are not
    // (products do not inherit their category's visibility, docs/partial-assortment.md).
    // A search within it finds nothing, and its parent's children leave it out.
    expect(await seen(buyer)).to.deep.equal({
      ...everything,
      collection: null,
      collections: ['furniture'],
      furnitureChildren: [],
      inSeating: 0,
      searchCollections: ['furniture'],
    });
    expect(await seen(partner)).to.deep.equal(everything);

    await page.selectOption('#kind', 'product');
    await page.fill('#productNumber', 'CHAIR-001');
    await page.check('input[name=audience][value=except]');
    await page.fill('#customerNumber', demo.customerNumber);
    await page.click('[data-test=limit]');
    expect(await page.textContent('[data-test=notice]')).to.equal(
      `The product is now visible to everyone but customer ${demo.customerNumber}.`,
    );
    expect(await page.textContent('[data-test=assignment-row]')).to.contain('CHAIR-001');
    await page.screenshot({ path: join(SCREENSHOTS, 'partial-assortment-product.png'), fullPage: true });

    expect(await seen(buyer)).to.deep.equal({
      collection: null,
      collections: ['furniture'],
      furnitureChildren: [],
      inSeating: 0,
      products: false,
      search: false,
      searchCollections: [],
      listing: false,
    });
    expect(await seen(partner)).to.deep.equal(everything);
    // Guests are "everyone" too.
    const guest = await client.gql('shop-api', '{ collection(slug: "seating") { slug } products { items { slug } } }');
    expect(guest.data.collection).to.deep.equal({ slug: 'seating' });

    // The operator takes the product's rule away: the buyer sees the chair again.
    await page.click('[data-test=assignment-row] button:has-text("Remove")');
    expect(await page.textContent('[data-test=notice]')).to.equal('The rule no longer limits this product.');
    await page.context().close();
    expect((await seen(buyer)).products).to.equal(true);
  });
});
