import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { createTestCustomer } from '../helpers/shop.js';
import { startBrowser, type BrowserHarness } from '../helpers/browser.js';

describe('host: storefront in a real browser', function () {
  this.timeout(60000);
  let harness: BrowserHarness;
  let browser: Browser;
  let base: string;

  before(async function () {
    harness = await startBrowser(this);
    ({ browser, base } = harness);
  });

  after(async () => {
    await harness?.close();
  });

  it('logs in with the form, keeps the session in an httpOnly cookie scripts cannot read, and logs out', async () => {
    const user = await createTestCustomer({ company: 'Browser Testing Ltd' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/account`);
    expect(new URL(page.url()).pathname, 'a guest is sent to the login form').to.equal('/account/login');

    await page.fill('#email', user.email);
    await page.fill('#password', 'wrong-password');
    await page.click('[data-test=login-submit]');
    expect(await page.textContent('[data-test=login-error]')).to.contain('The e-mail address or password is wrong.');

    await page.fill('#password', user.password);
    await Promise.all([page.waitForURL(`${base}/account`), page.click('[data-test=login-submit]')]);
    expect(await page.textContent('[data-test=account-name]')).to.equal('Test Customer');
    expect(await page.textContent('[data-test=account-company]')).to.equal('Browser Testing Ltd');

    const session = (await context.cookies()).find((c) => c.name === 'suite-session');
    expect(session).to.include({ httpOnly: true, sameSite: 'Lax' });
    expect(
      await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie),
    ).not.to.contain('suite-session');

    await Promise.all([page.waitForURL(`${base}/`), page.click('[data-test=logout]')]);
    expect(await page.isVisible('[data-test=login-link]')).to.equal(true);
    expect((await context.cookies()).find((c) => c.name === 'suite-session')).to.equal(undefined);
    await page.goto(`${base}/account`);
    expect(new URL(page.url()).pathname).to.equal('/account/login');
    await context.close();
  });
});
