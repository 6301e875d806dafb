import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { getShop } from '../../helpers/shop.js';
import { storefrontVisitor } from '../../helpers/storefront.js';
import { accountRequestByEmail, loginOperator } from '../console/helpers.js';
import { createEmployee, linkSecret, newCustomer, outboxRows, receiveMail, uniqueEmail } from './helpers.js';

const SCREENSHOTS = 'var/screenshots/storefront';

const fieldError = (html: string, id: string) =>
  new RegExp(`data-test="field-error-${id}">([^<]*)<`).exec(html)?.[1]?.replace(/&#x27;/g, "'") ?? null;

const REQUEST = {
  company: 'Onboarding Tools GmbH',
  vatId: 'DE123456789',
  firstName: 'Olga',
  lastName: 'Onboard',
  phone: '+49 30 555',
  street: 'Hauptstraße 1',
  zipcode: '10115',
  city: 'Berlin',
  countryCode: 'de',
  message: 'We buy tools every month.',
};

// Decision 0052: the console points companies to /account/request (it was a 404), and an accepted
// company admin, who has no password, is told to ask for a login link on the login page (it had none).
describe('storefront: ways in for a new company (account request, login link, forgotten password)', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('the login page links the account request, the login link and the forgotten password', async () => {
    const visitor = await storefrontVisitor();
    const login = await visitor.get('/account/login');
    expect(login.status).to.equal(200);
    expect(login.text)
      .to.contain('href="/account/request"')
      .and.to.contain('href="/account/login-link"')
      .and.to.contain('href="/account/password-forgotten"');
    for (const path of ['/account/request', '/account/login-link', '/account/password-forgotten'])
      expect((await visitor.get(path)).status, path).to.equal(200);
  });

  it('a company asks for a business account with the form: refusals next to their fields, the input kept; then the request waits in the console', async () => {
    const visitor = await storefrontVisitor();
    const form = await visitor.get('/account/request');
    expect(form.status).to.equal(200);
    for (const name of [
      'company',
      'vatId',
      'firstName',
      'lastName',
      'email',
      'street',
      'zipcode',
      'city',
      'countryCode',
      'consent',
    ])
      expect(form.text, name).to.contain(`name="${name}"`);
    const email = uniqueEmail('prospect');

    const noConsent = await visitor.post('/account/request', { ...REQUEST, email });
    expect(noConsent.status).to.equal(400);
    expect(fieldError(noConsent.text, 'consent')).to.contain('Please agree');
    expect(noConsent.text).to.contain('value="Onboarding Tools GmbH"');

    const badEmail = await visitor.post('/account/request', { ...REQUEST, email: 'not-an-address', consent: 'on' });
    expect(badEmail.status).to.equal(400);
    expect(fieldError(badEmail.text, 'email')).to.equal('Enter an e-mail address, such as name@example.com.');
    expect(badEmail.text).to.contain('value="DE123456789"').and.to.contain('aria-invalid="true"');

    const noCompany = await visitor.post('/account/request', { ...REQUEST, company: '', email, consent: 'on' });
    expect(noCompany.status).to.equal(400);
    expect(fieldError(noCompany.text, 'company')).to.match(/^Fill in this field/);

    expect((await visitor.forge('/account/request', { ...REQUEST, email, consent: 'on' })).status).to.equal(403);
    expect(await outboxRows(email, 'account-request-received')).to.have.length(0);

    const sent = await visitor.post('/account/request', { ...REQUEST, email, consent: 'on' });
    expect(sent.status, sent.text).to.equal(303);
    const thanks = await visitor.get(sent.headers.location as string);
    expect(thanks.status).to.equal(200);
    expect(thanks.text).to.contain('your request has arrived');

    const request = await accountRequestByEmail(email);
    expect(request.attributes).to.deep.include({ status: 'open', email });
    expect(request.attributes).to.deep.include({
      company: 'Onboarding Tools GmbH',
      vatId: 'DE123456789',
      phone: '+49 30 555',
      message: 'We buy tools every month.',
      address: { street: 'Hauptstraße 1', zipcode: '10115', city: 'Berlin', countryCode: 'DE' },
    });
    expect((await receiveMail(email, 'We received your business account request')).text).to.contain('Olga');
    const operator = await loginOperator();
    const page = await operator.agent.get(`/b2b-admin/account-requests/${request.id}`);
    expect(page.text).to.contain('Onboarding Tools GmbH').and.to.contain('DE123456789');
  });

  it('a login link is sent on request to a known login, and the answer is the same for an unknown address', async () => {
    const customer = await newCustomer();
    const visitor = await storefrontVisitor();
    await visitor.get('/account/login-link');
    const bad = await visitor.post('/account/login-link', { email: 'nope' });
    expect(bad.status).to.equal(400);
    expect(fieldError(bad.text, 'email')).to.equal('Enter an e-mail address, such as name@example.com.');
    const known = await visitor.post('/account/login-link', { email: customer.email });
    expect(known.status).to.equal(303);
    const unknown = await visitor.post('/account/login-link', { email: uniqueEmail('nobody') });
    expect(unknown.status).to.equal(303);
    expect(unknown.headers.location).to.equal(known.headers.location);
    const { url } = linkSecret(await receiveMail(customer.email, 'login link'), '/account/passwordless-login');
    const path = new URL(url).pathname;
    const confirm = await visitor.get(path);
    expect(confirm.status).to.equal(200);
    const loggedIn = await visitor.post(path);
    expect(loggedIn.status).to.equal(303);
    expect(loggedIn.headers.location).to.equal('/account');
    expect((await visitor.get('/account')).status).to.equal(200);
  });

  it('forgot password mails an employee a reset link; the answer is the same for an unknown address', async () => {
    const customer = await newCustomer();
    const employee = await createEmployee(customer.token, { permissions: [] });
    const visitor = await storefrontVisitor();
    const form = await visitor.get('/account/password-forgotten');
    expect(form.text).to.contain('href="/account/login-link"');
    const sent = await visitor.post('/account/password-forgotten', { email: employee.email });
    expect(sent.status, sent.text).to.equal(303);
    const unknown = await visitor.post('/account/password-forgotten', { email: uniqueEmail('nobody') });
    expect(unknown.headers.location).to.equal(sent.headers.location);
    expect((await visitor.get(sent.headers.location as string)).text).to.contain('a link to choose a new password');
    const { url } = linkSecret(await receiveMail(employee.email, 'Reset your password'), '/account/employee-recovery');
    expect((await visitor.get(new URL(url).pathname)).status).to.equal(200);
  });
});

