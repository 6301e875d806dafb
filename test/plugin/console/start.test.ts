import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { addSeconds, toDbTime } from '../../../src/lib/time.js';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { getShop } from '../../helpers/shop.js';
import { createEvent, inDays, salesStaff } from '../event-manager/helpers.js';
import { company, product, requestApproval } from '../order-approval/helpers.js';
import { axeFindings, consolePage, SCREENSHOTS } from './browser-helpers.js';
import { CONSOLE, loginOperator } from './helpers.js';

/** The figure of one start page count. */
function figure(html: string, test: string): number {
  const match = new RegExp(`data-test="count-${test}">(?:<a [^>]*>)?<span class="figure">([\\d,]+)</span>`).exec(html);
  if (!match) throw new Error(`no count ${test}`);
  return Number(match[1]!.replace(/,/g, ''));
}

describe('console: start page', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('counts order approvals pending for more than 48 hours and published events starting within 7 days', async () => {
    const operator = await loginOperator();
    const before = (await operator.agent.get(CONSOLE)).text;
    const pendingBefore = figure(before, 'approvals-pending-long');
    const eventsBefore = figure(before, 'events-soon');

    const { requester } = await company();
    const old = await requestApproval(requester.token, [{ productId: (await product()).id, quantity: 1 }]);
    await requestApproval(requester.token, [{ productId: (await product()).id, quantity: 1 }]);
    await (
      await getShop()
    )
      .db('suite_order_approvals')
      .where({ id: old })
      .update({ created_at: toDbTime(addSeconds(new Date(), -3 * 86400)) });
    const staff = await salesStaff();
    await createEvent(staff.token, { startsAt: inDays(3), endsAt: inDays(3.2) });
    await createEvent(staff.token, { startsAt: inDays(30), endsAt: inDays(30.2) });
    await createEvent(staff.token, { startsAt: inDays(2), endsAt: inDays(2.2) }, null);

    const after = (await operator.agent.get(CONSOLE)).text;
    expect(figure(after, 'approvals-pending-long'), 'only the approval pending for 3 days').to.equal(pendingBefore + 1);
    expect(figure(after, 'events-soon'), 'only the published event in 3 days').to.equal(eventsBefore + 1);
    expect(after.replace(/&#x3D;/g, '=')).to.contain(`href="${CONSOLE}/events?status=published"`);
    expect(after).to.contain(`href="${CONSOLE}/sales-representatives"`);
  });
});

describe('console in Chromium: start page', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  it('shows what waits, each figure leading to its page; axe finds nothing serious', async () => {
    const page = await consolePage(harness.browser);
    const problems = await axeFindings(page);
    expect(await page.textContent('[data-test=count-events-soon]')).to.contain('Events starting in the next 7 days');
    expect(await page.textContent('[data-test=count-approvals-pending-long]')).to.contain(
      'Order approvals pending for more than 48 hours',
    );
    await page.screenshot({ path: `${SCREENSHOTS}/start-waiting.png`, fullPage: true });
    await page.click('[data-test=count-events-soon] a');
    expect(await page.textContent('h1')).to.equal('Events');
    await page.context().close();
    expect(problems).to.deep.equal([]);
  });
});
