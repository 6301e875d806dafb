import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { newId } from '../../../src/lib/ids.js';
import { addSeconds, nowDb, toDbTime } from '../../../src/lib/time.js';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { adminToken, getShop, http } from '../../helpers/shop.js';
import { createEvent, inDays, salesStaff } from '../event-manager/helpers.js';
import { company as offerCompany, requestOffer } from '../offer/helpers.js';
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

/** A mail and a job given up after their retries, as the outbox and the job worker leave them. */
async function failedMailAndJob(): Promise<string> {
  const db = (await getShop()).db;
  const marker = newId();
  await db('mail_outbox').insert({
    id: newId(),
    template: 'order.confirmation',
    recipient: 'nobody@shop.test',
    data: '{}',
    state: 'failed',
    attempts: 5,
    last_error: `550 mailbox unavailable ${marker}`,
    created_at: nowDb(),
  });
  await db('jobs').insert({
    id: newId(),
    name: 'test.always-fails',
    payload: '{}',
    state: 'failed',
    run_at: nowDb(),
    attempts: 5,
    max_attempts: 5,
    last_error: `boom ${marker}`,
    created_at: nowDb(),
    finished_at: nowDb(),
  });
  return marker;
}

describe('console: start page, offers requested and failed mails and jobs', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('counts offers requested and mails and jobs that failed, through the Admin API list routes', async () => {
    const operator = await loginOperator();
    const before = (await operator.agent.get(CONSOLE)).text;
    const counts = (html: string) => ({
      offers: figure(html, 'offers-requested'),
      mails: figure(html, 'failed-mails'),
      jobs: figure(html, 'failed-jobs'),
    });
    const was = counts(before);

    const c = await offerCompany();
    await requestOffer(c.customer.token, [{ productId: (await product()).id, quantity: 2 }]);
    const marker = await failedMailAndJob();

    const after = (await operator.agent.get(CONSOLE)).text;
    expect(counts(after)).to.deep.equal({ offers: was.offers + 1, mails: was.mails + 1, jobs: was.jobs + 1 });
    expect(after).to.contain('Offers requested').and.contain('Mails that failed').and.contain('Jobs that failed');

    // The routes behind the figures, as an integration calls them.
    const agent = await http();
    const bearer = `Bearer ${await adminToken()}`;
    const offers = await agent.get('/api/suite-offer?status=requested&limit=500').set('authorization', bearer);
    expect(offers.status, JSON.stringify(offers.body)).to.equal(200);
    expect(offers.body.data.map((o: { attributes: { customerId: string } }) => o.attributes.customerId)).to.include(
      c.customer.customer.id,
    );
    type Listed = { attributes: Record<string, unknown> };
    const mails = await agent.get('/api/mail-outbox?state=failed&limit=100').set('authorization', bearer);
    expect(mails.status).to.equal(200);
    expect(mails.body.data.find((m: Listed) => m.attributes.lastError === `550 mailbox unavailable ${marker}`))
      .to.have.property('attributes')
      .that.includes({ state: 'failed', recipient: 'nobody@shop.test', attempts: 5 });
    const jobs = await agent.get('/api/jobs?state=failed&limit=100').set('authorization', bearer);
    expect(jobs.body.data.find((j: Listed) => j.attributes.lastError === `boom ${marker}`))
      .to.have.property('attributes')
      .that.includes({ name: 'test.always-fails', state: 'failed', attempts: 5 });
    expect((await agent.get('/api/jobs?state=broken').set('authorization', bearer)).status).to.equal(400);
    expect((await agent.get('/api/mail-outbox?state=failed')).status, 'no token').to.equal(401);
    expect((await agent.post('/api/mail-outbox').set('authorization', bearer).send({})).status).to.be.oneOf([404, 405]);
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
