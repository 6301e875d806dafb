import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { as, company, ordersOfOffer, product, requestOffer, startShop } from './helpers.js';

/** A browser context of its own, logged in through the storefront's login form, on the given page. */
async function loggedIn(
  browser: Browser,
  url: string,
  email: string,
  password: string,
): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  expect(new URL(page.url()).pathname, 'the login form first').to.equal('/account/login');
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([
    page.waitForURL((u) => u.pathname === new URL(url).pathname),
    page.click('[data-test=login-submit]'),
  ]);
  return [context, page];
}

/** Submits a form and waits for the page it redirects to. */
async function submit(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

describe('negotiated quotes: two rounds in a real browser', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(startShop);
  before(async function () {
    harness = await startBrowser(this);
  });
  after(async () => {
    await harness?.close();
  });

  it('the sales representative prices, the buyer asks for less, the representative sends a second price, and the buyer accepts it', async () => {
    const c = await company();
    const p = await product(1000, 100);
    const requested = await requestOffer(c.customer.token, [{ productId: p.id, quantity: 10 }]);
    const url = `http://shop.test/account/offers/${requested.id}`;
    const line = requested.lineItems[0];
    const [repContext, rep] = await loggedIn(harness.browser, url, c.rep.email, c.rep.password);
    const [buyerContext, buyer] = await loggedIn(harness.browser, url, c.customer.email, c.customer.password);

    // Round 1: the representative prices 9.00 and sends.
    await rep.fill(`#price-${line.id}`, '9.00');
    await submit(rep, '[data-test=pricing-submit]');
    await submit(rep, '[data-test=send-submit]');
    await buyer.reload();
    expect(await buyer.textContent('[data-test=offer-version]')).to.equal('1');
    expect(await buyer.textContent('[data-test=offer-line-price]')).to.contain('9.00');
    await buyer.fill('#message-body', 'Can you do 8.50?');
    await submit(buyer, '[data-test=message-submit]');

    // Round 2: the representative reads the question, answers and sends 8.50.
    await rep.reload();
    expect(await rep.isVisible('[data-test=offer-message] >> text=Can you do 8.50?')).to.equal(true);
    await rep.fill('#message-body', 'Yes, 8.50 for ten.');
    await submit(rep, '[data-test=message-submit]');
    await rep.fill(`#price-${line.id}`, '8.50');
    await submit(rep, '[data-test=pricing-submit]');
    await submit(rep, '[data-test=send-submit]');

    await buyer.reload();
    expect(await buyer.textContent('[data-test=offer-version]')).to.equal('2');
    expect(await buyer.isVisible('[data-test=offer-message] >> text=Yes, 8.50 for ten.')).to.equal(true);
    expect(await buyer.textContent('[data-test=offer-net-total]')).to.contain('85.00');
    await submit(buyer, '[data-test=accept-submit]');
    expect(await buyer.getAttribute('[data-test=offer-status]', 'data-status')).to.equal('accepted');

    const offer = (await (await as(c.customer.token)).get(`/offer/${requested.id}`)).body;
    expect(offer).to.include({ status: 'accepted', version: 2, netTotal: 85 });
    expect(await ordersOfOffer(requested.id)).to.have.length(1);
    await repContext.close();
    await buyerContext.close();
  });
});