describe('storefront in Chromium: a new company from the request to the first login', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  it('asks for an account from the login page, is accepted in the console, and logs in with a link asked for on the login page', async () => {
    const email = uniqueEmail('journey');
    const page = await (await harness.browser.newContext()).newPage();
    await page.goto('http://shop.test/account/login');
    await page.click('[data-test=login-help-request]');
    expect(await page.textContent('h1')).to.equal('Ask for a business account');
    await page.fill('#company', 'Journey Request KG');
    await page.fill('#vatId', 'ATU12345678');
    await page.fill('#firstName', 'Jana');
    await page.fill('#lastName', 'Journey');
    await page.fill('#email', email);
    await page.fill('#street', 'Ring 5');
    await page.fill('#zipcode', '1010');
    await page.fill('#city', 'Wien');
    await page.fill('#countryCode', 'AT');
    await page.click('[data-test=account-request-submit]');
    expect(await page.textContent('[data-test=field-error-consent]')).to.contain('Please agree');
    expect(await page.inputValue('#company')).to.equal('Journey Request KG');
    await page.check('#consent');
    await page.screenshot({ path: `${SCREENSHOTS}/account-request.png`, fullPage: true });
    await page.click('[data-test=account-request-submit]');
    expect(await page.textContent('[data-test=message]')).to.contain('your request has arrived');

    const request = await accountRequestByEmail(email);
    const operator = await loginOperator();
    expect(
      (await operator.post(`/account-requests/${request.id}/accept`, { groupId: '', comment: '' })).status,
    ).to.equal(303);
    expect((await receiveMail(email, 'is ready')).text).to.contain('login link');

    await page.goto('http://shop.test/account/login');
    await page.click('[data-test=login-help-link]');
    await page.fill('#email', email);
    await page.click('[data-test=login-link-submit]');
    expect(await page.textContent('[data-test=message]')).to.contain('a login link is on its way');
    const { url } = linkSecret(await receiveMail(email, 'login link'), '/account/passwordless-login');
    await page.goto(url);
    await Promise.all([page.waitForURL('http://shop.test/account'), page.click('[data-test=passwordless-submit]')]);
    expect(await page.textContent('[data-test=account-company]')).to.equal('Journey Request KG');
    await page.context().close();
  });
});
