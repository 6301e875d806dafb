import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { createTestCustomer, getShop } from '../helpers/shop.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('host: storefront in a real browser', function () {
  this.timeout(60000);
  let server: Server;
  let browser: Browser;
  let base: string;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.warn(`      skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
      this.skip();
    }
    const shop = await getShop();
    server = createServer(shop.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  after(async () => {
    await browser?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
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
    expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).not.to.contain('suite-session');

    await Promise.all([page.waitForURL(`${base}/`), page.click('[data-test=logout]')]);
    expect(await page.isVisible('[data-test=login-link]')).to.equal(true);
    expect((await context.cookies()).find((c) => c.name === 'suite-session')).to.equal(undefined);
    await page.goto(`${base}/account`);
    expect(new URL(page.url()).pathname).to.equal('/account/login');
    await context.close();
  });
});
