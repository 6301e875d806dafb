import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { adminToken, getShop, http } from '../../helpers/shop.js';
import { as, newCustomer, product, setNumber } from '../fast-order/helpers.js';
import { axeFindings, consolePage, SCREENSHOTS } from './browser-helpers.js';
import { CONSOLE, loginOperator } from './helpers.js';

/** The customer's numbers as the customer sees them (Store API). */
async function numbersOf(token: string): Promise<Record<string, string>> {
  const res = await (await as(token)).post('/b2b/customer-product-numbers', { limit: 100 });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return Object.fromEntries(
    (res.body.elements as Array<{ productNumber: string; customerProductNumber: string }>).map((e) => [
      e.productNumber,
      e.customerProductNumber,
    ]),
  );
}

describe('console: customer product numbers import', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('previews a file naming every bad line and writing nothing, then imports a good one after its preview', async () => {
    const operator = await loginOperator();
    const buyer = await newCustomer();
    const [a, b] = [await product(), await product()];
    await setNumber(buyer.token, b.id, 'OLD-B');
    const customerNumber = buyer.customer.customerNumber;

    const bad = await operator.post('/customer-product-numbers/preview', {
      customerNumber,
      csv: ['product_number;customer_product_number', `${a.number};MY-A`, 'NOPE;MY-X', `${b.number};my-a`].join('\n'),
    });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('2 problem(s) found — nothing was written.');
    expect(bad.text).to.contain('data-line="3"').and.contain('There is no product &quot;NOPE&quot;.');
    expect(bad.text).to.contain('data-line="4"').and.contain('is on line 2 already.');
    expect(await numbersOf(buyer.token)).to.deep.equal({ [b.number]: 'OLD-B' });

    const good = ['product_number,customer_product_number', `${a.number},MY-A`, `${b.number},MY-B`].join('\n');
    const preview = await operator.post('/customer-product-numbers/preview', { customerNumber, csv: good });
    expect(preview.status, preview.text).to.equal(200);
    expect(preview.text)
      .to.contain(`(${customerNumber}) will add <strong>1</strong> new number(s), change <strong>1</strong>`)
      .and.contain('data-test="import-confirm"');
    expect(await numbersOf(buyer.token), 'a preview writes nothing').to.deep.equal({ [b.number]: 'OLD-B' });

    const imported = await operator.post('/customer-product-numbers', { customerNumber, csv: good });
    expect(imported.status, imported.text).to.equal(303);
    expect((await operator.agent.get(imported.headers.location as string)).text).to.contain(
      `(${customerNumber}): 1 new, 1 changed, 0 unchanged.`,
    );
    expect(await numbersOf(buyer.token)).to.deep.equal({ [a.number]: 'MY-A', [b.number]: 'MY-B' });
    const again = await operator.post('/customer-product-numbers/preview', { customerNumber, csv: good });
    expect(again.text, 'imported again, nothing changes').to.contain('leave <strong>2</strong> unchanged');
  });

  it('names an unknown or missing customer number and an empty file next to their fields, keeping the input', async () => {
    const operator = await loginOperator();
    const unknown = await operator.post('/customer-product-numbers/preview', {
      customerNumber: 'NOBODY-1',
      csv: 'product_number;customer_product_number\nX;Y',
    });
    expect(unknown.status).to.equal(400);
    expect(unknown.text)
      .to.contain('data-test="field-error-customerNumber"')
      .and.contain('There is no customer with the number &quot;NOBODY-1&quot;.')
      .and.contain('value="NOBODY-1"')
      .and.contain('aria-invalid="true"');
    const empty = await operator.post('/customer-product-numbers/preview', { customerNumber: '', csv: '' });
    expect(empty.status).to.equal(400);
    expect(empty.text)
      .to.contain('Enter the customer number the numbers are for.')
      .and.contain('Choose a CSV file or paste its lines.');
  });

  it('refuses the import without the CSRF token and for a read-only operator, who may still check the file', async () => {
    const buyer = await newCustomer();
    const item = await product();
    const form = {
      customerNumber: buyer.customer.customerNumber,
      csv: `product_number;customer_product_number\n${item.number};RO-1`,
    };
    const operator = await loginOperator();
    const forged = await operator.agent.post(`${CONSOLE}/customer-product-numbers`).type('form').send(form);
    expect(forged.status).to.equal(403);
    const reader = await loginOperator(true);
    expect((await reader.post('/customer-product-numbers/preview', form)).status).to.equal(200);
    const refused = await reader.post('/customer-product-numbers', form);
    expect(refused.status).to.equal(403);
    expect(refused.text).to.contain('Your operator role is read-only');
    expect(await numbersOf(buyer.token)).to.deep.equal({});
  });

  it('declares the Admin API route: an unknown customer is a 404, a missing one a 400', async () => {
    const agent = await http();
    const bearer = `Bearer ${await adminToken()}`;
    const csv = 'product_number;customer_product_number\nX;Y';
    const post = (query: string) =>
      agent
        .post(`/api/suite-customer-product-number/import${query}`)
        .set('authorization', bearer)
        .set('content-type', 'text/csv')
        .send(csv);
    expect((await post(`?customerId=${'0'.repeat(32)}`)).status).to.equal(404);
    expect((await post('')).status).to.equal(400);
    expect(
      (
        await agent
          .post(`/api/suite-customer-product-number/import?customerId=${'0'.repeat(32)}`)
          .set('content-type', 'text/csv')
          .send(csv)
      ).status,
    ).to.equal(401);
  });
});

describe('console in Chromium: customer product numbers import', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  it('checks a pasted file, shows the preview, imports it; axe finds nothing serious', async () => {
    const buyer = await newCustomer();
    const item = await product();
    const page = await consolePage(harness.browser);
    await page.click('nav a:has-text("Customer product numbers")');
    expect(await page.textContent('h1')).to.equal('Import customer product numbers');
    const problems = await axeFindings(page);
    await page.fill('#customerNumber', buyer.customer.customerNumber);
    await page.fill('#csv', `product_number;customer_product_number\n${item.number};CHROME-1`);
    await page.click('[data-test=import-check]');
    expect(await page.textContent('[data-test=import-preview]')).to.contain('will add 1 new number(s)');
    problems.push(...(await axeFindings(page)));
    await page.screenshot({ path: `${SCREENSHOTS}/customer-product-numbers-preview.png`, fullPage: true });
    await page.click('[data-test=import-confirm]');
    expect(await page.textContent('body')).to.contain('1 new, 0 changed, 0 unchanged.');
    await page.context().close();
    expect(await numbersOf(buyer.token)).to.deep.equal({ [item.number]: 'CHROME-1' });
    expect(problems).to.deep.equal([]);
  });
});
