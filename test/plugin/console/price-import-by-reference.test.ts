import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { insertProduct } from '../../helpers/checkout.js';
import { createTestCustomer, getShop } from '../../helpers/shop.js';
import { consolePage, SCREENSHOTS } from './browser-helpers.js';
import { CONSOLE, loginOperator } from './helpers.js';

/** A price file of `lines` lines for one customer and product (one price per minimum quantity): ~30 bytes a line. */
function priceFile(customerNumber: string, productNumber: string, lines: number): string {
  const rows = ['customer_number;product_number;min_quantity;price'];
  for (let quantity = 1; quantity <= lines; quantity++)
    rows.push(`${customerNumber};${productNumber};${quantity};9.99`);
  return `${rows.join('\n')}\n`;
}

// Before decision 0053, "Import now" re-posted the checked file in a hidden field, so a file of more than about
// 8,000 lines (256 KB per form field) was refused with 413; the error page then offered "Log in".
describe('console in Chromium: a large price file is imported by reference to the checked file', function () {
  this.timeout(180000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  it('checks a 20,000-line file, imports it with "Import now" and shows the run to its end', async () => {
    const { customer } = await createTestCustomer({ company: 'Large Import AG' });
    const product = await insertProduct();
    const file = priceFile(customer.customerNumber, product.number, 20_000);
    expect(file.length, 'larger than a form field may be').to.be.greaterThan(256 * 1024);

    const page = await consolePage(harness.browser);
    await page.goto(`http://shop.test${CONSOLE}/customer-prices/import`);
    await page.setInputFiles('#file', { name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await page.click('[data-test=import-check]');
    expect(await page.textContent('[data-test=import-preview]')).to.contain('20000');
    const previewSize = (await page.content()).length;
    await page.click('[data-test=import-confirm]');
    expect(page.url(), 'the run page after Import now').to.match(/\/b2b-admin\/import-runs\/[0-9a-f]{32}$/);
    await page.waitForSelector('[data-test=import-done]', { timeout: 120000 });
    expect(await page.textContent('[data-test=import-done]')).to.contain('20000');
    await page.screenshot({ path: `${SCREENSHOTS}/large-price-import.png`, fullPage: true });
    expect(previewSize, 'the preview does not carry the file').to.be.below(100_000);
    await page.context().close();
    const shop = await getShop();
    const [written] = await shop.db('suite_customer_prices').where({ customer_id: customer.id }).count({ n: '*' });
    expect(Number(written!.n)).to.equal(20_000);
  });
});

describe('console: a checked price file kept on the server', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('"Import now" sends only the reference; an unknown or expired reference asks to check the file again', async () => {
    const { customer } = await createTestCustomer({ company: 'Reference Import AG' });
    const product = await insertProduct();
    const operator = await loginOperator();
    const preview = await operator.agent
      .post(`${CONSOLE}/customer-prices/import/preview`)
      .field('_csrf', await operator.csrf())
      .attach('file', Buffer.from(priceFile(customer.customerNumber, product.number, 3)), 'prices.csv');
    expect(preview.status, preview.text).to.equal(200);
    const form = /<form[^>]*action="\/b2b-admin\/customer-prices\/import"[^>]*>([\s\S]*?)<\/form>/.exec(
      preview.text,
    )?.[1];
    expect(form, 'the Import now form').to.be.a('string');
    expect(form).not.to.contain('<textarea');
    const checkId = /name="checkId" value="([0-9a-f]{32})"/.exec(form!)?.[1];
    expect(checkId, 'the checked file’s reference').to.be.a('string');

    const unknown = await operator.post('/customer-prices/import', { checkId: '0'.repeat(32) });
    expect(unknown.status).to.equal(400);
    expect(unknown.text).to.contain('Check the file again');

    const shop = await getShop();
    await shop.db('suite_import_runs').where({ id: checkId }).update({ created_at: '2000-01-01 00:00:00.000' });
    const expired = await operator.post('/customer-prices/import', { checkId: checkId! });
    expect(expired.status).to.equal(400);
    expect(expired.text).to.contain('Check the file again');
  });

  it('a refused form of a logged-in operator (a field over the size limit) shows the way back, not "Log in"', async () => {
    const operator = await loginOperator();
    const res = await operator.agent
      .post(`${CONSOLE}/customer-prices/import/preview`)
      .field('_csrf', await operator.csrf())
      .field('csv', 'x'.repeat(300 * 1024));
    expect(res.status).to.equal(413);
    expect(res.text).to.contain('Back to the start page').and.not.to.contain('>Log in<');
    expect(res.text).to.contain('data-test="operator"');
  });
});
