import { expect } from 'chai';
import { crawlConsole } from '../../helpers/console-crawl.js';
import { insertProduct } from '../../helpers/checkout.js';
import { createTestCustomer, getShop } from '../../helpers/shop.js';
import { loginOperator, requestAccount, type Operator } from './helpers.js';

async function crawl(operator: Operator) {
  return crawlConsole(async (path) => {
    const res = await operator.agent.get(path).redirects(0);
    return { status: res.status, html: res.text, type: res.type, location: res.headers.location };
  });
}

// Before decision 0051 a read-only operator saw every Save, Delete, Retry and Accept button and learnt only after clicking.
describe('console: a read-only operator is offered no change', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
    // Something on every list, so the crawl reaches the detail pages and their forms.
    const { customer } = await createTestCustomer({ company: 'Read-only Prices AG' });
    const product = await insertProduct();
    const operator = await loginOperator();
    const saved = await operator.post('/customer-prices/save', {
      customerNumber: customer.customerNumber,
      productNumber: product.number,
      price: '7.25',
      minQuantity: '1',
    });
    expect(saved.status).to.equal(303);
    expect((await operator.post('/integrations', { label: 'Read-only crawl' })).status).to.be.below(400);
    await requestAccount('Read-only Crawl KG');
  });

  it('shows no button that changes something on any page, while a managing operator sees them; a change posted anyway is refused', async function () {
    this.timeout(60000);
    const managing = await crawl(await loginOperator());
    expect(managing.failures).to.deep.equal([]);
    expect(managing.changes.length, 'forms that change something, for a managing operator').to.be.greaterThan(5);

    const reader = await loginOperator(true);
    const readOnly = await crawl(reader);
    expect(readOnly.failures).to.deep.equal([]);
    // Every page the managing operator reached opens for the read-only one too (how many the crawl finds
    // depends on what other tests left in the shared database, so the pages are asked for one by one).
    const refused: string[] = [];
    for (const path of managing.visited.keys()) {
      const res = await reader.agent.get(path).redirects(0);
      if (res.status >= 400) refused.push(`${path}: ${res.status}`);
    }
    expect(refused, 'pages the read-only operator cannot open').to.deep.equal([]);
    expect(
      readOnly.changes.map(([action]) => action),
      'forms that change something, for a read-only operator',
    ).to.deep.equal([]);
    for (const [path, { html }] of readOnly.visited)
      expect(html, path).not.to.match(/<button[^>]*>\s*(Save|Delete|Retry|Accept|Discard|Decline|Remove)\b/);

    // The host still refuses what a hand-made request would change.
    const csrf = await reader.csrf();
    for (const [action, fields] of managing.changes.slice(0, 10)) {
      const res = await reader.agent
        .post(action)
        .type('form')
        .send({ ...fields, _csrf: csrf });
      expect(res.status, action).to.equal(403);
      expect(res.text, action).to.contain('Your operator role is read-only');
    }
  });
});
