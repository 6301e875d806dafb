import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ShopApp } from '../../src/host/app.js';
import { projectPath } from '../../src/host-kit/paths.js';
import { DEMO_CUSTOMER } from '../../src/host/seed/demo.js';
import { startBrowser, type BrowserHarness } from '../helpers/browser.js';
import { pdfTexts } from '../helpers/pdf.js';
import { startDemoShop, type DemoShop } from '../helpers/demo-shop.js';

const SCREENSHOTS = projectPath('var', 'screenshots');

/**
 * The demo buyer's day in a real browser, on the demo shop `npm start` seeds (its own embedded
 * database: the demo's fixed logins would collide with other tests' data). Every page it passes is
 * written to var/screenshots/journey-*.png.
 */
describe('e2e: the demo buyer shops in a real browser', function () {
  this.timeout(120000);
  let demo: DemoShop | undefined;
  let shop: ShopApp;
  let harness: BrowserHarness;

  before(async function () {
    this.timeout(180000);
    demo = await startDemoShop('journey', { publicUrl: 'http://shop.test' });
    shop = demo.shop;
    harness = await startBrowser(this, shop);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
    await demo?.close();
  });

  let step = 0;
  async function snap(page: Page, name: string): Promise<void> {
    step++;
    await page.screenshot({
      path: join(SCREENSHOTS, `journey-${String(step).padStart(2, '0')}-${name}.png`),
      fullPage: true,
    });
  }

  it('browse → product → cart → checkout → order → order detail → invoice PDF', async () => {
    const context = await harness.browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    const base = harness.base;

    await page.goto(`${base}/account/login?redirect=/`);
    await page.fill('#email', DEMO_CUSTOMER.email);
    await page.fill('#password', DEMO_CUSTOMER.password);
    await Promise.all([page.waitForURL(`${base}/`), page.click('[data-test=login-submit]')]);
    await snap(page, 'home');

    // Browse: the category navigation of the layout, then a subcategory's listing.
    await Promise.all([
      page.waitForURL(/\/category\//),
      page.click('[data-test=category-navigation] >> text=Power tools'),
    ]);
    expect(await page.textContent('[data-test=category-title]')).to.equal('Power tools');
    expect(await page.locator('[data-test=product]').count()).to.be.greaterThan(0);
    await snap(page, 'category');

    await page.fill('#header-search', 'DEMO-1000');
    await Promise.all([page.waitForURL(/\/search\?q=/), page.press('#header-search', 'Enter')]);
    expect(await page.textContent('[data-test=listing-total]')).to.match(/^\d+ products found/);
    await snap(page, 'search');

    // Product detail from the listing, add two to the cart.
    await Promise.all([page.waitForURL(/\/product\//), page.locator('[data-test=product-link]').first().click()]);
    const productName = (await page.textContent('[data-test=product-name]'))!.trim();
    expect(await page.textContent('[data-test=your-price]')).to.match(/^€\d/);
    await snap(page, 'product');
    await page.fill('#quantity', '2');
    await Promise.all([page.waitForURL(`${base}/cart?done=added`), page.click('[data-test=add-to-cart]')]);
    expect(await page.textContent('[data-test=cart-lines]')).to.contain(productName);
    await snap(page, 'cart');

    // Checkout with the default addresses, order now.
    await Promise.all([page.waitForURL(`${base}/checkout`), page.click('[data-test=to-checkout]')]);
    expect(await page.locator('[data-test=billing-address] option').count()).to.be.greaterThan(0);
    await page.fill('#customerComment', 'Deliver to the workshop');
    await snap(page, 'checkout');
    await Promise.all([
      page.waitForURL(/\/account\/orders\/[0-9a-f]{32}\?done=ordered$/),
      page.click('[data-test=order-now]'),
    ]);
    expect(await page.textContent('[data-test=order-notice]')).to.contain('Your order was placed');
    expect(await page.textContent('[data-test=order-lines]')).to.contain(productName);
    await snap(page, 'order');

    // The order history lists it; the invoice downloads as a PDF naming the seller.
    const orderTitle = (await page.textContent('[data-test=order-title]'))!.trim();
    await page.goto(`${base}/account/orders`);
    expect(await page.textContent('[data-test=orders]')).to.contain(orderTitle.replace('Order ', ''));
    await snap(page, 'orders');
    await page.goBack();
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-test=order-document]')]);
    expect(download.suggestedFilename()).to.match(/^invoice-.+\.pdf$/);
    const pdfPath = join(SCREENSHOTS, `journey-${download.suggestedFilename()}`);
    await download.saveAs(pdfPath);
    const { readFileSync } = await import('node:fs');
    const texts = pdfTexts(readFileSync(pdfPath));
    expect(texts.join('\n')).to.contain('VAT ID: DE123456789').and.contain(productName.slice(0, 20));
    await page.goto(`${base}/account`);
    await snap(page, 'account');

    expect(failures, 'no page or asset answered an error').to.deep.equal([]);
    await context.close();
  });
});
