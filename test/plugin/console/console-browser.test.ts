import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { insertProduct } from '../../helpers/checkout.js';
import { createTestCustomer } from '../../helpers/shop.js';
import { as, linkSecret, receiveMail } from '../employee/helpers.js';
import { axeFindings, crawlConsole } from '../../helpers/console-crawl.js';
import { CONSOLE, createAdminUser, loginOperator, requestAccount, type Operator } from './helpers.js';

/** Screenshots for a person to look at (var/ is ignored by git). */
const SCREENSHOTS = 'var/screenshots/console';
async function crawl(operator: Operator) {
  return crawlConsole(async (path) => {
    const res = await operator.agent.get(path).redirects(0);
    return { status: res.status, html: res.text, type: res.type, location: res.headers.location };
  });
}

describe('console in Chromium: a journey, a crawl and axe-core', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
    // Something on every list, so the crawl reaches the detail pages too.
    const { customer } = await createTestCustomer({ company: 'Crawl Prices AG' });
    const product = await insertProduct();
    const operator = await loginOperator();
    expect(
      (
        await operator.post('/customer-prices/save', {
          customerNumber: customer.customerNumber,
          productNumber: product.number,
          price: '7.25',
          minQuantity: '1',
        })
      ).status,
    ).to.equal(303);
  });

  after(async () => {
    await harness?.close();
  });

  async function consoleLogin(page: Page, username: string, password: string): Promise<void> {
    await page.goto(`http://shop.test${CONSOLE}`);
    expect(page.url()).to.contain(`${CONSOLE}/login`);
    await page.fill('#username', username);
    await page.fill('#password', password);
    await Promise.all([
      page.waitForURL(`http://shop.test${CONSOLE}`),
      page.click('button[type=submit]:has-text("Log in")'),
    ]);
  }

  it('an operator accepts an account request, and the new company admin logs in at the storefront with the mailed link', async () => {
    const { email } = await requestAccount('Journey Tools GmbH');
    const { username, password } = await createAdminUser();
    const context = await harness.browser.newContext();
    const page = await context.newPage();
    await consoleLogin(page, username, password);
    expect(await page.textContent('[data-test=count-open-account-requests]')).to.contain('Account requests waiting');
    await page.screenshot({ path: `${SCREENSHOTS}/start.png`, fullPage: true });
    await page.click('[data-test=count-open-account-requests] a');
    await page.click('a:has-text("Journey Tools GmbH")');
    expect(await page.textContent('h1')).to.equal('Journey Tools GmbH');
    await page.fill('#accept-comment', 'Known from the trade fair');
    await page.click('[data-test=accept]');
    expect(await page.textContent('[data-test=notice]')).to.contain('The request is accepted');
    expect(await page.textContent('[data-test=request-status]')).to.equal('accepted');
    await page.screenshot({ path: `${SCREENSHOTS}/account-request-accepted.png`, fullPage: true });
    await context.close();

    expect((await receiveMail(email, 'is ready')).text).to.contain('http://shop.test/account/login');
    expect((await (await as(null)).post('/passwordless-login', { email })).status).to.equal(200);
    const { url } = linkSecret(await receiveMail(email, 'login link'), '/account/passwordless-login');
    const buyer = await (await harness.browser.newContext()).newPage();
    await buyer.goto(url);
    await Promise.all([buyer.waitForURL('http://shop.test/account'), buyer.click('[data-test=passwordless-submit]')]);
    expect(await buyer.textContent('[data-test=account-company]')).to.equal('Journey Tools GmbH');
    await buyer.screenshot({ path: `${SCREENSHOTS}/company-admin-logged-in.png`, fullPage: true });
    await buyer.context().close();
  });

  it('an operator checks a price CSV with two bad lines: both are named, nothing is written; the good lines then import', async () => {
    const { customer } = await createTestCustomer({ company: 'Browser Import AG' });
    const good = await insertProduct();
    const { username, password } = await createAdminUser();
    const page = await (await harness.browser.newContext()).newPage();
    await consoleLogin(page, username, password);
    await page.click('nav.menu a:has-text("Customer prices")');
    await page.click('a:has-text("Import a CSV file")');
    const header = 'customer_number;product_number;min_quantity;price';
    await page.fill(
      '#csv',
      [
        header,
        `${customer.customerNumber};${good.number};1;4.20`,
        `${customer.customerNumber};NOPE;1;5`,
        `NOBODY;${good.number};1;5`,
      ].join('\n'),
    );
    await page.click('[data-test=import-check]');
    expect(await page.textContent('[data-test=import-problems]')).to.contain(
      '2 problem(s) found — nothing was written.',
    );
    expect(await page.locator('[data-test=import-problem]').allTextContents()).to.deep.equal([
      'Line 3: There is no product "NOPE".',
      'Line 4: There is no customer "NOBODY".',
    ]);
    await page.screenshot({ path: `${SCREENSHOTS}/import-two-bad-lines.png`, fullPage: true });
    await page.fill('#csv', [header, `${customer.customerNumber};${good.number};1;4.20`].join('\n'));
    await page.click('[data-test=import-check]');
    expect(await page.textContent('[data-test=import-preview]')).to.contain('Importing will add 1 new price(s)');
    await page.click('[data-test=import-confirm]');
    // The run's page refreshes itself until the import has ended.
    await page.waitForSelector('[data-test=import-done]', { timeout: 30000 });
    expect((await page.textContent('[data-test=import-done]'))!.replace(/\s+/g, ' ').trim()).to.equal(
      'Imported 1 line(s): 1 new, 0 changed, 0 unchanged.',
    );
    await page.screenshot({ path: `${SCREENSHOTS}/import-run-done.png`, fullPage: true });
    await page.click('text=← Customer prices');
    await page.fill('#filter-customer', customer.customerNumber);
    await page.click('button:has-text("Search")');
    expect(await page.locator('[data-test=customer-price-row]').allTextContents()).to.have.length(1);
    expect(await page.textContent('[data-test=customer-price-row]')).to.contain('€4.20');
    await page.context().close();
  });

  for (const readOnly of [false, true]) {
    const role = readOnly ? 'read-only' : 'managing';
    it(`${role} operator: every console page answers below 400${readOnly ? ', every change is refused with 403' : ''}, and axe finds nothing serious`, async () => {
      await requestAccount(`Crawl ${role} KG`);
      const operator = await loginOperator(readOnly);
      const { visited, failures, changes, pages } = await crawl(operator);
      expect(failures, 'answers ≥ 400').to.deep.equal([]);
      for (const path of [
        '/companies',
        '/sales-representatives',
        '/activity-types',
        '/events',
        '/mail-templates',
        '/account-requests',
        '/customer-prices',
        '/customer-prices/import',
        '/partial-assortments',
        '/settings',
      ])
        expect(
          [...visited.keys()].some((visitedPath) => visitedPath.startsWith(`${CONSOLE}${path}`)),
          `the crawl reached ${path}`,
        ).to.equal(true);
      expect(
        [...visited.keys()].some((path) => /\/account-requests\/[0-9a-f]{32}$/.test(path)),
        'the crawl reached a request',
      ).to.equal(true);

      if (readOnly) {
        // A read-only operator is offered no change (decision 0051); every form a managing operator
        // sees, sent as its button sends it with the read-only session's token: refused, visibly.
        expect(
          changes.map(([action]) => action),
          'forms offered to a read-only operator',
        ).to.deep.equal([]);
        const managing = await crawl(await loginOperator());
        expect(managing.changes.length, 'forms that change something').to.be.greaterThan(3);
        const csrf = await operator.csrf();
        for (const [action, fields] of managing.changes) {
          const res = await operator.agent
            .post(action)
            .type('form')
            .send({ ...fields, _csrf: csrf });
          expect(res.status, action).to.equal(403);
          expect(res.text, action).to.contain('Your operator role is read-only');
        }
      }

      // The console's CSP allows no scripts; axe is the test's instrument, not the page's.
      const context = await harness.browser.newContext({ bypassCSP: true });
      const page = await context.newPage();
      await consoleLogin(page, operator.username, operator.password);
      const problems: string[] = [];
      for (const path of pages.values()) {
        await page.goto(`http://shop.test${path}`);
        problems.push(...(await axeFindings(page)));
      }
      if (!readOnly) {
        await page.goto(`http://shop.test${CONSOLE}/customer-prices`);
        await page.screenshot({ path: `${SCREENSHOTS}/customer-prices.png`, fullPage: true });
        await page.goto(`http://shop.test${CONSOLE}/settings`);
        await page.screenshot({ path: `${SCREENSHOTS}/settings.png`, fullPage: true });
      } else {
        await page.goto(`http://shop.test${CONSOLE}/account-requests?status=open`);
        await page.screenshot({ path: `${SCREENSHOTS}/read-only.png`, fullPage: true });
      }
      await context.close();
      expect(problems, `${pages.size} kinds of page checked`).to.deep.equal([]);
    });
  }
});
