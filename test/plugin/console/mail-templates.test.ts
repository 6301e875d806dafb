import { expect } from 'chai';
import { mkdirSync, readFileSync } from 'node:fs';
import { projectPath } from '../../../src/host-kit/paths.js';
import { sampleDataFor } from '../../../src/lib/template-sample-data.js';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { getShop } from '../../helpers/shop.js';
import { axeFindings, consolePage, SCREENSHOTS } from './browser-helpers.js';
import { CONSOLE, loginOperator } from './helpers.js';

const unescape = (value: string) =>
  value
    .replace(/&#x3D;/g, '=')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

describe('console: mail templates', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('reads sample data off a template’s variables: lists get one item, conditions hold, dates and amounts look like them', () => {
    const data = sampleDataFor([
      '{{#each lines}}{{label}} {{formatMoney totalNet ../currency}}{{/each}}{{#if note}}{{note}}{{/if}} {{formatDate order.createdAt}} {{customer.firstName}}',
    ]);
    expect(data).to.deep.equal({
      lines: [{ label: '[label]', totalNet: 123.45 }],
      currency: 'EUR',
      note: '[note]',
      order: { createdAt: '2026-12-01T09:30:00.000Z' },
      customer: { firstName: '[firstName]' },
    });
  });

  it('gives a list read as plain values (`{{#each reasons}}{{this}}`) text items, not objects', () => {
    expect(
      sampleDataFor(['{{#each blockReasons}}<li>{{this}}</li>{{/each}}{{#each tags}}{{.}}{{/each}}']),
    ).to.deep.equal({
      blockReasons: ['[blockReasons]'],
      tags: ['[tags]'],
    });
  });

  it('previews every template without [object Object] in its HTML or text, order-approval-changes included', async () => {
    const operator = await loginOperator();
    const list = await operator.agent.get(`${CONSOLE}/mail-templates`);
    const names = [...list.text.matchAll(/href="\/b2b-admin\/mail-templates\/([^"]+)"/g)].map((match) => match[1]!);
    expect(names).to.include('order-approval-changes');
    for (const name of names) {
      const page = await operator.agent.get(`${CONSOLE}/mail-templates/${name}`);
      const text = unescape(/data-test="mail-text"[^>]*>([\s\S]*?)<\/pre>/.exec(page.text)![1]!);
      const html = unescape(/srcdoc="([^"]*)"/.exec(page.text)![1]!);
      expect(text, `${name} text`).not.to.contain('[object Object]');
      expect(html, `${name} html`).not.to.contain('[object Object]');
    }
  });

  it('lists every template the shop sends and renders each with sample data as HTML and text; an unknown one is a 404', async () => {
    const operator = await loginOperator();
    const list = await operator.agent.get(`${CONSOLE}/mail-templates`);
    expect(list.status).to.equal(200);
    const names = [...list.text.matchAll(/href="\/b2b-admin\/mail-templates\/([^"]+)"/g)].map((match) => match[1]!);
    // The plugin's templates (plugin.json) are all listed; other suites register short test templates in the shared app.
    const shipped = (JSON.parse(readFileSync(projectPath('plugin.json'), 'utf8')) as { mailTemplates: string[] })
      .mailTemplates;
    expect(names).to.include.members(['employee-invitation', 'event-circular', 'account-request-accepted', ...shipped]);
    for (const name of shipped) {
      const page = await operator.agent.get(`${CONSOLE}/mail-templates/${name}`);
      expect(page.status, name).to.equal(200);
      const subject = /data-test="mail-subject">([^<]*)</.exec(page.text)![1]!;
      const text = /data-test="mail-text"[^>]*>([\s\S]*?)<\/pre>/.exec(page.text)![1]!;
      expect(subject.trim(), `${name} subject`).to.not.equal('');
      expect(text.trim().length, `${name} text`).to.be.greaterThan(20);
      expect(page.text, `${name} html`).to.match(/<iframe [^>]*sandbox="" srcdoc="[^"]{20,}"/);
    }
    const invitation = await operator.agent.get(`${CONSOLE}/mail-templates/employee-invitation`);
    const text = unescape(/data-test="mail-text"[^>]*>([\s\S]*?)<\/pre>/.exec(invitation.text)![1]!);
    expect(text).to.contain('https://shop.example/sample');
    expect(text).to.contain('[companyName]');
    const html = unescape(/srcdoc="([^"]*)"/.exec(invitation.text)![1]!);
    expect(html).to.contain('href="https://shop.example/sample"');
    expect((await operator.agent.get(`${CONSOLE}/mail-templates/no-such-template`)).status).to.equal(404);
    expect((await operator.agent.get(`${CONSOLE}/mail-templates/Bad%20Name`)).status).to.equal(404);
  });
});

describe('console in Chromium: mail templates', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  it('an operator opens a mail template and sees its HTML and text; axe finds nothing serious', async () => {
    const page = await consolePage(harness.browser);
    const problems: string[] = [];
    await page.click('nav.menu a:has-text("Mail templates")');
    problems.push(...(await axeFindings(page)));
    await page.click('a:has-text("event-circular")');
    expect(await page.textContent('h1')).to.equal('event-circular');
    const frame = page.frameLocator('[data-test=mail-html]');
    expect(await frame.locator('body').textContent()).to.contain('[message]');
    expect(await page.textContent('[data-test=mail-text]')).to.contain('[message]');
    problems.push(...(await axeFindings(page)));
    await page.screenshot({ path: `${SCREENSHOTS}/mail-template.png`, fullPage: true });
    await page.context().close();
    expect(problems).to.deep.equal([]);
  });
});
