import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { insertProduct } from '../../helpers/checkout.js';
import { createTestCustomer, getShop } from '../../helpers/shop.js';
import { axeFindings, consolePage, SCREENSHOTS } from './browser-helpers.js';
import { CONSOLE, loginOperator } from './helpers.js';

describe('console: customer price export', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('downloads the filtered prices in the import’s columns, and the file imports back unchanged', async () => {
    const operator = await loginOperator();
    const { customer } = await createTestCustomer({ company: 'Export; "Quoted" AG' });
    const other = await createTestCustomer();
    const [a, b] = [await insertProduct(), await insertProduct()];
    for (const [who, product, quantity, price] of [
      [customer, a, '1', '4.20'],
      [customer, b, '10', '3.05'],
      [other.customer, a, '1', '9.99'],
    ] as const)
      expect(
        (
          await operator.post('/customer-prices/save', {
            customerNumber: who.customerNumber,
            productNumber: product.number,
            minQuantity: quantity,
            price,
          })
        ).status,
      ).to.equal(303);

    const list = await operator.agent.get(`${CONSOLE}/customer-prices?customer=${customer.customerNumber}`);
    expect(list.text.replace(/&#x3D;/g, '=')).to.contain(
      `href="${CONSOLE}/customer-prices/export?customer=${customer.customerNumber}"`,
    );
    const file = await operator.agent
      .get(`${CONSOLE}/customer-prices/export?customer=${customer.customerNumber}`)
      .buffer(true)
      .parse((res, done) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => done(null, body));
      });
    expect(file.status).to.equal(200);
    expect(file.headers['content-type']).to.equal('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).to.match(
      /^attachment; filename="?customer-prices-\d{4}-\d{2}-\d{2}\.csv"?$/,
    );
    const csv = file.body as string;
    expect(csv.trim().split('\r\n')).to.deep.equal([
      'customer_number;customer_group_id;product_number;min_quantity;price',
      `${customer.customerNumber};;${a.number};1;4.2`,
      `${customer.customerNumber};;${b.number};10;3.05`,
    ]);

    const preview = await operator.post('/customer-prices/import/preview', { csv });
    expect(preview.status).to.equal(200);
    expect(preview.text).to.contain(
      'Importing will add <strong>0</strong> new price(s), change <strong>0</strong> and leave <strong>2</strong> unchanged.',
    );

    // An unknown customer number goes back to the list, which names it.
    const unknown = await operator.agent.get(`${CONSOLE}/customer-prices/export?customer=NOBODY`).redirects(0);
    expect(unknown.status).to.equal(302);
  });
});

describe('console in Chromium: customer price export', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  it('an operator downloads the prices of one customer as CSV; axe finds nothing serious on the list', async () => {
    const operator = await loginOperator();
    const { customer } = await createTestCustomer({ company: 'Download GmbH' });
    const product = await insertProduct();
    expect(
      (
        await operator.post('/customer-prices/save', {
          customerNumber: customer.customerNumber,
          productNumber: product.number,
          price: '12.50',
        })
      ).status,
    ).to.equal(303);
    const page = await consolePage(harness.browser);
    await page.goto(`http://shop.test${CONSOLE}/customer-prices?customer=${customer.customerNumber}`);
    const problems = await axeFindings(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-test=export]')]);
    expect(download.suggestedFilename()).to.match(/^customer-prices-.*\.csv$/);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path, 'utf8')).to.contain(`${customer.customerNumber};;${product.number};1;12.5`);
    await page.context().close();
    expect(problems).to.deep.equal([]);
  });
});
