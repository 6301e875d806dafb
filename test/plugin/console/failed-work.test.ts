import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { newId } from '../../../src/lib/ids.js';
import { addSeconds, nowDb, toDbTime } from '../../../src/lib/time.js';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { adminToken, getShop, http } from '../../helpers/shop.js';
import { axeFindings, consolePage, SCREENSHOTS } from './browser-helpers.js';
import { CONSOLE, loginOperator } from './helpers.js';

/** A mail given up after its retries, as the outbox leaves it (`minutesAgo` orders the list). */
async function failedMail(recipient: string, minutesAgo = 0, state = 'failed'): Promise<string> {
  const id = newId();
  await (await getShop()).db('mail_outbox').insert({
    id,
    template: 'order.confirmation',
    recipient,
    data: '{}',
    state,
    attempts: state === 'failed' ? 5 : 0,
    last_error: state === 'failed' ? `550 mailbox ${recipient} unavailable` : null,
    created_at: toDbTime(addSeconds(new Date(), -60 * minutesAgo)),
  });
  return id;
}

/** A job given up after its retries, as the job worker leaves it. */
async function failedJob(name: string): Promise<string> {
  const id = newId();
  await (await getShop()).db('jobs').insert({
    id,
    name,
    payload: '{}',
    state: 'failed',
    run_at: nowDb(),
    attempts: 5,
    max_attempts: 5,
    last_error: `boom in ${name}`,
    created_at: nowDb(),
    finished_at: nowDb(),
  });
  return id;
}

/** Nothing failed: the test database is shared by the test files, so the empty state is made here. */
async function nothingFailed(): Promise<void> {
  const { db } = await getShop();
  await db('mail_outbox').where({ state: 'failed' }).delete();
  await db('jobs').where({ state: 'failed' }).delete();
}

