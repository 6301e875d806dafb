import { expect } from 'chai';
import { expectError, getShop } from '../../helpers/shop.js';
import { as, createEmployee, createRole, employeeWith, newCustomer, uniqueEmail } from './helpers.js';

const HEADER = 'email,first_name,last_name,department,role,active';

async function exportCsv(token: string): Promise<string> {
  const res = await (
    await as(token)
  )
    .post('/b2b/employee-export', {})
    .buffer(true)
    .parse((response, done) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => done(null, text));
    });
  expect(res.status).to.equal(200);
  expect(res.headers['content-type']).to.match(/^text\/csv/);
  return res.body as string;
}

async function snapshot(customerId: string) {
  return (await getShop())
    .db('b2b_employee_customers as ec')
    .join('b2b_employees as e', 'e.id', 'ec.employee_id')
    .where('ec.customer_id', customerId)
    .orderBy('e.email')
    .select(
      'e.id',
      'e.email',
      'e.first_name',
      'e.last_name',
      'e.updated_at',
      'ec.department',
      'ec.role_id',
      'ec.active',
      'ec.updated_at as link_updated_at',
    );
}

describe('employees: CSV import and export', function () {
  this.timeout(120_000);

  it('round trip: 1,000 employees exported and re-imported change nothing', async () => {
    const owner = await newCustomer();
    const buyer = await createRole(owner.token, ['orders.read'], { name: 'Buyer' });
    await createRole(owner.token, [], { name: '=Formula role' });
    const tricky = ['=1+2', '-Sales', '+49 Team', '@home', 'Quote "Q"', 'Comma, Inc', 'Line\nBreak', "'=escaped", ''];
    const lines = [HEADER];
    for (let i = 0; i < 1000; i++) {
      const role = i % 3 === 0 ? 'Buyer' : i % 3 === 1 ? '=Formula role' : '';
      const department = tricky[i % tricky.length]!;
      const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
      lines.push(
        [
          `bulk-${i}-${owner.customer.id.slice(0, 8)}@example.test`,
          quote(`First ${i}`),
          quote(i % 7 === 0 ? '-Minus' : `Last ${i}`),
          quote(department),
          quote(role),
          i % 5 === 0 ? 'false' : 'true',
        ].join(','),
      );
    }
    const created = await (await as(owner.token)).csv('/b2b/employee-import', lines.join('\r\n'));
    expect(created.status, JSON.stringify(created.body).slice(0, 500)).to.equal(200);
    expect(created.body).to.deep.equal({ success: true, created: 1000, updated: 0, unchanged: 0 });
    // Each new employee is invited; the test takes the 1,000 mails out so other tests' deliveries stay quick.
    const invitations = (await getShop())
      .db('mail_outbox')
      .where({ template: 'employee-invitation', state: 'queued' })
      .where('recipient', 'like', `bulk-%-${owner.customer.id.slice(0, 8)}@example.test`);
    expect(await invitations.clone().count({ n: '*' })).to.deep.equal([{ n: 1000 }]);
    await invitations.clone().delete();

    const exported = await exportCsv(owner.token);
    expect(exported.startsWith(`${HEADER}\r\n`)).to.equal(true);
    expect(exported).to.contain(",'=1+2,");
    expect(exported).to.contain(",'-Sales,");
    expect(exported).to.contain(",'=Formula role,");
    expect(exported.split('\r\n').filter((l) => l.startsWith('bulk-'))).to.have.length(1000);
    const before = await snapshot(owner.customer.id);
    expect(before.filter((r: { role_id: string | null }) => r.role_id === buyer.id)).to.have.length(334);

    const again = await (await as(owner.token)).csv('/b2b/employee-import', exported);
    expect(again.body).to.deep.equal({ success: true, created: 0, updated: 0, unchanged: 1000 });
    expect(await snapshot(owner.customer.id)).to.deep.equal(before);
    expect(await exportCsv(owner.token)).to.equal(exported);
  });

  it('a file with 3 bad rows imports nothing and reports the 3 lines with their reasons', async () => {
    const owner = await newCustomer();
    await createRole(owner.token, [], { name: 'Buyer' });
    const existing = await createEmployee(owner.token, { department: 'Old' });
    const good = uniqueEmail('good');
    const text = [
      'E-Mail;First name;Last name;Department;Role;Active',
      `${good};Gus;Good;Ops;Buyer;yes`,
      `${existing.email};Erin;Employee;New;;true`,
      'not-an-email;Bad;Mail;;;true',
      `${good};Dup;Licate;;;true`,
      `${uniqueEmail()};Roy;Role;;Ghost;maybe`,
    ].join('\n');
    const res = await (await as(owner.token)).csv('/b2b/employee-import', text);
    expectError(res, 400, 'SUITE__CSV_INVALID_ROWS');
    expect([...new Set(res.body.errors.map((e: { meta: { line: number } }) => e.meta.line))]).to.deep.equal([4, 5, 6]);
    const details = res.body.errors.map((e: { detail: string }) => e.detail).join(' | ');
    expect(details).to.contain('Line 4: "not-an-email" is not an e-mail address.');
    expect(details).to.contain('appears on line 2 already');
    expect(details).to.contain('Line 6: The role "Ghost" does not exist.');
    expect(details).to.contain('Line 6: active must be true or false');
    const rows = await snapshot(owner.customer.id);
    expect(rows).to.have.length(1);
    expect(rows[0].department).to.equal('Old');
  });

  it('updates known employees, creates and invites new ones, deactivation ends sessions', async () => {
    const owner = await newCustomer();
    const { employee, token } = await employeeWith(['orders.read'], owner);
    const fresh = uniqueEmail('fresh');
    const res = await (
      await as(owner.token)
    ).csv(
      '/b2b/employee-import',
      `${HEADER}\n${employee.email},Erin,Employee,Purchasing,,false\n${fresh},Fay,Fresh,,,\n`,
    );
    expect(res.body).to.deep.equal({ success: true, created: 1, updated: 1, unchanged: 0 });
    expectError(await (await as(token)).get('/context'), 401);
    const outbox = await (
      await getShop()
    )
      .db('mail_outbox')
      .where({ recipient: fresh, template: 'employee-invitation' });
    expect(outbox).to.have.length(1);
  });

  it('refuses a bad header, an empty or too large file, e-mails that have a login elsewhere, and escalation', async () => {
    const owner = await newCustomer();
    const client = await as(owner.token);
    const header = await client.csv('/b2b/employee-import', 'mail,name\nx@y.z,X\n');
    expectError(header, 400, 'SUITE__CSV_INVALID_HEADER');
    expect(header.body.errors.map((e: { detail: string }) => e.detail)).to.include(
      'Line 1: Unknown column "name"; expected: email, first_name, last_name, department, role, active.',
    );
    expectError(await client.csv('/b2b/employee-import', ''), 400, 'SUITE__CSV_INVALID_HEADER');
    expectError(
      await client.csv('/b2b/employee-import', `${HEADER}\n${'a'.repeat(2 * 1024 * 1024)}`),
      413,
      'SUITE__CSV_TOO_LARGE',
    );
    const elsewhere = await createEmployee((await newCustomer()).token);
    const taken = await client.csv(
      '/b2b/employee-import',
      `${HEADER}\n${elsewhere.email},A,B,,,\n${owner.email},C,D,,,\n`,
    );
    expect(taken.body.errors.map((e: { meta: { line: number } }) => e.meta.line)).to.deep.equal([2, 3]);
    await createRole(owner.token, ['admin'], { name: 'Admins' });
    const manager = await employeeWith(['employee.manage'], owner);
    const escalation = await (
      await as(manager.token)
    ).csv('/b2b/employee-import', `${HEADER}\n${uniqueEmail()},A,B,,Admins,true\n`);
    expect(escalation.body.errors[0].detail).to.contain('You cannot give the role "Admins"');
  });

  it('needs a login and the right permission', async () => {
    const owner = await newCustomer();
    const reader = await employeeWith(['employee.read'], owner);
    const nobody = await employeeWith(['orders.read'], owner);
    expectError(await (await as(null)).csv('/b2b/employee-import', `${HEADER}\n`), 401);
    expectError(await (await as(reader.token)).csv('/b2b/employee-import', `${HEADER}\n`), 403);
    expectError(await (await as(null)).post('/b2b/employee-export', {}), 401);
    expectError(await (await as(nobody.token)).post('/b2b/employee-export', {}), 403);
    expectError(await (await as(reader.token)).post('/b2b/employee-export', { format: 'xlsx' }), 400);
    const csv = await exportCsv(reader.token);
    expect(csv).to.contain(reader.employee.email);
    expect(csv).not.to.contain(owner.email);
  });
});
