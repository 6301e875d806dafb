import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { deliverMail, testMailbox } from '../../helpers/shop.js';
import { approval, company, product, requestApproval, setSettings, startShop } from './helpers.js';

describe('order approval: approving a mailed request in a real browser', function () {
  this.timeout(90000);
  let harness: BrowserHarness;
  let browser: Browser;

  before(startShop);
  before(async function () {
    harness = await startBrowser(this);
    ({ browser } = harness);
  });

  after(async () => {
    await harness?.close();
  });

  it('the approver follows the link in the mail, logs in, reviews the request and approves it; the requester is told', async () => {
    const { customer, requester, approverA } = await company();
    await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id], nValue: 1 });
    const p = await product({ priceNet: 4200 });
    const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 2 }], 'Monitors for the new team');
    const { approvalNumber } = await approval(requester.token, id);

    await deliverMail();
    const mailbox = await testMailbox();
    const mail = await mailbox.waitFor(
      (m) => m.envelopeTo.includes(approverA.email.toLowerCase()) && String(m.subject).includes(approvalNumber),
    );
    const url = /(https?:\/\/\S+\/account\/order-approval\/[0-9a-f]{32})/.exec(mail.text ?? '')?.[1];
    expect(url).to.equal(`http://shop.test/account/order-approval/${id}`);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url!);
    expect(new URL(page.url()).pathname, 'not logged in yet: the login form first').to.equal('/account/login');
    await page.fill('#email', approverA.email);
    await page.fill('#password', approverA.password);
    await Promise.all([page.waitForURL(url!), page.click('[data-test=login-submit]')]);

    expect(await page.textContent('[data-test=approval-title]')).to.equal(`Order approval ${approvalNumber}`);
    expect(await page.textContent('[data-test=approval-status]')).to.equal('pending');
    expect(await page.locator('[data-test=approval-line]').count()).to.equal(1);
    expect(await page.textContent('[data-test=approval-net-total]')).to.equal('€84.00');
    expect(await page.isVisible('text=Monitors for the new team')).to.equal(true);

    await page.fill('#approve-comment', 'Go ahead');
    await Promise.all([page.waitForURL(`${url}?done=approved`), page.click('[data-test=approve-submit]')]);
    expect(await page.textContent('[data-test=approval-notice]')).to.equal('You approved the order request.');
    expect(await page.textContent('[data-test=approval-status]')).to.equal('approved');
    expect(await page.isVisible('[data-test=approve-form]')).to.equal(false);
    expect(await page.getAttribute('[data-test=activity][data-action=approved]', 'data-action')).to.equal('approved');

    expect(await approval(requester.token, id)).to.include({ status: 'approved', isApproved: true });
    await deliverMail();
    const told = await mailbox.waitFor(
      (m) =>
        m.envelopeTo.includes(requester.email.toLowerCase()) &&
        String(m.subject).includes(`${approvalNumber} was approved`),
    );
    expect(told.text).to.contain('Go ahead');
    await context.close();
  });
});