describe('console: failed mails and failed jobs (list, retry, discard)', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('says what to do when nothing failed; lists failed mails newest first, 25 a page, without the queued ones', async () => {
    await nothingFailed();
    const operator = await loginOperator();
    for (const path of ['/failed-mails', '/failed-jobs']) {
      const empty = await operator.agent.get(`${CONSOLE}${path}`);
      expect(empty.status).to.equal(200);
      expect(empty.text).to.contain('data-test="empty"').and.contain('failed: nothing to do');
    }
    for (let i = 0; i < 26; i++) await failedMail(`reject-${i}@shop.test`, i + 1);
    await failedMail('queued@shop.test', 0, 'queued');
    const first = await operator.agent.get(`${CONSOLE}/failed-mails`);
    expect(first.text.match(/data-test="failed-row"/g)).to.have.length(25);
    expect(first.text).to.contain('Page 1 of 2 (26 in all)').and.contain('550 mailbox reject-0@shop.test unavailable');
    expect(first.text).to.not.contain('queued@shop.test').and.not.contain('reject-25@shop.test');
    const second = await operator.agent.get(`${CONSOLE}/failed-mails?page=2`);
    expect(second.text.match(/data-test="failed-row"/g)).to.have.length(1);
    expect(second.text).to.contain('reject-25@shop.test');
    // The start page's figure leads here.
    expect((await operator.agent.get(CONSOLE)).text).to.contain(`href="${CONSOLE}/failed-mails"`);
  });

  it('retries a failed mail (queued again, attempts reset) and discards a failed job; a second retry is refused', async () => {
    const { db } = await getShop();
    const mailId = await failedMail(`retry-${newId().slice(0, 6)}@shop.test`);
    const jobId = await failedJob('test.discard-me');
    const operator = await loginOperator();

    const retried = await operator.post(`/failed-mails/${mailId}/retry`);
    expect(retried.status, retried.text).to.equal(303);
    expect(retried.headers.location).to.equal(`${CONSOLE}/failed-mails`);
    expect(await db('mail_outbox').where({ id: mailId }).first('state', 'attempts', 'next_attempt_at')).to.deep.include(
      {
        state: 'queued',
        next_attempt_at: null,
      },
    );
    const notice = await operator.agent.get(`${CONSOLE}/failed-mails`);
    expect(notice.text).to.contain('The mail is queued again');
    expect(notice.text).to.not.contain(`data-id="${mailId}"`);
    const again = await operator.post(`/failed-mails/${mailId}/retry`);
    expect(again.status).to.equal(400);
    expect(again.text).to.contain('Only a failed mail can be retried or discarded; this one is queued.');

    expect((await operator.agent.get(`${CONSOLE}/failed-jobs`)).text).to.contain(`data-id="${jobId}"`);
    const discarded = await operator.post(`/failed-jobs/${jobId}/discard`);
    expect(discarded.status).to.equal(303);
    expect(await db('jobs').where({ id: jobId }).first()).to.equal(undefined);
    expect((await operator.post(`/failed-jobs/${jobId}/discard`)).status).to.equal(404);
    expect((await operator.post('/failed-jobs/not-an-id/retry')).status).to.equal(404);

    const readOnly = await loginOperator(true);
    const jobToKeep = await failedJob('test.keep-me');
    expect((await readOnly.post(`/failed-jobs/${jobToKeep}/retry`)).status).to.equal(403);
    expect(await db('jobs').where({ id: jobToKeep }).first('state')).to.deep.equal({ state: 'failed' });
  });

  it('the Admin API routes: retry a failed job to run now, 404 for an unknown one, 400 SUITE__NOT_FAILED for a done one', async () => {
    const { db } = await getShop();
    const agent = await http();
    const bearer = `Bearer ${await adminToken()}`;
    const jobId = await failedJob('test.retry-me');
    const res = await agent.post(`/api/_action/jobs/${jobId}/retry`).set('authorization', bearer);
    expect(res.status, JSON.stringify(res.body)).to.equal(204);
    const row = await db('jobs').where({ id: jobId }).first('state', 'attempts', 'finished_at');
    expect({ ...row, attempts: Number(row.attempts) }).to.deep.equal({
      state: 'queued',
      attempts: 0,
      finished_at: null,
    });
    await db('jobs').where({ id: jobId }).update({ state: 'done' });
    const done = await agent.delete(`/api/jobs/${jobId}`).set('authorization', bearer);
    expect(done.status).to.equal(400);
    expect(done.body.errors[0].code).to.equal('SUITE__NOT_FAILED');
    expect(
      (await agent.post(`/api/_action/mail-outbox/${newId()}/retry`).set('authorization', bearer)).status,
    ).to.equal(404);
    expect((await agent.delete(`/api/mail-outbox/${newId()}`)).status, 'no token').to.equal(401);
  });
});

describe('console in Chromium: failed mails', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  it('an operator opens the failed mails from the start page and retries one; axe finds nothing serious', async () => {
    await nothingFailed();
    const recipient = `browser-${newId().slice(0, 6)}@shop.test`;
    await failedMail(recipient);
    await failedMail(`other-${newId().slice(0, 6)}@shop.test`, 5);
    const page = await consolePage(harness.browser);
    await page.click('[data-test=count-failed-mails] a');
    expect(await page.textContent('h1')).to.equal('Failed mails');
    const problems = await axeFindings(page);
    await page.screenshot({ path: `${SCREENSHOTS}/failed-mails.png`, fullPage: true });
    await page.click(`[data-test=failed-row]:has-text("${recipient}") [data-test=retry]`);
    expect(await page.textContent('[data-test=notice]')).to.contain('The mail is queued again');
    expect(await page.locator('[data-test=failed-row]').count()).to.equal(1);
    await page.click('nav.menu a:has-text("Failed jobs")');
    expect(await page.textContent('[data-test=empty]')).to.contain('No job failed');
    problems.push(...(await axeFindings(page)));
    await page.screenshot({ path: `${SCREENSHOTS}/failed-jobs-empty.png`, fullPage: true });
    await page.context().close();
    expect(problems).to.deep.equal([]);
  });
});
