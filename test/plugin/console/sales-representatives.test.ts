import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { newId } from '../../../src/lib/ids.js';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { createTestCustomer, getShop, http } from '../../helpers/shop.js';
import { uniqueEmail } from '../employee/helpers.js';
import { axeFindings, consolePage, SCREENSHOTS } from './browser-helpers.js';
import { CONSOLE, loginOperator } from './helpers.js';

const representativeLogin = async (email: string, password: string) =>
  (await http()).post('/store-api/account/login').send({ email, password });

describe('console: sales representatives and activity types', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('creates a representative (a refused e-mail is shown next to its field, input kept), assigns customers by number, takes one away and switches the login off', async () => {
    const operator = await loginOperator();
    const email = uniqueEmail('rep');
    const password = `pw-${newId().slice(0, 12)}`;
    const bad = await operator.post('/sales-representatives/create', {
      email: 'not-an-email',
      firstName: 'Rita',
      lastName: 'Rep',
      password,
    });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('data-test="field-error-email"');
    expect(bad.text).to.contain('value="Rita"');

    const created = await operator.post('/sales-representatives/create', {
      email,
      firstName: 'Rita',
      lastName: 'Rep',
      phone: '+49 30 1234',
      password,
    });
    expect(created.status).to.equal(303);
    const detailPath = created.headers.location as string;
    expect(detailPath).to.match(new RegExp(`^${CONSOLE}/sales-representatives/[0-9a-f]{32}$`));
    const a = await createTestCustomer({ company: 'Rep Customer A' });
    const b = await createTestCustomer({ company: 'Rep Customer B' });
    const unknown = await operator.post(`${detailPath.slice(CONSOLE.length)}/customers`, {
      customerNumbers: `${a.customer.customerNumber}, NOBODY-1`,
    });
    expect(unknown.status).to.equal(400);
    expect(unknown.text).to.contain('There is no customer with the number &quot;NOBODY-1&quot;.');
    expect(unknown.text).to.contain(`value="${a.customer.customerNumber}, NOBODY-1"`);

    expect(
      (
        await operator.post(`${detailPath.slice(CONSOLE.length)}/customers`, {
          customerNumbers: `${a.customer.customerNumber} ${b.customer.customerNumber}`,
        })
      ).status,
    ).to.equal(303);
    // A representative logs in once they look after a customer.
    expect((await representativeLogin(email, password)).status).to.equal(200);
    let page = await operator.agent.get(detailPath);
    expect(page.text.match(/data-test="representative-customer-row"/g)).to.have.length(2);
    expect(page.text).to.contain('Rep Customer B');

    expect(
      (await operator.post(`${detailPath.slice(CONSOLE.length)}/customers/${b.customer.id}/remove`)).status,
    ).to.equal(303);
    page = await operator.agent.get(detailPath);
    expect(page.text.match(/data-test="representative-customer-row"/g)).to.have.length(1);
    expect(page.text).to.not.contain('Rep Customer B');

    const list = await operator.agent.get(`${CONSOLE}/sales-representatives?q=${encodeURIComponent(email)}`);
    expect(list.text).to.contain('Rita Rep');

    expect((await operator.post(`${detailPath.slice(CONSOLE.length)}/active`, { active: 'false' })).status).to.equal(
      303,
    );
    expect((await operator.agent.get(detailPath)).text).to.contain('data-test="representative-login">switched off');
    expect((await representativeLogin(email, password)).status).to.not.equal(200);
    expect((await operator.agent.get(`${CONSOLE}/sales-representatives/${'0'.repeat(32)}`)).status).to.equal(404);
  });

  it('adds an activity type (a bad technical name is named next to its field) and switches it off', async () => {
    const operator = await loginOperator();
    const name = `Trade fair ${newId().slice(0, 6)}`;
    const technicalName = `fair-${newId().slice(0, 8)}`;
    const bad = await operator.post('/activity-types/create', { name, technicalName: 'Not Valid!', position: '5' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('data-test="field-error-technicalName"');
    expect(bad.text).to.contain(`value="${name}"`);
    expect((await operator.post('/activity-types/create', { name, technicalName, position: '5' })).status).to.equal(
      303,
    );
    const again = await operator.post('/activity-types/create', { name, technicalName, position: '5' });
    expect(again.status).to.equal(400);
    expect(again.text).to.contain('Another activity type has this technical name.');

    const listed = await operator.agent.get(`${CONSOLE}/activity-types`);
    const row = listed.text.split('data-test="activity-type-row"').find((part) => part.includes(technicalName))!;
    expect(row).to.contain('active');
    const action = /action="([^"]+\/active)"/.exec(row)![1]!;
    expect((await operator.post(action.slice(CONSOLE.length), { active: 'false' })).status).to.equal(303);
    const after = (await operator.agent.get(`${CONSOLE}/activity-types`)).text
      .split('data-test="activity-type-row"')
      .find((part) => part.includes(technicalName))!;
    expect(after).to.contain('switched off');
  });
});

describe('console in Chromium: sales representatives', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  it('an operator creates a representative and assigns a customer; the activity types page lists the types; axe finds nothing serious', async () => {
    const { customer } = await createTestCustomer({ company: 'Chromium Rep Customer GmbH' });
    const page = await consolePage(harness.browser);
    const problems: string[] = [];
    await page.click('nav.menu a:has-text("Sales representatives")');
    problems.push(...(await axeFindings(page)));
    await page.fill('#email', uniqueEmail('rep'));
    await page.fill('#firstName', 'Bruno');
    await page.fill('#lastName', 'Browser');
    await page.fill('#password', `pw-${newId().slice(0, 12)}`);
    await page.click('[data-test=create-representative]');
    expect(await page.textContent('h1')).to.equal('Bruno Browser');
    expect(await page.textContent('[data-test=no-customers]')).to.contain('No customers assigned yet');
    await page.fill('#customerNumbers', customer.customerNumber);
    await page.click('[data-test=assign]');
    expect(await page.textContent('[data-test=notice]')).to.contain(`Assigned: ${customer.customerNumber}.`);
    expect(await page.textContent('[data-test=representative-customer-row]')).to.contain('Chromium Rep Customer GmbH');
    problems.push(...(await axeFindings(page)));
    await page.screenshot({ path: `${SCREENSHOTS}/sales-representative.png`, fullPage: true });
    await page.click('nav.menu a:has-text("Activity types")');
    problems.push(...(await axeFindings(page)));
    await page.screenshot({ path: `${SCREENSHOTS}/activity-types.png`, fullPage: true });
    await page.context().close();
    expect(problems).to.deep.equal([]);
  });
});
