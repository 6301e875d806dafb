import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { browserFor } from '../helpers/browser.js';
import { axeFindings, CONSOLE, crawlConsole } from '../helpers/console-crawl.js';
import { consoleClient, consolePage, createAdministrator, SUPERADMIN } from './helpers/console.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/** Screenshots for a person to look at (outside the repository). */
const SCREENSHOTS = process.env.SCREENSHOTS_DIR ?? join(tmpdir(), 'suite-b2b-screenshots', 'vendure-console');

/**
 * The operator's console on Vendure (/b2b-admin): Vendure's administrators log in with their Vendure
 * credentials (SuperAdmin or `SuiteB2BAdmin`: managing; `SuiteB2BAdminReadOnly` alone: read-only),
 * the same crawler and axe-core rules as on the reference host, and operator journeys in Chromium.
 */
describe('Vendure: the operator console at /b2b-admin', function () {
  this.timeout(120_000);
  let client: ShopClient;
  let browser: Browser;
  let admin: Record<string, string>;
  const readOnly = { username: 'viewer@shop.test', password: 'viewer-pass-2026' };
  const outsider = { username: 'catalogue@shop.test', password: 'catalogue-pass-2026' };

  before(async function () {
    this.timeout(240_000);
    client = await bootShop({ label: 'vendure_console', runJobs: false });
    admin = bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    await createAdministrator(client, admin, readOnly, ['SuiteB2BAdminReadOnly']);
    await createAdministrator(client, admin, outsider, ['ReadCatalog']);
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await browserFor(this, Number(new URL(client.shop.url).port));
  });

  after(async function () {
    this.timeout(60_000);
    await browser?.close();
    await client?.close();
  });

  it('logs a Vendure administrator in with their Vendure credentials; others are refused; log out ends the Vendure session', async () => {
    const visitor = consoleClient(client.shop.url);
    const first = await visitor.get(CONSOLE);
    expect(first.status).to.equal(302);
    expect(first.location).to.equal(`${CONSOLE}/login?redirect=%2Fb2b-admin`);
    const wrong = await visitor.login('superadmin', 'not-the-password');
    expect(wrong.status).to.equal(401);
    expect(wrong.html).to.contain('The user name or password is wrong.');
    // A Vendure administrator without the console's permissions, and a customer: no console.
    expect((await consoleClient(client.shop.url).login(outsider.username, outsider.password)).status).to.equal(401);
    expect((await consoleClient(client.shop.url).login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password)).status).to.equal(
      401,
    );

    const login = await visitor.login('superadmin', 'superadmin');
    expect(login.status, login.html).to.equal(303);
    const start = await visitor.get(CONSOLE);
    expect(start.status).to.equal(200);
    expect(start.html).to.contain('superadmin').and.contain('Account requests');
    const token = visitor.jar.get('suite-admin-session')!;
    // The cookie is Vendure's own admin session: the Vendure Admin API knows it.
    const me = await client.gql('admin-api', '{ me { identifier } }', {}, bearer(token));
    expect(me.data.me.identifier).to.equal('superadmin');

    // A POST without the session's CSRF token changes nothing.
    const forged = await fetch(`${client.shop.url}${CONSOLE}/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `suite-admin-session=${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: '_csrf=forged',
    });
    expect(forged.status).to.equal(403);

    expect((await visitor.post(`${CONSOLE}/logout`)).status).to.equal(303);
    expect((await visitor.get(CONSOLE)).status).to.equal(302);
    expect((await client.gql('admin-api', '{ me { identifier } }', {}, bearer(token))).data.me).to.equal(null);
  });

  it("lists the shop's failed mails and jobs (the adapter's outbox and queue), retries a mail and discards a job", async () => {
    const { db } = client.shop.state;
    const operator = consoleClient(client.shop.url);
    expect((await operator.login('superadmin', 'superadmin')).status).to.equal(303);
    expect((await operator.get(`${CONSOLE}/failed-mails`)).html).to.contain('data-test="empty"');
    const failed = { state: 'failed', attempts: 5, created_at: nowDb() };
    const [mailId, jobId, keptJobId] = [newId(), newId(), newId()];
    await db('suite_host_mail_outbox').insert({
      ...failed,
      id: mailId,
      template: 'order.confirmation',
      recipient: 'reject-me@shop.test',
      data: '{}',
      last_error: '550 mailbox reject-me@shop.test unavailable',
    });
    for (const id of [jobId, keptJobId])
      await db('suite_host_jobs').insert({
        ...failed,
        id,
        name: `test.fails-${id.slice(0, 6)}`,
        payload: '{}',
        run_at: nowDb(),
        max_attempts: 5,
        last_error: 'boom',
        finished_at: nowDb(),
      });
    const start = await operator.get(CONSOLE);
    expect(start.html).to.contain(`href="${CONSOLE}/failed-mails"`).and.contain(`href="${CONSOLE}/failed-jobs"`);
    expect((await operator.get(`${CONSOLE}/failed-mails`)).html).to.contain(
      '550 mailbox reject-me@shop.test unavailable',
    );
    expect((await operator.post(`${CONSOLE}/failed-mails/${mailId}/retry`)).status).to.equal(303);
    expect(await db('suite_host_mail_outbox').where({ id: mailId }).first('state')).to.deep.equal({ state: 'queued' });
    expect((await operator.post(`${CONSOLE}/failed-jobs/${jobId}/discard`)).status).to.equal(303);
    expect(await db('suite_host_jobs').where({ id: jobId }).first()).to.equal(undefined);
    // The other failed job stays for the crawl: the read-only operator's retry and discard are refused.
    expect((await operator.get(`${CONSOLE}/failed-jobs`)).html).to.contain(`data-id="${keptJobId}"`);
  });

  for (const role of ['managing', 'read-only'] as const) {
    it(`${role} operator: every console page answers below 400${role === 'read-only' ? ', every change is refused with 403' : ''}, and axe finds nothing serious`, async () => {
      const res = await client.rest(
        'POST',
        '/store-api/account-request',
        {},
        { company: `Crawl ${role} KG`, firstName: 'Pia', lastName: 'Prospect', email: `crawl-${role}@example.test` },
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const who = role === 'managing' ? { username: 'superadmin', password: 'superadmin' } : readOnly;
      const operator = consoleClient(client.shop.url);
      expect((await operator.login(who.username, who.password)).status).to.equal(303);
      const { visited, failures, changes, pages } = await crawlConsole(operator.get);
      expect(failures, 'answers ≥ 400').to.deep.equal([]);
      for (const path of [
        '/companies',
        '/account-requests',
        '/customer-prices',
        '/events',
        '/settings',
        '/partial-assortments',
        '/partial-assortments/preview',
        '/failed-mails',
        '/failed-jobs',
      ])
        expect(
          [...visited.keys()].some((visitedPath) => visitedPath.startsWith(`${CONSOLE}${path}`)),
          `the crawl reached ${path}`,
        ).to.equal(true);
      expect(
        [...visited.keys()].some((path) => /\/account-requests\/[0-9a-f]{32}$/.test(path)),
        'the crawl reached a request',
      ).to.equal(true);
      if (role === 'read-only') {
        // Offered no change (decision 0051); the managing operator's forms, sent anyway, are refused.
        expect(
          changes.map(([action]) => action),
          'forms offered to a read-only operator',
        ).to.deep.equal([]);
        const manager = consoleClient(client.shop.url);
        expect((await manager.login('superadmin', 'superadmin')).status).to.equal(303);
        const managing = await crawlConsole(manager.get);
        expect(managing.changes.length, 'forms that change something').to.be.greaterThan(3);
        for (const [action, { _csrf: _managersToken, ...fields }] of managing.changes) {
          const refused = await operator.post(action, fields);
          expect(refused.status, action).to.equal(403);
          expect(refused.html, action).to.contain('Your operator role is read-only');
        }
      }
      const page = await consolePage(browser, who);
      const problems: string[] = [];
      for (const path of pages.values()) {
        await page.goto(`http://shop.test${path}`);
        problems.push(...(await axeFindings(page)));
      }
      await page.goto(`http://shop.test${CONSOLE}/account-requests?status=open`);
      await page.screenshot({ path: join(SCREENSHOTS, `account-requests-${role}.png`), fullPage: true });
      await page.context().close();
      expect(problems, `${pages.size} kinds of page checked`).to.deep.equal([]);
    });
  }

  /** A datetime-local value `days` from now at `hour`:00 UTC (the console enters times in UTC). */
  const inDays = (days: number, hour = 9) => {
    const date = new Date(Date.now() + days * 86_400_000);
    date.setUTCHours(hour, 0, 0, 0);
    return date.toISOString().slice(0, 16);
  };

  it('journey: an operator checks a price CSV with two bad lines, both named and nothing written; the good line then imports', async () => {
    const buyer = await client.shop.state.runtime.customers.findByEmail(client.shop.state.db, DEMO_CUSTOMER.email);
    const page = await consolePage(browser, SUPERADMIN);
    await page.click('nav.menu a:has-text("Customer prices")');
    await page.click('a:has-text("Import a CSV file")');
    const header = 'customer_number;product_number;min_quantity;price';
    await page.fill(
      '#csv',
      [
        header,
        `${buyer!.customerNumber};CHAIR-001;1;150.00`,
        `${buyer!.customerNumber};NOPE;1;5`,
        'NOBODY;CHAIR-001;1;5',
      ].join('\n'),
    );
    await page.click('[data-test=import-check]');
    expect(await page.textContent('[data-test=import-problems]')).to.contain(
      '2 problem(s) found — nothing was written.',
    );
    expect(await page.locator('[data-test=import-problem]').allTextContents()).to.deep.equal([
      'Line 3: There is no product "NOPE".',
      'Line 4: There is no customer "NOBODY".',
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, 'import-two-bad-lines.png'), fullPage: true });
    await page.fill('#csv', [header, `${buyer!.customerNumber};CHAIR-001;1;150.00`].join('\n'));
    await page.click('[data-test=import-check]');
    await page.click('[data-test=import-confirm]');
    await page.waitForSelector('[data-test=import-done]', { timeout: 30000 });
    expect((await page.textContent('[data-test=import-done]'))!.replace(/\s+/g, ' ').trim()).to.equal(
      'Imported 1 line(s): 1 new, 0 changed, 0 unchanged.',
    );
    await page.context().close();
    // The buyer sees the price in Vendure's own Shop API.
    const shopper = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const { data } = await client.gql(
      'shop-api',
      '{ product(slug: "office-chair") { variants { price } } }',
      {},
      shopper,
    );
    expect(data.product.variants[0].price).to.equal(15000);
  });

  it('journey: an operator creates and publishes an event; it appears in the event overview of the Store API', async () => {
    const page = await consolePage(browser, SUPERADMIN);
    await page.click('nav.menu a:has-text("Events")');
    await page.fill('#name', 'Vendure seminar');
    await page.fill('#productNumber', 'DESK-001');
    await page.fill('#startsAt', inDays(30));
    await page.fill('#endsAt', inDays(30, 16));
    await page.click('[data-test=create-event]');
    expect(await page.textContent('[data-test=event-status]')).to.equal('draft');
    const shopper = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const overview = async () =>
      ((await client.rest('POST', '/store-api/events', shopper, {})).body.elements as Array<{ name: string }>).map(
        (event) => event.name,
      );
    expect(await overview()).to.not.include('Vendure seminar');
    await page.selectOption('#event-status-select', 'published');
    await page.click('[data-test=set-event-status]');
    expect(await page.textContent('[data-test=notice]')).to.contain('The event is published');
    await page.screenshot({ path: join(SCREENSHOTS, 'event-published.png'), fullPage: true });
    await page.context().close();
    expect(await overview()).to.include('Vendure seminar');
  });
});
