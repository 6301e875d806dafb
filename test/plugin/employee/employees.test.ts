import { expect } from 'chai';
import { expectError, http } from '../../helpers/shop.js';
import {
  as,
  createEmployee,
  createRole,
  employeeWith,
  linkSecret,
  loginAs,
  newCustomer,
  receiveMail,
  uniqueEmail,
} from './helpers.js';

describe('employees: accounts', () => {
  describe('POST /b2b/employee', () => {
    it('creates an employee who logs in with their own e-mail and password and acts for the customer', async () => {
      const owner = await newCustomer();
      const role = await createRole(owner.token, ['orders.read', 'employee.read']);
      const email = uniqueEmail();
      const res = await (
        await as(owner.token)
      ).post('/b2b/employee', {
        email: email.toUpperCase(),
        firstName: 'Ann',
        lastName: 'Lee',
        department: 'Purchasing',
        roleId: role.id,
        password: 'secret-password',
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        email,
        firstName: 'Ann',
        lastName: 'Lee',
        department: 'Purchasing',
        roleId: role.id,
        roleName: role.name,
        active: true,
        activated: true,
      });
      const token = await loginAs(email, 'secret-password');
      const context = await (await as(token)).get('/context');
      expect(context.body.actor).to.include({ type: 'employee', id: res.body.id, name: 'Ann Lee', email });
      expect(context.body.customer.id).to.equal(owner.customer.id);
      expect(context.body.employee).to.include({ id: res.body.id, roleId: role.id, roleName: role.name });
      expect(context.body.permissions).to.deep.equal(['employee.read', 'orders.read']);
    });

    it('refuses invalid input with the error body', async () => {
      const owner = await newCustomer();
      const client = await as(owner.token);
      expectError(
        await client.post('/b2b/employee', {
          email: 'not-an-email',
          firstName: 'A',
          lastName: 'B',
          password: 'long-enough',
        }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await client.post('/b2b/employee', { email: uniqueEmail(), firstName: 'A', lastName: 'B', password: 'short' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await client.post('/b2b/employee', {
          email: uniqueEmail(),
          firstName: '  ',
          lastName: 'B',
          password: 'long-enough',
        }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await client.post('/b2b/employee', {
          email: uniqueEmail(),
          firstName: 'A',
          lastName: 'B',
          password: 'long-enough',
          isAdmin: true,
        }),
        400,
        'SUITE__INVALID_INPUT',
      );
    });

    it('refuses an e-mail that already has a login (employee or customer)', async () => {
      const owner = await newCustomer();
      const other = await newCustomer();
      const taken = await createEmployee(other.token);
      const client = await as(owner.token);
      expectError(
        await client.post('/b2b/employee', {
          email: taken.email,
          firstName: 'A',
          lastName: 'B',
          password: 'long-enough',
        }),
        400,
        'SUITE__EMAIL_TAKEN',
      );
      expectError(
        await client.post('/b2b/employee', {
          email: other.email,
          firstName: 'A',
          lastName: 'B',
          password: 'long-enough',
        }),
        400,
        'SUITE__EMAIL_TAKEN',
      );
    });

    it('needs a login and the employee.manage permission; another customer’s role is a 404', async () => {
      const body = { email: uniqueEmail(), firstName: 'A', lastName: 'B', password: 'long-enough' };
      expectError(await (await as(null)).post('/b2b/employee', body), 401);
      const reader = await employeeWith(['employee.read']);
      expectError(await (await as(reader.token)).post('/b2b/employee', body), 403, 'SUITE__PERMISSION_DENIED');
      const stranger = await newCustomer();
      const foreignRole = await createRole(stranger.token, ['orders.read']);
      expectError(
        await (await as(reader.customer.token)).post('/b2b/employee', { ...body, roleId: foreignRole.id }),
        404,
      );
    });

    it('does not let an employee grant permissions they lack', async () => {
      const manager = await employeeWith(['employee.manage']);
      const adminRole = await createRole(manager.customer.token, ['admin']);
      const res = await (
        await as(manager.token)
      ).post('/b2b/employee', {
        email: uniqueEmail(),
        firstName: 'A',
        lastName: 'B',
        password: 'long-enough',
        roleId: adminRole.id,
      });
      expectError(res, 403, 'SUITE__PERMISSION_ESCALATION');
    });
  });

  describe('POST /b2b/employee/add', () => {
    it('adds an employee without a password and mails an activation link that sets it', async () => {
      const owner = await newCustomer();
      const email = uniqueEmail();
      const res = await (
        await as(owner.token)
      ).post('/b2b/employee/add', { email, firstName: 'Nia', lastName: 'New', storefrontUrl: 'http://shop.test/' });
      expect(res.status).to.equal(200);
      expect(res.body.success).to.equal(true);
      const list = await (
        await as(owner.token)
      ).post('/b2b/employees', { filter: [{ type: 'equals', field: 'email', value: email }] });
      expect(list.body.elements[0]).to.include({ email, activated: false, active: true });
      const mail = await receiveMail(email, 'invites you');
      const { url, secret } = linkSecret(mail, '/account/employee-invitation');
      expect(url.startsWith('http://shop.test/account/employee-invitation/')).to.equal(true);
      const accepted = await (await as(null)).post(`/invitation-employee/${secret}`, { password: 'my-new-password' });
      expect(accepted.status).to.equal(200);
      expect(accepted.body).to.include({ employeeId: list.body.elements[0].id, customerId: owner.customer.id });
      await loginAs(email, 'my-new-password');
    });

    it('takes what the spec shows, {email, roleId}: the names come with the invitation acceptance', async () => {
      const owner = await newCustomer();
      const role = await createRole(owner.token, ['orders.read']);
      const email = uniqueEmail();
      const res = await (await as(owner.token)).post('/b2b/employee/add', { email, roleId: role.id });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const list = await (
        await as(owner.token)
      ).post('/b2b/employees', { filter: [{ type: 'equals', field: 'email', value: email }] });
      expect(list.body.elements[0]).to.include({
        email,
        firstName: '',
        lastName: '',
        roleId: role.id,
        activated: false,
      });
      expect(list.body.elements[0].employeeId).to.equal(list.body.elements[0].id);
      const { secret } = linkSecret(await receiveMail(email, 'invites you'), '/account/employee-invitation');
      expectError(
        await (await as(null)).post(`/invitation-employee/${secret}`, { password: 'my-new-password' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      const accepted = await (
        await as(null)
      ).post(`/invitation-employee/${secret}`, { password: 'my-new-password', firstName: 'Ola', lastName: 'Later' });
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
      const employee = await (await as(owner.token)).get(`/b2b/employee/${accepted.body.employeeId}`);
      expect(employee.body).to.include({ firstName: 'Ola', lastName: 'Later', roleId: role.id, activated: true });
      await loginAs(email, 'my-new-password');
    });

    it('validates, needs employee.manage, 404s another customer’s role, and refuses an employee of the company', async () => {
      const owner = await newCustomer();
      const client = await as(owner.token);
      expectError(
        await client.post('/b2b/employee/add', { firstName: 'A', lastName: 'B' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await client.post('/b2b/employee/add', { email: uniqueEmail(), firstName: '' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await client.post('/b2b/employee/add', {
          email: uniqueEmail(),
          firstName: 'A',
          lastName: 'B',
          storefrontUrl: 'https://evil.example',
        }),
        400,
        'SUITE__INVALID_STOREFRONT_URL',
      );
      expectError(
        await (await as(null)).post('/b2b/employee/add', { email: uniqueEmail(), firstName: 'A', lastName: 'B' }),
        401,
      );
      const reader = await employeeWith(['employee.read'], owner);
      expectError(
        await (
          await as(reader.token)
        ).post('/b2b/employee/add', { email: uniqueEmail(), firstName: 'A', lastName: 'B' }),
        403,
      );
      const foreignRole = await createRole((await newCustomer()).token, []);
      expectError(
        await client.post('/b2b/employee/add', {
          email: uniqueEmail(),
          firstName: 'A',
          lastName: 'B',
          roleId: foreignRole.id,
        }),
        404,
      );
      expectError(
        await client.post('/b2b/employee/add', { email: reader.employee.email, firstName: 'A', lastName: 'B' }),
        400,
        'SUITE__EMPLOYEE_EXISTS',
      );
    });
  });

  describe('GET /b2b/employee/{id}', () => {
    it('reads an employee of the customer; another customer’s employee is a 404', async () => {
      const owner = await newCustomer();
      const employee = await createEmployee(owner.token, { department: 'Sales' });
      const res = await (await as(owner.token)).get(`/b2b/employee/${employee.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: employee.id, email: employee.email, department: 'Sales' });
      const stranger = await newCustomer();
      expectError(await (await as(stranger.token)).get(`/b2b/employee/${employee.id}`), 404, 'SUITE__NOT_FOUND');
      expectError(await (await as(owner.token)).get('/b2b/employee/not-an-id'), 400);
      expectError(await (await as(null)).get(`/b2b/employee/${employee.id}`), 401);
      const noRights = await employeeWith(['orders.read'], owner);
      expectError(await (await as(noRights.token)).get(`/b2b/employee/${employee.id}`), 403);
    });
  });

  describe('PATCH /b2b/employee/{id}', () => {
    it('changes name, department and role; the new permissions apply to the next request', async () => {
      const owner = await newCustomer();
      const first = await employeeWith(['orders.read'], owner);
      const second = await createRole(owner.token, ['employee.read']);
      expectError(await (await as(first.token)).post('/b2b/employees', {}), 403);
      const res = await (
        await as(owner.token)
      ).patch(`/b2b/employee/${first.employee.id}`, { firstName: 'Renamed', department: null, roleId: second.id });
      expect(res.status).to.equal(200);
      expect(res.body.employee).to.include({ firstName: 'Renamed', department: null, roleId: second.id });
      expect((await (await as(first.token)).post('/b2b/employees', {})).status).to.equal(200);
    });

    it('deactivating ends the employee’s sessions; they cannot log in until reactivated', async () => {
      const owner = await newCustomer();
      const { employee, token } = await employeeWith(['orders.read'], owner);
      expect(
        (await (await as(owner.token)).patch(`/b2b/employee/${employee.id}`, { active: false })).body.employee.active,
      ).to.equal(false);
      expectError(await (await as(token)).get('/context'), 401);
      expectError(
        await (
          await http()
        )
          .post('/store-api/account/login')
          .send({ email: employee.email, password: employee.password }),
        401,
      );
      await (await as(owner.token)).patch(`/b2b/employee/${employee.id}`, { active: true });
      await loginAs(employee.email, employee.password);
    });

    it('validates, needs employee.manage, and 404s another customer’s employee', async () => {
      const owner = await newCustomer();
      const employee = await createEmployee(owner.token);
      const client = await as(owner.token);
      expectError(await client.patch(`/b2b/employee/${employee.id}`, {}), 400);
      expectError(await client.patch(`/b2b/employee/${employee.id}`, { email: 'nope' }), 400);
      expectError(
        await client.patch(`/b2b/employee/${employee.id}`, { email: owner.email }),
        400,
        'SUITE__EMAIL_TAKEN',
      );
      expectError(await (await as(null)).patch(`/b2b/employee/${employee.id}`, { firstName: 'X' }), 401);
      const reader = await employeeWith(['employee.read'], owner);
      expectError(await (await as(reader.token)).patch(`/b2b/employee/${employee.id}`, { firstName: 'X' }), 403);
      expectError(
        await (await as((await newCustomer()).token)).patch(`/b2b/employee/${employee.id}`, { firstName: 'X' }),
        404,
      );
    });

    it('an employee manager cannot change an employee whose role holds more than they do, nor deactivate themselves', async () => {
      const owner = await newCustomer();
      const manager = await employeeWith(['employee.manage'], owner);
      const boss = await createEmployee(owner.token, { permissions: ['admin'] });
      expectError(
        await (await as(manager.token)).patch(`/b2b/employee/${boss.id}`, { active: false }),
        403,
        'SUITE__PERMISSION_ESCALATION',
      );
      expectError(
        await (await as(manager.token)).patch(`/b2b/employee/${manager.employee.id}`, { active: false }),
        400,
        'SUITE__CANNOT_DEACTIVATE_SELF',
      );
    });
  });

  describe('DELETE /b2b/employee/{id}', () => {
    it('removes the employee and revokes their tokens', async () => {
      const owner = await newCustomer();
      const { employee, token } = await employeeWith(['orders.read'], owner);
      expect((await (await as(owner.token)).delete(`/b2b/employee/${employee.id}`)).body).to.deep.equal({
        success: true,
      });
      expectError(await (await as(token)).get('/context'), 401);
      expectError(await (await as(owner.token)).get(`/b2b/employee/${employee.id}`), 404);
      expectError(
        await (
          await http()
        )
          .post('/store-api/account/login')
          .send({ email: employee.email, password: employee.password }),
        401,
      );
    });

    it('needs employee.manage, 404s another customer’s employee, refuses deleting oneself', async () => {
      const owner = await newCustomer();
      const employee = await createEmployee(owner.token);
      expectError(await (await as(null)).delete(`/b2b/employee/${employee.id}`), 401);
      expectError(await (await as(owner.token)).delete('/b2b/employee/123'), 400);
      const reader = await employeeWith(['employee.read'], owner);
      expectError(await (await as(reader.token)).delete(`/b2b/employee/${employee.id}`), 403);
      expectError(await (await as((await newCustomer()).token)).delete(`/b2b/employee/${employee.id}`), 404);
      const manager = await employeeWith(['employee.manage'], owner);
      expectError(
        await (await as(manager.token)).delete(`/b2b/employee/${manager.employee.id}`),
        400,
        'SUITE__CANNOT_DELETE_SELF',
      );
    });
  });

  describe('POST /b2b/employees', () => {
    it('lists only the customer’s employees, with criteria', async () => {
      const owner = await newCustomer();
      const a = await createEmployee(owner.token, { department: 'Alpha' });
      await createEmployee(owner.token, { department: 'Beta' });
      await createEmployee((await newCustomer()).token, { department: 'Alpha' });
      const client = await as(owner.token);
      const all = await client.post('/b2b/employees', {});
      expect(all.body.total).to.equal(2);
      const filtered = await client.post('/b2b/employees', {
        filter: [{ type: 'equals', field: 'department', value: 'Alpha' }],
      });
      expect(filtered.body.elements.map((e: { id: string }) => e.id)).to.deep.equal([a.id]);
      const term = await client.post('/b2b/employees', { term: a.email.slice(0, 20), limit: 1 });
      expect(term.body.elements[0].id).to.equal(a.id);
      expectError(await client.post('/b2b/employees', { limit: 501 }), 400);
      expectError(
        await client.post('/b2b/employees', { filter: [{ type: 'equals', field: 'passwordHash', value: 'x' }] }),
        400,
      );
      expectError(await (await as(null)).post('/b2b/employees', {}), 401);
      expectError(await (await as((await employeeWith(['orders.read'], owner)).token)).post('/b2b/employees', {}), 403);
    });
  });

  it('POST /b2b/employees pages by cursor: every employee of the customer once, in the sort, with the total on every page', async () => {
    const owner = await newCustomer();
    for (const department of ['D', 'B', 'E', 'A', 'C']) await createEmployee(owner.token, { department });
    await createEmployee((await newCustomer()).token, { department: 'A' });
    const client = await as(owner.token);
    const seen: string[] = [];
    const totals: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const res = await client.post('/b2b/employees', {
        limit: 2,
        cursor,
        sort: [{ field: 'department', order: 'ASC' }],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      seen.push(...res.body.elements.map((e: { department: string }) => e.department));
      totals.push(res.body.total);
      cursor = res.body.nextCursor;
      expect(seen.length, 'the walk ends').to.be.below(10);
    }
    expect(seen).to.deep.equal(['A', 'B', 'C', 'D', 'E']);
    expect(totals).to.deep.equal([5, 5, 5]);
    expectError(
      await client.post('/b2b/employees', { limit: 2, cursor: 'not-a-cursor' }),
      400,
      'SUITE__INVALID_CURSOR',
    );
  });

  describe('several customers', () => {
    it('an employee invited by a second customer chooses whom they act for; the context says which', async () => {
      const first = await newCustomer();
      const second = await newCustomer();
      const { employee, token } = await employeeWith(['orders.read'], first);
      const secondRole = await createRole(second.token, ['employee.read']);
      expect(
        (await (await as(second.token)).post('/create-invitation', { email: employee.email, roleId: secondRole.id }))
          .status,
      ).to.equal(200);
      const { secret } = linkSecret(await receiveMail(employee.email, 'invites you'), '/account/employee-invitation');
      const accepted = await (await as(null)).post(`/invitation-employee/${secret}`, {});
      expect(accepted.body).to.include({ employeeId: employee.id, customerId: second.customer.id });

      const targets = await (await as(token)).get('/login-targets');
      expect(targets.body.total).to.equal(2);
      expect(targets.body.elements.find((t: { current: boolean }) => t.current).id).to.equal(first.customer.id);
      const customers = await (
        await as(token)
      ).post('/b2b/employee-customers', { filter: [{ type: 'equals', field: 'id', value: second.customer.id }] });
      expect(customers.body.elements).to.have.length(1);
      expect(customers.body.elements[0]).to.include({ id: second.customer.id, roleId: secondRole.id, current: false });

      const switched = await (
        await as(token)
      ).post('/b2b/employee-customer/switch', { customerId: second.customer.id });
      expect(switched.status).to.equal(200);
      expect(switched.headers['suite-context-token']).to.equal(switched.body.contextToken);
      const context = await (await as(switched.body.contextToken)).get('/context');
      expect(context.body.customer.id).to.equal(second.customer.id);
      expect(context.body.permissions).to.deep.equal(['employee.read']);
      expect(
        (await (await as(switched.body.contextToken)).post('/b2b/employees', {})).body.elements.map(
          (e: { id: string }) => e.id,
        ),
      ).to.deep.equal([employee.id]);
      expect((await (await as(token)).get('/context')).body.customer.id).to.equal(first.customer.id);

      expectError(
        await (
          await as(token)
        ).post('/b2b/employee-customer/switch', { customerId: (await newCustomer()).customer.id }),
        404,
      );
      expectError(await (await as(token)).post('/b2b/employee-customer/switch', { customerId: 'x' }), 400);
      expectError(
        await (await as(first.token)).post('/b2b/employee-customer/switch', { customerId: second.customer.id }),
        403,
        'SUITE__EMPLOYEE_ONLY',
      );
      expectError(
        await (await as(null)).post('/b2b/employee-customer/switch', { customerId: second.customer.id }),
        401,
      );

      expect(
        (await (await as(first.token)).patch(`/b2b/employee/${employee.id}`, { firstName: 'Mine' })).status,
      ).to.equal(400);
      await (await as(second.token)).patch(`/b2b/employee/${employee.id}`, { active: false });
      expectError(await (await as(switched.body.contextToken)).get('/context'), 401);
    });

    it('the customer login sees itself as its only login target', async () => {
      const owner = await newCustomer();
      const res = await (await as(owner.token)).get('/login-targets');
      expect(res.body).to.deep.include({ total: 1 });
      expect(res.body.elements[0]).to.include({ id: owner.customer.id, current: true, roleId: null });
      const list = await (await as(owner.token)).post('/b2b/employee-customers', {});
      expect(list.body.total).to.equal(1);
      expectError(await (await as(owner.token)).post('/b2b/employee-customers', { limit: 0 }), 400);
      expectError(await (await as(null)).get('/login-targets'), 401);
      expectError(await (await as(null)).post('/b2b/employee-customers', {}), 401);
    });
  });

  describe('the admin permission', () => {
    it('gives an employee everything for their customer and nothing for another', async () => {
      const owner = await newCustomer();
      const admin = await employeeWith(['admin'], owner);
      expect((await (await as(admin.token)).get('/context')).body.permissions).to.deep.equal(['*']);
      const colleague = await createEmployee(owner.token);
      expect(
        (await (await as(admin.token)).patch(`/b2b/employee/${colleague.id}`, { department: 'Ops' })).status,
      ).to.equal(200);
      const stranger = await newCustomer();
      const strangerEmployee = await createEmployee(stranger.token);
      expectError(await (await as(admin.token)).get(`/b2b/employee/${strangerEmployee.id}`), 404);
      expectError(await (await as(admin.token)).delete(`/b2b/employee/${strangerEmployee.id}`), 404);
    });
  });
});
