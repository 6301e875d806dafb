import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { newId } from '../../../src/lib/ids.js';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import {
  companyWithColleagues,
  createSpecification,
  inDays,
  insertProduct,
  participantsOf,
  salesStaff,
} from './helpers.js';

describe('event manager: storefront in a real browser', function () {
  this.timeout(120000);
  let harness: BrowserHarness;
  let browser: Browser;
  let base: string;

  before(async function () {
    this.timeout(180000);
    harness = await startBrowser(this);
    ({ browser, base } = harness);
  });

  after(async () => {
    await harness?.close();
  });

  async function logIn(page: Page, email: string, password: string, then: string): Promise<void> {
    await page.goto(`${base}${then}`);
    expect(new URL(page.url()).pathname).to.equal('/account/login');
    await page.fill('#email', email);
    await page.fill('#password', password);
    await Promise.all([page.waitForURL(`${base}${then}`), page.click('[data-test=login-submit]')]);
  }

  it('a sales rep creates and publishes an event; a customer filters, registers two colleagues and checks out; the rep sees them', async () => {
    const staff = await salesStaff();
    const tag = newId().slice(0, 6);
    const format = await createSpecification(staff.token, 'format', `Masterclass ${tag}`);
    const product = await insertProduct({ name: `Masterclass ticket ${tag}`, stock: 100, priceNet: 12000 });
    const eventName = `Masterclass ${tag} in the browser`;

    const repContext = await browser.newContext();
    const rep = await repContext.newPage();
    await logIn(rep, staff.email, staff.password, '/account');
    await Promise.all([
      rep.waitForURL(`${base}/account/event-manager`),
      rep.click('[data-test=account-event-manager]'),
    ]);
    await Promise.all([
      rep.waitForURL(`${base}/account/event-manager/create`),
      rep.click('[data-test=create-event-link]'),
    ]);
    await rep.fill('#event-name', eventName);
    await rep.fill('#event-product', product.number);
    await rep.selectOption('#event-language', 'en');
    await rep.selectOption('#event-format', format.id);
    await rep.fill('#event-starts', inDays(30).slice(0, 16));
    await rep.fill('#event-ends', inDays(31).slice(0, 16));
    await rep.fill('#event-limit', '5');
    await rep.check('[data-test=event-waiting-list]');
    await rep.click('[data-test=event-form-submit]');
    await rep.waitForURL(/\/account\/event-manager\?created=[0-9a-f]{32}$/);
    expect(await rep.textContent('[data-test=event-created]')).to.contain(eventName);
    const eventId = new URL(rep.url()).searchParams.get('created')!;
    const row = rep.locator(`[data-test=managed-event][data-id="${eventId}"]`);
    await row.locator('[data-test=event-status]').selectOption('published');
    await Promise.all([rep.waitForURL(/notice=/), row.locator('[data-test=event-status-submit]').click()]);
    expect(await rep.textContent('[data-test=event-notice]')).to.contain(`${eventName}: published`);

    const { customer, employees } = await companyWithColleagues(3);
    const customerContext = await browser.newContext();
    const page = await customerContext.newPage();
    await logIn(page, customer.email, customer.password, '/account');
    expect(
      await page.isVisible('[data-test=account-event-manager]'),
      'customers see no event management link',
    ).to.equal(false);
    await Promise.all([page.waitForURL(`${base}/account/events`), page.click('[data-test=account-events]')]);
    await page.selectOption('#filter-format', format.id);
    await page.fill('#filter-term', tag);
    await Promise.all([page.waitForURL(/format=/), page.click('[data-test=event-filter-submit]')]);
    expect(await page.locator('[data-test=event]').count()).to.equal(1);
    expect(await page.textContent('[data-test=event-name]')).to.equal(eventName);
    expect(await page.getAttribute('[data-test=all-events]', 'href')).to.equal('/account/events');

    await Promise.all([page.waitForURL(`${base}/account/events/${eventId}`), page.click('[data-test=event-name]')]);
    expect(await page.textContent('[data-test=event-seats]')).to.contain('5 of 5 free');
    await page.check(`[data-test=register-colleague][value="${employees[0]!.id}"]`);
    await page.check(`[data-test=register-colleague][value="${employees[2]!.id}"]`);
    await Promise.all([page.waitForURL(`${base}/account/events/checkout`), page.click('[data-test=register-submit]')]);
    expect(await page.locator('[data-test=checkout-line]').count()).to.equal(2);
    expect(await page.textContent('[data-test=checkout-lines]'))
      .to.contain(employees[0]!.email)
      .and.to.contain(employees[2]!.email);
    await Promise.all([
      page.waitForURL(/\/account\/events\/participants\?ordered=/),
      page.click('[data-test=place-order]'),
    ]);
    expect(await page.textContent('[data-test=ordered]')).to.contain('is placed');
    const statuses = await page.locator('[data-test=participant-status]').allTextContents();
    expect(statuses).to.deep.equal(['registered', 'registered']);

    await rep.goto(`${base}/account/event-manager`);
    await Promise.all([
      rep.waitForURL(`${base}/account/event-manager/${eventId}/participants`),
      rep.locator(`[data-test=managed-event][data-id="${eventId}"] [data-test=participants-link]`).click(),
    ]);
    const listed = await rep
      .locator('[data-test=managed-participant]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-email')));
    expect(listed.sort()).to.deep.equal([employees[0]!.email, employees[2]!.email].sort());
    const first = rep.locator(`[data-test=managed-participant][data-email="${employees[0]!.email}"]`);
    await first.locator('[data-test=participant-status]').selectOption('participated');
    await Promise.all([
      rep.waitForResponse((res) => res.request().method() === 'POST' && res.url().endsWith('/status')),
      first.locator('[data-test=participant-status-submit]').click(),
    ]);
    await rep.waitForLoadState();
    expect(new URL(rep.url()).pathname).to.equal(`/account/event-manager/${eventId}/participants`);
    const saved = (await participantsOf(eventId)).find((p) => p.email === employees[0]!.email);
    expect(saved?.status).to.equal('participated');
    await repContext.close();
    await customerContext.close();
  });
});
