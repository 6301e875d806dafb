import { expect } from 'chai';
import { getShop } from '../../helpers/shop.js';
import { createEmployee, createRole, outboxRows, uniqueEmail } from '../employee/helpers.js';
import { companyAdmin, decoded, employeeBrowser, expectPage, expectRefused, newCustomer, textOf } from './helpers.js';

describe('storefront B2B: employees, roles and invitations pages', function () {
  this.timeout(60000);
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('the company admin lists, adds and invites, edits, deactivates and re-activates an employee, and changes the role', async () => {
    const { customer, browser } = await companyAdmin();
    const buyers = await createRole(customer.token, ['orders.create', 'orders.read'], { name: 'Buyers' });
    const readers = await createRole(customer.token, ['orders.read'], { name: 'Readers' });
    const existing = await createEmployee(customer.token, { roleId: buyers.id, department: 'Stores' });

    const list = expectPage(await browser.get('/account/employees'));
    expect(list)
      .to.contain(existing.email)
      .and.contain('data-test="employee-invite"')
      .and.contain('data-test="employee-import"')
      .and.contain('href="/account/employees/export"');

    const email = uniqueEmail('invited');
    const invited = await browser.post('/account/employees/invite', {
      email,
      firstName: 'Ivy',
      lastName: 'Invited',
      department: 'Sales',
      roleId: readers.id,
    });
    expect(invited.status, textOf(invited.text)).to.equal(303);
    expect(invited.headers.location).to.equal('/account/employees?done=invited');
    expect(textOf(expectPage(await browser.get('/account/employees?done=invited'))))
      .to.contain('an invitation mail is on its way')
      .and.contain(`${email} Sales Readers Invited`);
    expect(await outboxRows(email, 'employee-invitation')).to.have.length(1);

    const again = await browser.post('/account/employees/invite', { email, firstName: 'Ivy', lastName: 'Invited' });
    expect(again.status).to.equal(400);
    expect(again.text)
      .to.contain('data-test="form-error"')
      .and.contain('employee of the company already')
      .and.contain(`value="${email}"`);

    const detail = expectPage(await browser.get(`/account/employees/${existing.id}`));
    expect(detail)
      .to.contain('data-test="employee-edit"')
      .and.contain(`<option value="${buyers.id}" selected>Buyers</option>`);
    const saved = await browser.post(`/account/employees/${existing.id}`, {
      email: existing.email,
      firstName: 'Erin',
      lastName: 'Renamed',
      department: 'Stores',
      roleId: readers.id,
    });
    expect(saved.status, textOf(saved.text)).to.equal(303);
    const afterSave = textOf(expectPage(await browser.get(`/account/employees/${existing.id}?done=saved`)));
    expect(afterSave).to.contain('Erin Renamed').and.contain('Role Readers').and.contain('The employee was saved.');

    expect((await browser.post(`/account/employees/${existing.id}/deactivate`)).status).to.equal(303);
    expect(textOf(expectPage(await browser.get(`/account/employees/${existing.id}`)))).to.contain('Status Deactivated');
    const login = await (await import('../../helpers/shop.js')).http();
    expect(
      (await login.post('/store-api/account/login').send({ email: existing.email, password: existing.password }))
        .status,
      'a deactivated employee cannot log in',
    ).to.equal(401);
    expect((await browser.post(`/account/employees/${existing.id}/activate`)).status).to.equal(303);
    expect(textOf(expectPage(await browser.get(`/account/employees/${existing.id}`)))).to.contain('Status Active');

    const invalid = await browser.post(`/account/employees/${existing.id}`, {
      email: 'not-an-email',
      firstName: 'Erin',
      lastName: 'Renamed',
    });
    expect(invalid.status).to.equal(400);
    expect(invalid.text).to.contain('data-test="form-error"').and.contain('value="not-an-email"');
  });

  it('exports the employees as CSV and imports a pasted file, reporting every bad line and changing nothing then', async () => {
    const { customer, browser } = await companyAdmin();
    await createRole(customer.token, ['orders.read'], { name: 'Readers' });
    const existing = await createEmployee(customer.token, { department: 'Stores' });
    const csv = await browser.get('/account/employees/export');
    expect(csv.status).to.equal(200);
    expect(csv.headers['content-disposition']).to.contain('attachment').and.contain('employees.csv');
    expect(csv.headers['content-type']).to.contain('text/csv');
    expect(String(csv.text ?? csv.body))
      .to.contain('email,first_name,last_name,department,role,active')
      .and.contain(existing.email);

    const newEmail = uniqueEmail('imported');
    const bad = await browser.post('/account/employees/import', {
      csv: `email,first_name,last_name,department,role,active\n${newEmail},Ina,Import,Sales,Readers,true\nbroken,,,,,\nalso-broken,,,,Nope,maybe\n`,
    });
    expect(bad.status).to.equal(400);
    expect(bad.text.match(/data-test="form-error-line"/g)?.length ?? 0, 'every bad line').to.be.at.least(2);
    expect(textOf(bad.text)).to.contain('Line 3').and.contain('Line 4');
    expect(bad.text, 'the pasted file stays in the form').to.contain(newEmail);
    expect(textOf(expectPage(await browser.get('/account/employees'))), 'nothing was imported').not.to.contain(
      newEmail,
    );

    const good = await browser.post('/account/employees/import', {
      csv: `email;first_name;last_name;department;role;active\n${newEmail};Ina;Import;Sales;Readers;true\n`,
    });
    expect(good.status, textOf(good.text)).to.equal(303);
    expect(textOf(expectPage(await browser.get('/account/employees?done=imported'))))
      .to.contain('The CSV file was imported.')
      .and.contain(`${newEmail} Sales Readers`);
  });

  it('creates a role with permissions, changes and deletes it', async () => {
    const { browser } = await companyAdmin();
    const page = expectPage(await browser.get('/account/roles'));
    expect(page).to.contain('data-test="role-create"').and.contain('value="orders.create"');
    const created = await browser.post('/account/roles', {
      name: 'Purchasing',
      description: 'Buys',
      permissions: ['orders.create', 'orders.read'],
      requiresApproval: 'true',
    });
    expect(created.status, textOf(created.text)).to.equal(303);
    const roles = expectPage(await browser.get('/account/roles?done=created'));
    expect(textOf(roles)).to.contain('Purchasing').and.contain('Place orders.').and.contain('Orders need approval');
    const roleId = /href="\/account\/roles\/([0-9a-f]{32})">Purchasing</.exec(roles)?.[1];
    expect(roleId).to.be.a('string');
    const edit = expectPage(await browser.get(`/account/roles/${roleId}`));
    expect(edit).to.contain('value="orders.create" checked').and.not.contain('value="budget.read" checked');
    expect(
      (await browser.post(`/account/roles/${roleId}`, { name: 'Purchasing', permissions: 'budget.read' })).status,
    ).to.equal(303);
    expect(expectPage(await browser.get(`/account/roles/${roleId}`)))
      .to.contain('value="budget.read" checked')
      .and.not.contain('value="orders.create" checked');
    const duplicate = await browser.post('/account/roles', { name: 'Purchasing' });
    expect(duplicate.status).to.equal(400);
    expect(duplicate.text).to.contain('role with this name already');
    expect((await browser.post(`/account/roles/${roleId}/delete`)).status).to.equal(303);
    expect(textOf(expectPage(await browser.get('/account/roles?done=deleted'))))
      .to.contain('The role was deleted.')
      .and.not.contain('Purchasing');
  });

  it('sends and withdraws an invitation', async () => {
    const { browser } = await companyAdmin();
    const email = uniqueEmail('invitee');
    expect((await browser.post('/account/invitations', { email })).status).to.equal(303);
    const page = expectPage(await browser.get('/account/invitations?done=sent'));
    expect(textOf(page)).to.contain('The invitation was sent.').and.contain(email).and.contain('pending');
    const withdraw = /action="(\/account\/invitations\/[0-9a-f]{32}\/withdraw)"/.exec(page)?.[1];
    expect(withdraw).to.be.a('string');
    expect((await browser.post(withdraw!)).status).to.equal(303);
    expect(textOf(expectPage(await browser.get('/account/invitations')))).not.to.contain(email);
  });

  it('an employee sees what their role allows: reading without forms, 403 for the rest, by URL and by form', async () => {
    const customer = await newCustomer();
    const other = await createEmployee(customer.token, {});
    const { browser } = await employeeBrowser(customer, ['employee.read']);
    const list = expectPage(await browser.get('/account/employees'));
    expect(list)
      .to.contain(other.email)
      .and.not.contain('data-test="employee-invite"')
      .and.not.contain('data-test="employee-import"');
    expect(expectPage(await browser.get(`/account/employees/${other.id}`))).not.to.contain('data-test="employee-edit"');
    expectRefused(await browser.get('/account/roles'), 403);
    expectRefused(await browser.get('/account/invitations'), 403);
    expectRefused(await browser.post(`/account/employees/${other.id}/deactivate`), 403);
    expectRefused(
      await browser.post('/account/employees/invite', { email: uniqueEmail(), firstName: 'A', lastName: 'B' }),
      403,
    );
    expectRefused(await browser.post('/account/employees/import', { csv: 'email\n' }), 403);

    const { browser: nobody } = await employeeBrowser(customer, ['orders.read']);
    for (const path of [
      '/account/employees',
      `/account/employees/${other.id}`,
      '/account/employees/export',
      '/account/roles',
      '/account/invitations',
    ])
      expectRefused(await nobody.get(path), 403);
    const account = expectPage(await nobody.get('/account'));
    expect(account, 'the menu hides what the role does not allow')
      .not.to.contain('href="/account/employees"')
      .and.not.to.contain('href="/account/roles"');
  });

  it("another customer's employee or role is a 404", async () => {
    const { browser } = await companyAdmin();
    const stranger = await newCustomer();
    const theirs = await createEmployee(stranger.token, {});
    const theirRole = await createRole(stranger.token, ['orders.read']);
    expectRefused(await browser.get(`/account/employees/${theirs.id}`), 404);
    expectRefused(
      await browser.post(`/account/employees/${theirs.id}`, { email: theirs.email, firstName: 'X', lastName: 'Y' }),
      404,
    );
    expectRefused(await browser.post(`/account/employees/${theirs.id}/deactivate`), 404);
    expectRefused(await browser.get(`/account/roles/${theirRole.id}`), 404);
    expectRefused(await browser.post(`/account/roles/${theirRole.id}/delete`), 404);
    expectRefused(await browser.get('/account/employees/not-an-id'), 404);
    expect(
      decoded(expectPage(await browser.get('/account/employees'))),
      'the list shows only the own company',
    ).not.to.contain(theirs.email);
  });
});
