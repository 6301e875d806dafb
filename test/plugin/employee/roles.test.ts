import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { PERMISSIONS } from '../../../src/plugin/employee/permissions.js';
import { expectError } from '../../helpers/shop.js';
import { as, createEmployee, createRole, employeeWith, newCustomer } from './helpers.js';

describe('employees: roles and permissions', () => {
  it('plugin.json declares exactly the permission keys the add-on checks', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../plugin.json', import.meta.url), 'utf8')) as {
      permissions: unknown[];
    };
    expect(manifest.permissions).to.deep.equal(PERMISSIONS.map((p) => ({ ...p })));
  });

  describe('POST /b2b/employee-roles/create', () => {
    it('creates a role with permissions and requiresApproval', async () => {
      const owner = await newCustomer();
      const res = await (
        await as(owner.token)
      ).post('/b2b/employee-roles/create', {
        name: 'Buyer',
        description: 'Buys',
        permissions: ['orders.create', 'orders.read'],
        requiresApproval: true,
      });
      expect(res.status).to.equal(200);
      expect(res.body.role).to.include({
        name: 'Buyer',
        description: 'Buys',
        requiresApproval: true,
        employeeCount: 0,
      });
      expect(res.body.role.permissions).to.deep.equal(['orders.create', 'orders.read']);
    });

    it('refuses unknown keys, duplicate names (any case), missing login and permission, and escalation', async () => {
      const owner = await newCustomer();
      const client = await as(owner.token);
      expectError(
        await client.post('/b2b/employee-roles/create', { name: 'X', permissions: ['root'] }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(await client.post('/b2b/employee-roles/create', { name: '', permissions: [] }), 400);
      expectError(await client.post('/b2b/employee-roles/create', { name: 'X', permissions: ['admin', 'admin'] }), 400);
      await createRole(owner.token, [], { name: 'Team' });
      expectError(
        await client.post('/b2b/employee-roles/create', { name: 'team', permissions: [] }),
        400,
        'SUITE__ROLE_NAME_TAKEN',
      );
      expect(
        (
          await (
            await as((await newCustomer()).token)
          ).post('/b2b/employee-roles/create', { name: 'Team', permissions: [] })
        ).status,
      ).to.equal(200);
      expectError(await (await as(null)).post('/b2b/employee-roles/create', { name: 'Y', permissions: [] }), 401);
      const reader = await employeeWith(['role.read'], owner);
      expectError(
        await (await as(reader.token)).post('/b2b/employee-roles/create', { name: 'Y', permissions: [] }),
        403,
        'SUITE__PERMISSION_DENIED',
      );
      const roleManager = await employeeWith(['role.manage'], owner);
      expectError(
        await (await as(roleManager.token)).post('/b2b/employee-roles/create', { name: 'Y', permissions: ['admin'] }),
        403,
        'SUITE__PERMISSION_ESCALATION',
      );
      expect(
        (
          await (
            await as(roleManager.token)
          ).post('/b2b/employee-roles/create', { name: 'Y', permissions: ['role.read'] })
        ).status,
      ).to.equal(200);
    });
  });

  describe('POST /b2b/employee-roles', () => {
    it('lists the customer’s roles with employee counts, never another customer’s', async () => {
      const owner = await newCustomer();
      const role = await createRole(owner.token, ['orders.read']);
      await createEmployee(owner.token, { roleId: role.id });
      await createRole((await newCustomer()).token, []);
      const res = await (
        await as(owner.token)
      ).post('/b2b/employee-roles', { filter: [{ type: 'equals', field: 'requiresApproval', value: false }] });
      expect(res.body.total).to.equal(1);
      expect(res.body.elements[0]).to.include({ id: role.id, employeeCount: 1 });
      expectError(await (await as(owner.token)).post('/b2b/employee-roles', { sort: [{ field: 'secret' }] }), 400);
      expectError(await (await as(null)).post('/b2b/employee-roles', {}), 401);
      expectError(
        await (await as((await employeeWith(['orders.read'], owner)).token)).post('/b2b/employee-roles', {}),
        403,
      );
      expect(
        (await (await as((await employeeWith(['role.manage'], owner)).token)).post('/b2b/employee-roles', {})).status,
      ).to.equal(200);
    });
  });

  describe('PATCH /b2b/employee-roles/{id}', () => {
    it('changes a role; its employees get the new permissions at once', async () => {
      const owner = await newCustomer();
      const { token, employee } = await employeeWith(['orders.read'], owner);
      const roleId = (await (await as(owner.token)).get(`/b2b/employee/${employee.id}`)).body.roleId;
      expectError(await (await as(token)).post('/b2b/employee-roles', {}), 403);
      const res = await (
        await as(owner.token)
      ).patch(`/b2b/employee-roles/${roleId}`, { permissions: ['role.read'], requiresApproval: true, name: 'Renamed' });
      expect(res.body.role).to.include({ name: 'Renamed', requiresApproval: true });
      expect((await (await as(token)).post('/b2b/employee-roles', {})).status).to.equal(200);
      expectError(await (await as(token)).post('/b2b/employee-orders', {}), 403);
    });

    it('validates, needs role.manage, 404s another customer’s role, and refuses escalation', async () => {
      const owner = await newCustomer();
      const role = await createRole(owner.token, ['orders.read']);
      const client = await as(owner.token);
      expectError(await client.patch(`/b2b/employee-roles/${role.id}`, {}), 400);
      expectError(await client.patch(`/b2b/employee-roles/${role.id}`, { permissions: 'admin' }), 400);
      expectError(await (await as(null)).patch(`/b2b/employee-roles/${role.id}`, { name: 'Z' }), 401);
      expectError(
        await (
          await as((await employeeWith(['role.read'], owner)).token)
        ).patch(`/b2b/employee-roles/${role.id}`, { name: 'Z' }),
        403,
      );
      expectError(
        await (await as((await newCustomer()).token)).patch(`/b2b/employee-roles/${role.id}`, { name: 'Z' }),
        404,
      );
      const manager = await employeeWith(['role.manage', 'orders.read'], owner);
      expectError(
        await (await as(manager.token)).patch(`/b2b/employee-roles/${role.id}`, { permissions: ['orders.read-all'] }),
        403,
        'SUITE__PERMISSION_ESCALATION',
      );
      const other = await createRole(owner.token, []);
      expectError(
        await client.patch(`/b2b/employee-roles/${role.id}`, { name: other.name }),
        400,
        'SUITE__ROLE_NAME_TAKEN',
      );
    });
  });

  describe('DELETE /b2b/employee-roles/{id}', () => {
    it('deletes an unused role and refuses one that employees hold', async () => {
      const owner = await newCustomer();
      const unused = await createRole(owner.token, []);
      const used = await createRole(owner.token, ['orders.read']);
      await createEmployee(owner.token, { roleId: used.id });
      expect((await (await as(owner.token)).delete(`/b2b/employee-roles/${unused.id}`)).body).to.deep.equal({
        success: true,
      });
      expectError(await (await as(owner.token)).delete(`/b2b/employee-roles/${unused.id}`), 404);
      expectError(await (await as(owner.token)).delete(`/b2b/employee-roles/${used.id}`), 400, 'SUITE__ROLE_IN_USE');
      expectError(await (await as(owner.token)).delete('/b2b/employee-roles/zzz'), 400);
      expectError(await (await as(null)).delete(`/b2b/employee-roles/${used.id}`), 401);
      expectError(
        await (await as((await employeeWith(['role.read'], owner)).token)).delete(`/b2b/employee-roles/${used.id}`),
        403,
      );
      expectError(await (await as((await newCustomer()).token)).delete(`/b2b/employee-roles/${used.id}`), 404);
    });
  });

  describe('POST /b2b/employee-permissions and /b2b/employee-permission-groups', () => {
    it('list every key with its group, and the keys grouped', async () => {
      const { token, customer } = await employeeWith(['role.read']);
      const keys = await (await as(token)).post('/b2b/employee-permissions', {});
      expect(keys.body.total).to.equal(PERMISSIONS.length);
      expect(keys.body.elements.map((p: { key: string }) => p.key)).to.include.members([
        'employee.read',
        'orders.read-all',
        'order-approval.approve',
        'customer-product-number.manage',
        'event.register',
        'admin',
      ]);
      const orders = await (await as(token)).post('/b2b/employee-permissions', { group: 'orders' });
      expect(orders.body.elements.map((p: { key: string }) => p.key)).to.deep.equal([
        'orders.read',
        'orders.read-all',
        'orders.create',
        'orders.read-unit',
      ]);
      const groups = await (await as(customer.token)).post('/b2b/employee-permission-groups', {});
      expect(
        groups.body.elements
          .find((g: { name: string }) => g.name === 'budgets')
          .permissions.map((p: { key: string }) => p.key),
      ).to.deep.equal(['budget.read', 'budget.manage']);
      for (const path of ['/b2b/employee-permissions', '/b2b/employee-permission-groups']) {
        expectError(await (await as(token)).post(path, { group: 1 }), 400);
        expectError(await (await as(null)).post(path, {}), 401);
        expectError(await (await as((await employeeWith(['orders.read'], customer)).token)).post(path, {}), 403);
      }
    });
  });
});
