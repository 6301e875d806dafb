import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import supertest from 'supertest';
import type { ShopApp } from '../../src/host/app.js';
import { DEMO_CUSTOMER } from '../../src/host/seed/demo.js';
import { DEMO_APPROVER, DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { DEMO_REPRESENTATIVE } from '../../src/plugin/sales-representative/demo.js';
import { startBrowser, type BrowserHarness } from '../helpers/browser.js';
import { csrfOf } from '../helpers/storefront.js';
import { startDemoShop, type DemoShop } from '../helpers/demo-shop.js';

const LOGINS = [
  { name: 'buyer (company admin)', ...DEMO_CUSTOMER, ip: '10.78.0.1' },
  { name: 'purchaser', ...DEMO_PURCHASER, ip: '10.78.0.2' },
  { name: 'approver', ...DEMO_APPROVER, ip: '10.78.0.3' },
  { name: 'sales representative', ...DEMO_REPRESENTATIVE, ip: '10.78.0.4' },
];
/** A guard against a crawl that never ends (paging or sorting links multiplying); the demo shop has far fewer pages. */
const MAX_PAGES = 800;

const unescape = (value: string) =>
  value
    .replace(/&#x3D;/g, '=')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'");

/** Every local link and GET form target of a page (POST forms change things: the crawler does not send them). */
export function targetsOf(html: string): string[] {
  const targets = [...html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((match) => match[1]!);
  for (const form of html.matchAll(/<form\s([^>]*)>/g)) {
    const attributes = form[1]!;
    const method = /method="([^"]*)"/.exec(attributes)?.[1]?.toLowerCase() ?? 'get';
    const action = /action="([^"]*)"/.exec(attributes)?.[1];
    if (method === 'get' && action) targets.push(action);
  }
  return targets.map(unescape).filter((target) => target.startsWith('/') && !target.startsWith('//'));
}

/** One axe run per kind of page: ids and the query string do not make another template. */
const patternOf = (path: string) =>
  path
    .replace(/\?.*$/, '')
    .replace(/[0-9a-f]{32}/g, ':id')
    .replace(/\/(invoice|offer)-[^/]+\.pdf$/, '/:file');

/**
 * Every demo login of the start banner, crawled from the home page and the account page: each link
 * and GET form target on every storefront page it reaches answers below 400, except the deliberate
 * 403s (a page the login's role does not allow, linked from a page everybody sees). The account
 * menu's own entries all answer 200. Then headless Chromium opens one page of each kind the crawl
 * found and axe-core checks it: no serious or critical violations.
 */
describe('e2e: crawling the demo storefront as every demo login', function () {
  this.timeout(300000);
  let demo: DemoShop | undefined;
  let shop: ShopApp;
  const visitedByLogin = new Map<string, Map<string, { status: number; html: boolean }>>();

  before(async function () {
    this.timeout(180000);
    demo = await startDemoShop('crawl', { publicUrl: 'http://shop.test' });
    shop = demo.shop;
    for (const login of LOGINS) expect(demo.banner, 'the start banner names the login').to.contain(login.email);
  });

  after(async () => {
    await demo?.close();
  });

  async function loggedInAgent(login: (typeof LOGINS)[number]) {
    const agent = supertest.agent(shop.app);
    agent.set('x-forwarded-for', login.ip);
    const form = await agent.get('/account/login');
    const res = await agent
      .post('/account/login')
      .type('form')
      .send({ _csrf: csrfOf(form.text), email: login.email, password: login.password, redirect: '/account' });
    expect(res.status, `${login.name} logs in`).to.equal(303);
    return agent;
  }

  for (const login of LOGINS) {
    it(`${login.name}: no dead end`, async () => {
      const agent = await loggedInAgent(login);
      const visited = new Map<string, { status: number; html: boolean }>();
      const referrers = new Map<string, string>();
      const queue = ['/', '/account'];
      while (queue.length && visited.size < MAX_PAGES) {
        const path = queue.shift()!;
        if (visited.has(path)) continue;
        const res = await agent.get(path).redirects(0);
        const html = String(res.headers['content-type'] ?? '').startsWith('text/html');
        visited.set(path, { status: res.status, html });
        const next =
          res.status >= 300 && res.status < 400 ? [String(res.headers.location)] : html ? targetsOf(res.text) : [];
        for (const target of next)
          if (!visited.has(target) && target.startsWith('/')) {
            if (!referrers.has(target)) referrers.set(target, path);
            queue.push(target);
          }
      }
      expect(visited.size, 'the crawl ended before its guard').to.be.below(MAX_PAGES);
      const failures = [...visited]
        .filter(([, { status }]) => status >= 400 && status !== 403)
        .map(([path, { status }]) => `${status} ${path} (linked from ${referrers.get(path)})`);
      expect(failures, 'answers ≥ 400 other than 403').to.deep.equal([]);

      const menu = /<nav data-test="account-menu"[\s\S]*?<\/nav>/.exec((await agent.get('/account')).text)?.[0] ?? '';
      const entries = targetsOf(menu);
      expect(entries.length, 'the account menu has entries').to.be.greaterThan(0);
      for (const entry of entries) expect(visited.get(entry)?.status, `menu entry ${entry}`).to.equal(200);
      visitedByLogin.set(login.name, visited);
    });
  }

  describe('accessibility (axe-core in Chromium)', () => {
    let harness: BrowserHarness;
    const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

    before(async function () {
      harness = await startBrowser(this, shop);
    });
    after(async () => {
      await harness?.close();
    });

    for (const login of LOGINS) {
      it(`${login.name}: no serious or critical violation on any kind of page`, async function () {
        const visited = visitedByLogin.get(login.name);
        if (!visited) this.skip();
        const pages = new Map<string, string>();
        for (const [path, { status, html }] of visited!)
          if (html && status < 400 && !pages.has(patternOf(path))) pages.set(patternOf(path), path);
        // The storefront's CSP allows no scripts; axe is the test's instrument, not the page's.
        const context = await harness.browser.newContext({
          bypassCSP: true,
          extraHTTPHeaders: { 'x-forwarded-for': login.ip },
        });
        const page = await context.newPage();
        await page.goto(`${harness.base}/account/login`);
        await page.fill('#email', login.email);
        await page.fill('#password', login.password);
        await Promise.all([page.waitForURL(`${harness.base}/account`), page.click('[data-test=login-submit]')]);
        const problems: string[] = [];
        for (const path of pages.values()) {
          await page.goto(`${harness.base}${path}`);
          await page.evaluate(axeSource);
          // A string, so the test compiles without the DOM's types: it runs in the page.
          const violations = await page.evaluate<string[]>(`axe
            .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
            .then((result) => result.violations
              .filter((v) => v.impact === 'serious' || v.impact === 'critical')
              .map((v) => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', ')))`);
          problems.push(...violations.map((violation) => `${path}: ${violation}`));
        }
        await context.close();
        expect(problems, `${pages.size} kinds of page checked`).to.deep.equal([]);
      });
    }
  });
});
