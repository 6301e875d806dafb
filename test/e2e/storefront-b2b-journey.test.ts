import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { ShopApp } from '../../src/host/app.js';
import { projectPath } from '../../src/host/paths.js';
import { DEMO_CUSTOMER } from '../../src/host/seed/demo.js';
import { DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { DEMO_REPRESENTATIVE } from '../../src/plugin/sales-representative/demo.js';
import { startBrowser, type BrowserHarness } from '../helpers/browser.js';
import { startDemoShop, type DemoShop } from '../helpers/demo-shop.js';

const SCREENSHOTS = projectPath('var', 'screenshots');

/**
 * The B2B part of the demo's day in a real browser: fast order with a pasted CSV, the cart saved as
 * a product list and the list back into the cart, employee administration, and a representative
 * who stops and starts acting for the customer. Pages are written to var/screenshots/b2b-*.png.
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

  async function loggedIn(email: string, password: string, ip: string): Promise<{ context: BrowserContext; page: Page; failures: string[] }> {
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
  const snap = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `b2b-${name}.png`), fullPage: true });

  it('purchaser: fast order with a CSV, the cart as a product list, the list into the cart', async () => {
    const { context, page, failures } = await loggedIn(DEMO_PURCHASER.email, DEMO_PURCHASER.password, '10.79.0.1');
    await Promise.all([page.waitForURL(/\/account\/fast-order$/), page.click('[data-test=account-fast-order]')]);
    await page.fill('#fast-number-1', 'DEMO-10001');
    await page.fill('#fast-quantity-1', '2');
    await page.fill('#fast-lines', 'product_number;quantity\nDEMO-10002;3\nDEMO-10003;1\n');
    await snap(page, '01-fast-order');
    await Promise.all([page.waitForURL(/\/cart\?done=added$/), page.click('[data-test=fast-order] button[type=submit]')]);
    expect(await page.locator('[data-test=cart-line]').count()).to.equal(3);

    await Promise.all([page.waitForURL(/\/account\/product-lists\/add\?fromCart=1$/), page.click('[data-test=save-as-product-list]')]);
    await page.fill('#add-name', 'Workshop restock');
    await Promise.all([page.waitForURL(/\/account\/product-lists\/[0-9a-f]{32}\?done=from-cart$/), page.click('[data-test=product-list-add] button[type=submit]')]);
    expect(await page.locator('[data-test=product-list-item]').count()).to.equal(3);
    await snap(page, '02-product-list');
    await Promise.all([page.waitForURL(/\/cart\?done=added$/), page.click('[data-test=product-list-to-cart] button')]);
    expect(await page.textContent('[data-test=cart-lines]')).to.contain('DEMO-10001').and.contain('DEMO-10003');
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
    await Promise.all([page.waitForURL(/done=invited$/), page.click('[data-test=employee-invite] button[type=submit]')]);
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
    const { context, page, failures } = await loggedIn(DEMO_REPRESENTATIVE.email, DEMO_REPRESENTATIVE.password, '10.79.0.3');
    await Promise.all([page.waitForURL(/\/account\/sales-representative\/customers$/), page.click('[data-test=account-customers]')]);
    expect(await page.textContent('[data-test=acting-for]')).to.contain(DEMO_CUSTOMER.company);
    await Promise.all([page.waitForURL(/done=stopped$/), page.click('[data-test=stop-acting] button')]);
    expect(await page.isVisible('[data-test=acting-for-none]')).to.equal(true);
    await Promise.all([page.waitForURL(/done=acting$/), page.click('[data-test=act-for] button')]);
    expect(await page.textContent('[data-test=acting-for]')).to.contain(DEMO_CUSTOMER.company);
    await snap(page, '04-sales-customers');
    await page.goto(`${harness.base}/account`);
    await Promise.all([page.waitForURL(/\/account\/sales-representative\/statistics$/), page.click('[data-test=account-sales-statistics]')]);
    expect(await page.locator('[data-test=ranking-entry]').count()).to.be.at.least(1);
    expect(failures).to.deep.equal([]);
    await context.close();
  });
});
