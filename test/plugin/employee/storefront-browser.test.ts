import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { deliverMail, testMailbox } from '../../helpers/shop.js';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { as, createRole, linkSecret, newCustomer, uniqueEmail } from './helpers.js';

describe('employees: accepting a mailed invitation in a real browser', function () {
  this.timeout(60000);
  let harness: BrowserHarness;
  let browser: Browser;

  before(async function () {
    harness = await startBrowser(this);
    ({ browser } = harness);
  });

  after(async () => {
    await harness?.close();
  });

  it('opens the link from the mail, chooses a password and lands logged in on the account page', async () => {
    const owner = await newCustomer();
    const role = await createRole(owner.token, ['orders.read']);
    const email = uniqueEmail('browser-invitee');
    const created = await (
      await as(owner.token)
    ).post('/create-invitation', { email, firstName: 'Bea', lastName: 'Browser', roleId: role.id });
    expect(created.status).to.equal(200);
    await deliverMail();
    const mail = await (await testMailbox()).waitFor((m) => m.envelopeTo.includes(email));
    const { url } = linkSecret(mail, '/account/employee-invitation');
    expect(url.startsWith('http://shop.test/account/employee-invitation/')).to.equal(true);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    expect(await page.textContent('h1')).to.equal(`Join ${owner.customer.company}`);
    expect(await page.textContent('[data-test=invitation-email]')).to.equal(email);
    expect(await page.inputValue('#first-name')).to.equal('Bea');

    await page.fill('#last-name', 'Bowser');
    await page.fill('#password', 'browser-password');
    await page.fill('#password-repeat', 'browser-passwort');
    await page.click('[data-test=invitation-submit]');
    expect(await page.textContent('[data-test=invitation-error]')).to.contain('The two passwords differ.');

    await page.fill('#password', 'browser-password');
    await page.fill('#password-repeat', 'browser-password');
    await Promise.all([page.waitForURL('http://shop.test/account'), page.click('[data-test=invitation-submit]')]);
    expect(await page.textContent('[data-test=account-name]')).to.equal('Bea Bowser');
    expect(await page.textContent('[data-test=account-company]')).to.equal(owner.customer.company);
    expect(await page.isVisible('[data-test=logout]')).to.equal(true);
    const session = (await context.cookies()).find((c) => c.name === 'suite-session');
    expect(session).to.include({ httpOnly: true, sameSite: 'Lax', domain: 'shop.test' });

    await page.goto(url);
    expect(await page.getAttribute('[data-test=link-invalid]', 'data-problem'), 'the link works once').to.equal('used');
    await context.close();
  });
});
