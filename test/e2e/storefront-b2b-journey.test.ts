import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { ShopApp } from '../../src/host/app.js';
import { projectPath } from '../../src/host-kit/paths.js';
import { DEMO_CUSTOMER } from '../../src/host/seed/demo.js';
import { DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { DEMO_REPRESENTATIVE } from '../../src/plugin/sales-representative/demo.js';
import { startBrowser, type BrowserHarness } from '../helpers/browser.js';
import { startDemoShop, type DemoShop } from '../helpers/demo-shop.js';

const SCREENSHOTS = projectPath('var', 'screenshots');

/**
 * The B2B part of the demo's day in a real browser: fast order with a pasted CSV and an uploaded CSV
 * file, the cart saved as a product list and the list back into the cart, employee administration,
 * a representative who stops and starts acting for the customer and prices and sends the demo offer,
 * which the customer accepts, and an express checkout from the cart, moving between pages with the
 * account menu beside them. Pages are written to var/screenshots/b2b-*.png.
 */
describe('e2e: B2B account pages in a real browser', function () {
  this.timeout(120000);
  let demo: DemoShop | undefined;
  let shop: ShopApp;
  let harness: BrowserHarness;

  before(async function () {
    this.timeout(180000);
    demo = await startDemoShop('b2b-journey', { publicUrl: 'http://shop.test' });
    shop = demo.shop;
    harness = await startBrowser(this, shop);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
    await demo?.close();
  });

  async function loggedIn(
    email: string,
    password: string,
    ip: string,
  ): Promise<{ context: BrowserContext; page: Page; failures: string[] }> {
    const context = await harness.browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': ip } });
    const page = await context.newPage();
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${harness.base}/account/login`);
    await page.fill('#email', email);
    await page.fill('#password', password);
    await Promise.all([page.waitForURL(`${harness.base}/account`), page.click('[data-test=login-submit]')]);
    return { context, page, failures };
  }
  const snap = (page: Page, name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `b2b-${name}.png`), fullPage: true });

  it('purchaser: fast order with a CSV, the cart as a product list, the list into the cart', async () => {
    const { context, page, failures } = await loggedIn(DEMO_PURCHASER.email, DEMO_PURCHASER.password, '10.79.0.1');
    await Promise.all([page.waitForURL(/\/account\/fast-order$/), page.click('[data-test=account-fast-order]')]);
    await page.fill('#fast-number-1', 'DEMO-10001');
    await page.fill('#fast-quantity-1', '2');
    await page.fill('#fast-lines', 'product_number;quantity\nDEMO-10002;3\nDEMO-10003;1\n');
    await snap(page, '01-fast-order');
    await Promise.all([
      page.waitForURL(/\/cart\?done=added$/),
      page.click('[data-test=fast-order] button[type=submit]'),
    ]);
    expect(await page.locator('[data-test=cart-line]').count()).to.equal(3);

    await Promise.all([
      page.waitForURL(/\/account\/product-lists\/add\?fromCart=1$/),
      page.click('[data-test=save-as-product-list]'),
    ]);
    await page.fill('#add-name', 'Workshop restock');
    await Promise.all([
      page.waitForURL(/\/account\/product-lists\/[0-9a-f]{32}\?done=from-cart$/),
      page.click('[data-test=product-list-add] button[type=submit]'),
    ]);
    expect(await page.locator('[data-test=product-list-item]').count()).to.equal(3);
    await snap(page, '02-product-list');
    await Promise.all([page.waitForURL(/\/cart\?done=added$/), page.click('[data-test=product-list-to-cart] button')]);
    expect(await page.textContent('[data-test=cart-lines]'))
      .to.contain('DEMO-10001')
      .and.contain('DEMO-10003');

    // The account menu beside the account pages leads back to fast order, which takes a CSV file too.
    await page.goto(`${harness.base}/account/product-lists`);
    await Promise.all([
      page.waitForURL(/\/account\/fast-order$/),
      page.click('[data-test=account-side-menu] [data-test=side-fast-order]'),
    ]);
    expect(await page.getAttribute('[data-test=side-fast-order]', 'aria-current')).to.equal('page');
    await page.setInputFiles('#fast-csv-file', {
      name: 'restock.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('product_number;quantity\r\nDEMO-10004;2\r\n'),
    });
    await Promise.all([
      page.waitForURL(/\/cart\?done=added$/),
      page.click('[data-test=fast-order] button[type=submit]'),
    ]);
    expect(await page.textContent('[data-test=cart-lines]')).to.contain('DEMO-10004');
    expect(failures).to.deep.equal([]);
    await context.close();
  });

  it('company admin: invites an employee and changes their role', async () => {
    const { context, page, failures } = await loggedIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password, '10.79.0.2');
    await Promise.all([page.waitForURL(/\/account\/employees$/), page.click('[data-test=account-employees]')]);
    await page.fill('#invite-email', 'new.colleague@demo-company.test');
    await page.fill('#invite-first-name', 'Nora');
    await page.fill('#invite-last-name', 'New');
    await page.selectOption('#invite-role', { label: 'Purchaser' });
    await Promise.all([
      page.waitForURL(/done=invited$/),
      page.click('[data-test=employee-invite] button[type=submit]'),
    ]);
    expect(await page.textContent('[data-test=notice]')).to.contain('invitation mail');
    await snap(page, '03-employees');
    await Promise.all([page.waitForURL(/\/account\/employees\/[0-9a-f]{32}$/), page.click('text=Nora New')]);
    await page.selectOption('#employee-role', { label: 'Approver' });
    await Promise.all([page.waitForURL(/done=saved$/), page.click('[data-test=employee-edit] button[type=submit]')]);
    expect(await page.textContent('[data-test=employee-role]')).to.equal('Approver');
    expect(failures).to.deep.equal([]);
    await context.close();
  });

  it('sales representative: stops acting for the customer and acts for them again', async () => {
    const { context, page, failures } = await loggedIn(
      DEMO_REPRESENTATIVE.email,
      DEMO_REPRESENTATIVE.password,
      '10.79.0.3',
    );
    await Promise.all([
      page.waitForURL(/\/account\/sales-representative\/customers$/),
      page.click('[data-test=account-customers]'),
    ]);
    expect(await page.textContent('[data-test=acting-for]')).to.contain(DEMO_CUSTOMER.company);
    await Promise.all([page.waitForURL(/done=stopped$/), page.click('[data-test=stop-acting] button')]);
    expect(await page.isVisible('[data-test=acting-for-none]')).to.equal(true);
    await Promise.all([page.waitForURL(/done=acting$/), page.click('[data-test=act-for] button')]);
    expect(await page.textContent('[data-test=acting-for]')).to.contain(DEMO_CUSTOMER.company);
    await snap(page, '04-sales-customers');
    await page.goto(`${harness.base}/account`);
    await Promise.all([
      page.waitForURL(/\/account\/sales-representative\/statistics$/),
      page.click('[data-test=account-sales-statistics]'),
    ]);
    expect(await page.locator('[data-test=ranking-entry]').count()).to.be.at.least(1);
    expect(failures).to.deep.equal([]);
    await context.close();
  });

  it('sales representative prices the requested demo offer and sends it; the customer accepts it', async () => {
    const rep = await loggedIn(DEMO_REPRESENTATIVE.email, DEMO_REPRESENTATIVE.password, '10.79.0.4');
    await Promise.all([rep.page.waitForURL(/\/account\/offers$/), rep.page.click('[data-test=account-offers]')]);
    await Promise.all([
      rep.page.waitForURL(/\/account\/offers\/[0-9a-f]{32}$/),
      rep.page.click('[data-test=offer]:has-text("Workshop equipment for the new site") a'),
    ]);
    const offerUrl = rep.page.url();
    const lines = rep.page.locator('[data-test=pricing-line]');
    expect(await lines.count()).to.equal(2);
    // The demo has 5 drills in stock: the representative offers the 2 that can be delivered now.
    await lines.nth(0).locator('[data-test=pricing-price]').fill('79.00');
    await lines.nth(0).locator('[data-test=pricing-quantity]').fill('2');
    await lines.nth(1).locator('[data-test=pricing-discount]').fill('10');
    await rep.page.fill('#pricing-comment', 'Volume price for the new site');
    await snap(rep.page, '05-offer-pricing');
    await Promise.all([rep.page.waitForURL(/done=priced$/), rep.page.click('[data-test=pricing-submit]')]);
    expect(await rep.page.getAttribute('[data-test=offer-status]', 'data-status')).to.equal('draft');
    expect(await rep.page.locator('[data-test=offer-line-price]').first().textContent()).to.equal('€79.00');
    await rep.page.fill('#send-message', 'Here is our offer.');
    await Promise.all([rep.page.waitForURL(/done=sent$/), rep.page.click('[data-test=send-submit]')]);
    expect(await rep.page.getAttribute('[data-test=offer-status]', 'data-status')).to.equal('open');
    expect(await rep.page.locator('[data-test=offer-document]').count()).to.equal(1);
    await snap(rep.page, '06-offer-sent');
    expect(rep.failures).to.deep.equal([]);
    await rep.context.close();

    const buyer = await loggedIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password, '10.79.0.5');
    await buyer.page.goto(offerUrl);
    expect(await buyer.page.textContent('[data-test=offer-sales-comment]')).to.equal('Volume price for the new site');
    await Promise.all([buyer.page.waitForURL(/done=accepted$/), buyer.page.click('[data-test=accept-submit]')]);
    expect(await buyer.page.textContent('[data-test=offer-order-number]')).to.match(/\S/);
    expect(buyer.failures).to.deep.equal([]);
    await buyer.context.close();
  });

  it('company admin: express checkout from the cart', async () => {
    const { context, page, failures } = await loggedIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password, '10.79.0.6');
    await Promise.all([page.waitForURL(/\/account\/fast-order$/), page.click('[data-test=account-fast-order]')]);
    await page.fill('#fast-number-1', 'DEMO-10002');
    await Promise.all([
      page.waitForURL(/\/cart\?done=added$/),
      page.click('[data-test=fast-order] button[type=submit]'),
    ]);
    expect(await page.textContent('[data-test=express-addresses]')).to.contain('Billing');
    await page.fill('#express-comment', 'Express, please');
    await snap(page, '07-express-checkout');
    await Promise.all([
      page.waitForURL(/\/account\/orders\/[0-9a-f]{32}\?done=ordered$/),
      page.click('[data-test=express-order]'),
    ]);
    expect(await page.textContent('main'))
      .to.contain('Thank you! Your order was placed.')
      .and.contain('DEMO-10002');
    expect(failures).to.deep.equal([]);
    await context.close();
  });
});
