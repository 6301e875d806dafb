import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { employee, newCustomer, product, startShop } from '../order-approval/helpers.js';
import { as, dayFromToday, occurrenceRows } from './helpers.js';

describe('recurring orders: a buyer schedules one from a product list in a real browser', function () {
  this.timeout(90000);
  let harness: BrowserHarness;
  let browser: Browser;

  before(startShop);
  before(async function () {
    harness = await startBrowser(this);
    ({ browser } = harness);
  });

  after(async () => {
    await harness?.close();
  });

  it('opens the list, orders it regularly every 2 weeks, sees it in their recurring orders and pauses, skips and cancels it', async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, ['orders.create', 'product-list.manage', 'recurring-orders.manage']);
    const [paper, toner] = [await product({ priceNet: 500 }), await product({ priceNet: 3000 })];
    const list = await (
      await as(buyer.token)
    ).post('/product-lists/create', {
      name: 'Printer room',
      items: [
        { productId: paper.id, quantity: 10 },
        { productId: toner.id, quantity: 1 },
      ],
    });
    expect(list.status, JSON.stringify(list.body)).to.equal(200);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${harness.base}/account/login`);
    await page.fill('#email', buyer.email);
    await page.fill('#password', buyer.password);
    await Promise.all([
      page.waitForURL((url) => !url.pathname.endsWith('/login')),
      page.click('[data-test=login-submit]'),
    ]);

    await page.goto(`${harness.base}/account/product-lists/${list.body.id}`);
    await Promise.all([
      page.waitForURL(/\/account\/recurring-orders\?productListId=/),
      page.click('[data-test=product-list-recurring]'),
    ]);
    const start = dayFromToday(3);
    await page.fill('#recurring-name', 'Printer room every other week');
    await page.fill('#recurring-count', '2');
    await page.selectOption('#recurring-unit', 'week');
    await page.fill('#recurring-start', start);
    await Promise.all([page.waitForURL(/done=created/), page.click('[data-test=recurring-order-submit]')]);

    expect(await page.textContent('[data-test=notice]')).to.equal('The recurring order was set up.');
    const row = page.locator('[data-test=recurring-order]');
    expect(await row.count()).to.equal(1);
    expect(await row.textContent()).to.contain('Printer room every other week');
    expect(await row.textContent()).to.contain('every 2 weeks');
    expect(await page.textContent('[data-test=recurring-order-next]')).to.equal(start);
    for (const button of ['recurring-pause', 'recurring-skip', 'recurring-cancel'])
      expect(await page.isVisible(`[data-test=${button}]`), button).to.equal(true);

    await Promise.all([page.waitForURL(/done=paused/), page.click('[data-test=recurring-pause]')]);
    expect(await page.textContent('[data-test=recurring-order-status]')).to.equal('paused');
    expect(await page.isVisible('[data-test=recurring-resume]')).to.equal(true);

    await Promise.all([page.waitForURL(/done=skipped/), page.click('[data-test=recurring-skip]')]);
    expect(await page.textContent('[data-test=recurring-order-next]')).not.to.equal(start);
    expect(await page.getAttribute('[data-test=recurring-occurrence]', 'data-status')).to.equal('skipped');

    await Promise.all([page.waitForURL(/done=cancelled/), page.click('[data-test=recurring-cancel]')]);
    expect(await page.textContent('[data-test=recurring-order-status]')).to.equal('cancelled');
    expect(await page.isVisible('[data-test=recurring-pause]')).to.equal(false);

    const id = await row.getAttribute('data-id');
    expect((await occurrenceRows(id!)).map((o) => [o.due_date, o.status])).to.deep.equal([[start, 'skipped']]);
    await context.close();
  });
});
