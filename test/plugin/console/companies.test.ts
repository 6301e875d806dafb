import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { adminToken, createTestCustomer, getShop, http, login, testMailbox } from '../../helpers/shop.js';
import { createBudget } from '../order-approval/helpers.js';
import { as, createEmployee, createRole, linkSecret, receiveMail, uniqueEmail } from '../employee/helpers.js';
import { axeFindings, consolePage, SCREENSHOTS } from './browser-helpers.js';
import { CONSOLE, loginOperator } from './helpers.js';

/** A company with a role, an employee holding it, a budget for them and an invitation not accepted yet. */
async function companyWithPeople(company: string) {
  const created = await createTestCustomer({ company });
  const token = await login(created.email, created.password);
  const customer = created.customer;
  const role = await createRole(token, ['orders.create', 'orders.read'], { requiresApproval: true });
  const employee = await createEmployee(token, { roleId: role.id });
  await createBudget(token, { name: 'Office supplies', amount: 500, employeeIds: [employee.id] });
  const invitedEmail = uniqueEmail('invited');
  const invited = await (
    await as(token)
  ).post('/create-invitation', {
    email: invitedEmail,
    firstName: 'Ina',
    lastName: 'Invited',
    storefrontUrl: 'http://shop.test',
  });
  expect(invited.status, JSON.stringify(invited.body)).to.equal(200);
  return { customer, role, employee, invitedEmail };
}

describe('console: companies', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('finds a company and shows its employees, roles, invitations, budgets and approval settings', async () => {
    const { customer, role, employee, invitedEmail } = await companyWithPeople('Panorama Werkzeuge GmbH');
    const operator = await loginOperator();
    const list = await operator.agent.get(`${CONSOLE}/companies?q=${encodeURIComponent(customer.customerNumber)}`);
    expect(list.status).to.equal(200);
    expect(list.text).to.contain('Panorama Werkzeuge GmbH');
    expect(list.text).to.contain(`${CONSOLE}/companies/${customer.id}`);
    const none = await operator.agent.get(`${CONSOLE}/companies?q=no-such-company-anywhere`);
    expect(none.text).to.contain('No company matches');

    const page = await operator.agent.get(`${CONSOLE}/companies/${customer.id}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain(employee.email);
    expect(page.text).to.contain(role.name);
    expect(page.text).to.contain(invitedEmail);
    expect(page.text).to.contain('Office supplies');
    expect(page.text).to.contain('€500.00');
    // No approval settings chosen: the default (decision 0065).
    expect(page.text).to.contain(
      "The company's administrators and every employee whose role may approve orders (order-approval.approve) approve",
    );
    expect((await operator.agent.get(`${CONSOLE}/companies/${'0'.repeat(32)}`)).status).to.equal(404);
    expect((await operator.agent.get(`${CONSOLE}/companies/not-an-id`)).status).to.equal(404);
  });

  it('deactivates an employee (their login for the company stops) and reactivates them; another company’s employee is a 404', async () => {
    const { customer, employee } = await companyWithPeople('Deactivation AG');
    const other = await companyWithPeople('Elsewhere KG');
    const operator = await loginOperator();
    const login = () =>
      (async () =>
        (await http()).post('/store-api/account/login').send({ email: employee.email, password: employee.password }))();
    expect((await login()).status).to.equal(200);

    const off = await operator.post(`/companies/${customer.id}/employees/${employee.id}/active`, { active: 'false' });
    expect(off.status).to.equal(303);
    const after = await operator.agent.get(off.headers.location as string);
    expect(after.text).to.contain('The employee is deactivated');
    expect(after.text).to.match(/data-test="employee-access">deactivated/);
    expect((await login()).status).to.not.equal(200);

    expect(
      (await operator.post(`/companies/${customer.id}/employees/${employee.id}/active`, { active: 'true' })).status,
    ).to.equal(303);
    expect((await login()).status).to.equal(200);

    const foreign = await operator.post(`/companies/${customer.id}/employees/${other.employee.id}/active`, {
      active: 'false',
    });
    expect(foreign.status).to.equal(404);
  });

  it('resends an invitation: a new mail with a new link, the old link stops working; a read-only operator is refused', async () => {
    const { customer, invitedEmail } = await companyWithPeople('Invitations OHG');
    const first = linkSecret(await receiveMail(invitedEmail, 'invit'), '/account/employee-invitation');
    const [invitation] = await (
      await getShop()
    )
      .db('b2b_employee_invitations')
      .where({ customer_id: customer.id, email: invitedEmail });
    const reader = await loginOperator(true);
    const refused = await reader.post(`/companies/${customer.id}/invitations/${invitation.id}/resend`);
    expect(refused.status).to.equal(403);
    expect(refused.text).to.contain('Your operator role is read-only');

    const operator = await loginOperator();
    const sent = await operator.post(`/companies/${customer.id}/invitations/${invitation.id}/resend`);
    expect(sent.status).to.equal(303);
    expect((await operator.agent.get(sent.headers.location as string)).text).to.contain(
      `The invitation was sent again to ${invitedEmail}`,
    );
    await receiveMail(invitedEmail, 'invit');
    const mails = (await testMailbox()).messages.filter((m) => m.envelopeTo.includes(invitedEmail));
    expect(mails.length).to.equal(2);
    const second = linkSecret(mails[1]!, '/account/employee-invitation');
    expect(second.secret).to.not.equal(first.secret);
    // The Admin API answers the same route for API clients.
    const api = await (
      await http()
    )
      .get(`/api/suite-company/${customer.id}/invitation`)
      .set('authorization', `Bearer ${await adminToken()}`);
    expect(api.status).to.equal(200);
    expect(api.body.data.map((row: { attributes: { email: string } }) => row.attributes.email)).to.deep.equal([
      invitedEmail,
    ]);
    const old = await (await as(null)).post(`/invitation-employee/${first.secret}`, { password: 'a-good-password-1' });
    expect(old.status).to.equal(400);
    expect(old.body.errors[0].code).to.equal('SUITE__INVITATION_INVALID');
    const fresh = await (
      await as(null)
    ).post(`/invitation-employee/${second.secret}`, { password: 'a-good-password-1' });
    expect(fresh.status, JSON.stringify(fresh.body)).to.equal(200);
  });
});

describe('console in Chromium: companies', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  it('an operator finds a company, sees its people and deactivates an employee; axe finds nothing serious', async () => {
    const { customer, employee } = await companyWithPeople('Browser Company SE');
    const page = await consolePage(harness.browser);
    const problems: string[] = [];
    await page.click('nav.menu a:has-text("Companies")');
    problems.push(...(await axeFindings(page)));
    await page.fill('#q', 'Browser Company SE');
    await page.click('button:has-text("Search")');
    await page.click('a:has-text("Browser Company SE")');
    expect(await page.textContent('[data-test=customer-number]')).to.equal(customer.customerNumber);
    expect(await page.locator('[data-test=budget-row]').allTextContents()).to.have.length(1);
    problems.push(...(await axeFindings(page)));
    await page.screenshot({ path: `${SCREENSHOTS}/company.png`, fullPage: true });
    const row = page.locator('[data-test=employee-row]', { hasText: employee.email });
    await row.locator('[data-test=deactivate]').click();
    expect(await page.textContent('[data-test=notice]')).to.contain('The employee is deactivated');
    expect(
      await page
        .locator('[data-test=employee-row]', { hasText: employee.email })
        .locator('[data-test=employee-access]')
        .textContent(),
    ).to.contain('deactivated');
    await page.context().close();
    expect(problems).to.deep.equal([]);
  });
});
