import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError, http } from '../../helpers/shop.js';
import {
  admin,
  as,
  createEmployee,
  createRepresentative,
  employeeWith,
  loginAs,
  newCustomer,
  orderAs,
  representativeWith,
  switchTo,
} from './helpers.js';

describe('sales representatives: setup, login and acting for customers', () => {
  describe('Admin API /api/suite-sales-representative', () => {
    it('creates, reads, lists, changes and deletes representatives and assigns customers', async () => {
      const [a, b] = [await newCustomer(), await newCustomer()];
      const api = await admin();
      const email = `Rep-${newId().slice(0, 8)}@Example.test`;
      const created = await api.post('/suite-sales-representative', {
        email,
        password: 'long-enough-1',
        firstName: 'Rita',
        lastName: 'Rep',
        phone: '+49 1',
        customerIds: [a.customer.id],
      });
      expect(created.status).to.equal(200);
      expect(created.body.data.attributes).to.include({
        email: email.toLowerCase(),
        firstName: 'Rita',
        lastName: 'Rep',
        phone: '+49 1',
        active: true,
      });
      expect(created.body.data.attributes.customerIds).to.deep.equal([a.customer.id]);
      const id = created.body.data.id;

      const assigned = await api.post(`/suite-sales-representative/${id}/customers`, {
        customerIds: [b.customer.id, b.customer.id],
      });
      expect(assigned.body.data.attributes.customerIds).to.have.members([a.customer.id, b.customer.id]);
      const list = await api.get(`/suite-sales-representative?term=${encodeURIComponent(email.toLowerCase())}`);
      expect(list.status).to.equal(200);
      expect(list.body.meta.total).to.equal(1);
      expect(list.body.data[0].id).to.equal(id);
      expect(list.body.links.self).to.contain('/api/suite-sales-representative?limit=25&page=1');

      const patched = await api.patch(`/suite-sales-representative/${id}`, { lastName: 'Renamed', phone: null });
      expect(patched.body.data.attributes).to.include({ lastName: 'Renamed', phone: null });
      expect((await api.get(`/suite-sales-representative/${id}`)).body.data.attributes.lastName).to.equal('Renamed');

      expect((await api.delete(`/suite-sales-representative/${id}/customers/${a.customer.id}`)).status).to.equal(204);
      expect((await api.get(`/suite-sales-representative/${id}`)).body.data.attributes.customerIds).to.deep.equal([
        b.customer.id,
      ]);
      expectError(await api.delete(`/suite-sales-representative/${id}/customers/${a.customer.id}`), 404);

      expect((await api.delete(`/suite-sales-representative/${id}`)).status).to.equal(204);
      expectError(await api.get(`/suite-sales-representative/${id}`), 404);
    });

    it('moves a customer from one representative to another (one representative per customer)', async () => {
      const customer = await newCustomer();
      const first = await createRepresentative([customer.customer.id]);
      const second = await createRepresentative([customer.customer.id]);
      const api = await admin();
      expect((await api.get(`/suite-sales-representative/${first.id}`)).body.data.attributes.customerIds).to.deep.equal(
        [],
      );
      expect(
        (await api.get(`/suite-sales-representative/${second.id}`)).body.data.attributes.customerIds,
      ).to.deep.equal([customer.customer.id]);
    });

    it('refuses invalid input, taken e-mails, unknown ids and callers without an admin token', async () => {
      const customer = await newCustomer();
      const api = await admin();
      expectError(
        await api.post('/suite-sales-representative', {
          email: 'not-an-email',
          password: 'long-enough-1',
          firstName: 'A',
          lastName: 'B',
        }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await api.post('/suite-sales-representative', {
          email: `x-${newId().slice(0, 6)}@example.test`,
          password: 'short',
          firstName: 'A',
          lastName: 'B',
        }),
        400,
      );
      expectError(
        await api.post('/suite-sales-representative', {
          email: customer.email,
          password: 'long-enough-1',
          firstName: 'A',
          lastName: 'B',
        }),
        400,
        'SUITE__EMAIL_TAKEN',
      );
      const rep = await createRepresentative([]);
      expectError(
        await api.post('/suite-sales-representative', {
          email: rep.email,
          password: 'long-enough-1',
          firstName: 'A',
          lastName: 'B',
        }),
        400,
        'SUITE__EMAIL_TAKEN',
      );
      expectError(await api.patch(`/suite-sales-representative/${rep.id}`, {}), 400);
      expectError(
        await api.patch(`/suite-sales-representative/${rep.id}`, { email: customer.email }),
        400,
        'SUITE__EMAIL_TAKEN',
      );
      expectError(await api.post(`/suite-sales-representative/${rep.id}/customers`, { customerIds: [newId()] }), 404);
      expectError(
        await api.post(`/suite-sales-representative/${newId()}/customers`, { customerIds: [customer.customer.id] }),
        404,
      );
      expectError(await api.post(`/suite-sales-representative/${rep.id}/customers`, { customerIds: ['nope'] }), 400);
      expectError(await api.get('/suite-sales-representative/nope'), 400);
      expectError(await api.patch(`/suite-sales-representative/${newId()}`, { firstName: 'X' }), 404);
      expectError(await (await http()).get('/api/suite-sales-representative'), 401);
      expectError(
        await (await http()).get('/api/suite-sales-representative').set('authorization', `Bearer ${customer.token}`),
        401,
      );
    });

    it('maintains customer activity types', async () => {
      const api = await admin();
      const technicalName = `workshop-${newId().slice(0, 6)}`;
      const created = await api.post('/suite-customer-activity-type', { technicalName, name: 'Workshop', position: 9 });
      expect(created.status).to.equal(200);
      expect(created.body.data.attributes).to.include({ technicalName, name: 'Workshop', position: 9, active: true });
      expectError(
        await api.post('/suite-customer-activity-type', { technicalName, name: 'Again' }),
        400,
        'SUITE__TECHNICAL_NAME_TAKEN',
      );
      expectError(
        await api.post('/suite-customer-activity-type', { technicalName: 'Bad Name', name: 'X' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      const patched = await api.patch(`/suite-customer-activity-type/${created.body.data.id}`, { active: false });
      expect(patched.body.data.attributes.active).to.equal(false);
      expectError(await api.patch(`/suite-customer-activity-type/${newId()}`, { name: 'X' }), 404);
      const list = await api.get('/suite-customer-activity-type?limit=500');
      expect(
        list.body.data.map((t: { attributes: { technicalName: string } }) => t.attributes.technicalName),
      ).to.include.members(['call', 'visit', technicalName]);
    });
  });

  describe('login', () => {
    it('logs a representative in through /account/login, acting for the first assigned customer', async () => {
      const { rep, customers, token } = await representativeWith(2);
      const context = await (await as(token)).get('/context');
      expect(context.status).to.equal(200);
      expect(context.body.actor).to.include({ type: 'salesRepresentative', id: rep.id, email: rep.email });
      expect(context.body.salesRepresentative).to.deep.equal({ id: rep.id, email: rep.email, name: 'Rita Rep' });
      expect(context.body.customer.id).to.equal(customers[0]!.customer.id);
      expect(context.body.permissions).to.include.members([
        'orders.read-all',
        'orders.create',
        'employee.read',
        'budget.manage',
      ]);
      expect(context.body.permissions).to.not.include.members(['employee.manage']);
      expect(context.body.permissions).to.not.include('role.manage');
      expect(context.body.permissions).to.not.include('admin');
    });

    it('logs a representative without customers in, acting for none, with an empty customer list', async () => {
      const lonely = await createRepresentative([]);
      const token = await loginAs(lonely.email, lonely.password);
      const context = await (await as(token)).get('/context');
      expect(context.status, JSON.stringify(context.body)).to.equal(200);
      expect(context.body.customer ?? null).to.equal(null);
      const customers = await (await as(token)).post('/sales-representative/customers', {});
      expect(customers.status, JSON.stringify(customers.body)).to.equal(200);
      expect(customers.body.total).to.equal(0);
      expect(customers.body.elements).to.deep.equal([]);
    });

    it('refuses a wrong password and a deactivated representative', async () => {
      const customer = await newCustomer();
      const rep = await createRepresentative([customer.customer.id]);
      const login = async (email: string, password: string) =>
        (await http()).post('/store-api/account/login').send({ email, password });
      expectError(await login(rep.email, 'wrong-password'), 401, 'SUITE__INVALID_CREDENTIALS');
      const token = await loginAs(rep.email, rep.password);
      await (await admin()).patch(`/suite-sales-representative/${rep.id}`, { active: false });
      expectError(await (await as(token)).get('/context'), 401);
      expectError(await login(rep.email, rep.password), 401);
    });

    it('ends the session when the customer acted for is taken away or the representative deactivated (enricher backstop)', async () => {
      const { rep, customers, token } = await representativeWith(2);
      const second = await switchTo(token, customers[1]!.customer.id);
      await (await admin()).delete(`/suite-sales-representative/${rep.id}/customers/${customers[1]!.customer.id}`);
      expectError(await (await as(second)).get('/context'), 401, 'SUITE__SALES_REPRESENTATIVE_INACTIVE');
      expect((await (await as(token)).get('/context')).status).to.equal(200);
      // Deactivated directly in the table (no session revocation): the enricher still refuses.
      const { getShop } = await import('../../helpers/shop.js');
      await (await getShop()).db('b2b_sales_representatives').where({ id: rep.id }).update({ active: false });
      expectError(await (await as(token)).get('/context'), 401, 'SUITE__SALES_REPRESENTATIVE_INACTIVE');
    });
  });

  describe('POST /sales-representative/switch-customer', () => {
    it('switches to another assigned customer and lists that customer’s orders', async () => {
      const { customers, token } = await representativeWith(2);
      const [first, second] = customers as [(typeof customers)[0], (typeof customers)[0]];
      const ordersOfSecond = [await orderAs(second.token), await orderAs(second.token)];
      const ordersOfFirst = [await orderAs(first.token)];
      const switched = await (
        await as(token)
      ).post('/sales-representative/switch-customer', { customerId: second.customer.id });
      expect(switched.status).to.equal(200);
      expect(switched.body.customerId).to.equal(second.customer.id);
      expect(switched.headers['suite-context-token']).to.equal(switched.body.contextToken);
      const newToken = switched.body.contextToken;
      expect((await (await as(newToken)).get('/context')).body.customer.id).to.equal(second.customer.id);
      const orders = await (await as(newToken)).post('/order', {});
      expect(orders.status).to.equal(200);
      expect(orders.body.orders.elements.map((o: { id: string }) => o.id)).to.have.members(ordersOfSecond);
      const before = await (await as(token)).post('/order', {});
      expect(before.body.orders.elements.map((o: { id: string }) => o.id)).to.have.members(ordersOfFirst);
    });

    it('stops acting for the customer: a new token of the representative alone (POST /sales-representative/switch-customer/stop)', async () => {
      const { customers, token } = await representativeWith(1);
      expect((await (await as(token)).get('/context')).body.customer.id).to.equal(customers[0]!.customer.id);
      const stopped = await (await as(token)).post('/sales-representative/switch-customer/stop', {});
      expect(stopped.status, JSON.stringify(stopped.body)).to.equal(200);
      expect(stopped.headers['suite-context-token']).to.equal(stopped.body.contextToken);
      const alone = await (await as(stopped.body.contextToken)).get('/context');
      expect(alone.body.customer).to.equal(null);
      expectError(await (await as(stopped.body.contextToken)).post('/order', {}), 400, 'SUITE__CUSTOMER_REQUIRED');
      expectError(await (await as(customers[0]!.token)).post('/sales-representative/switch-customer/stop', {}), 403);
      expectError(await (await as(null)).post('/sales-representative/switch-customer/stop', {}), 401);
    });

    it('places an order for the customer acted for, recorded as placed by the representative', async () => {
      const { rep, customers, token } = await representativeWith(1);
      const orderId = await orderAs(token);
      const { getShop } = await import('../../helpers/shop.js');
      const row = await (await getShop()).db('orders').where({ id: orderId }).first();
      expect(row).to.include({
        customer_id: customers[0]!.customer.id,
        placed_by_type: 'salesRepresentative',
        placed_by_id: rep.id,
      });
    });

    it('refuses unassigned customers (404), bad ids (400), guests (401) and other logins (403)', async () => {
      const { token } = await representativeWith(1);
      const stranger = await newCustomer();
      expectError(
        await (await as(token)).post('/sales-representative/switch-customer', { customerId: stranger.customer.id }),
        404,
      );
      expectError(await (await as(token)).post('/sales-representative/switch-customer', { customerId: 'x' }), 400);
      expectError(await (await as(token)).post('/sales-representative/switch-customer', {}), 400);
      expectError(
        await (await as(null)).post('/sales-representative/switch-customer', { customerId: stranger.customer.id }),
        401,
      );
      expectError(
        await (
          await as(stranger.token)
        ).post('/sales-representative/switch-customer', { customerId: stranger.customer.id }),
        403,
        'SUITE__SALES_REPRESENTATIVE_ONLY',
      );
    });
  });

  describe('demo seed', () => {
    it('creates a representative login for the demo customer, once', async () => {
      const { seedSalesRepresentativeDemo, DEMO_REPRESENTATIVE } =
        await import('../../../src/plugin/sales-representative/demo.js');
      const { getShop } = await import('../../helpers/shop.js');
      const shop = await getShop();
      const demoCustomer = await newCustomer();
      const demo = {
        salesChannelId: demoCustomer.customer.salesChannelId,
        customerId: demoCustomer.customer.id,
        customerEmail: demoCustomer.email,
        productIds: [],
        categoryIds: [],
      };
      // Another test may have seeded the whole demo shop in this run already; then this call must change nothing.
      const seededBefore = Boolean(
        await shop.db('b2b_sales_representatives').where({ email: DEMO_REPRESENTATIVE.email }).first('id'),
      );
      const lines = await seedSalesRepresentativeDemo(shop.runtime, demo);
      expect(lines.join('\n')).to.contain(DEMO_REPRESENTATIVE.email);
      await seedSalesRepresentativeDemo(shop.runtime, demo);
      expect(await shop.db('b2b_sales_representatives').where({ email: DEMO_REPRESENTATIVE.email })).to.have.length(1);
      const token = await loginAs(DEMO_REPRESENTATIVE.email, DEMO_REPRESENTATIVE.password);
      const actingFor = (await (await as(token)).get('/context')).body.customer.id;
      if (!seededBefore) expect(actingFor).to.equal(demoCustomer.customer.id);
      else expect(actingFor).to.not.equal(demoCustomer.customer.id);
    });
  });

  describe('the representative cannot manage employees or roles', () => {
    it('answers 403 on employee and role management, but may read employees', async () => {
      const { customers, token } = await representativeWith(1);
      await createEmployee(customers[0]!.token, { permissions: ['orders.read'] });
      expectError(await (await as(token)).post('/b2b/employee-roles/create', { name: 'X', permissions: [] }), 403);
      expectError(
        await (
          await as(token)
        ).post('/b2b/employee', {
          email: `e-${newId().slice(0, 6)}@example.test`,
          firstName: 'A',
          lastName: 'B',
          password: 'long-enough-1',
        }),
        403,
      );
      const employees = await (await as(token)).post('/b2b/employees', {});
      expect(employees.status).to.equal(200);
      expect(employees.body.total).to.equal(1);
    });
  });

  describe('GET /sales-representative and PATCH /sales-representative/{id}', () => {
    it('shows the customer and its employees their representative', async () => {
      const customer = await newCustomer();
      const rep = await createRepresentative([customer.customer.id], { phone: '+49 30 1' });
      const own = await (await as(customer.token)).get('/sales-representative');
      expect(own.status).to.equal(200);
      // The spec: the customer response (the platform's customer entity).
      expect(own.body).to.deep.equal({
        id: rep.id,
        apiAlias: 'customer',
        email: rep.email,
        firstName: 'Rita',
        lastName: 'Rep',
        phone: '+49 30 1',
      });
      const employee = await employeeWith(['orders.read'], customer);
      expect((await (await as(employee.token)).get('/sales-representative')).body.id).to.equal(rep.id);
      const lonely = await newCustomer();
      expectError(await (await as(lonely.token)).get('/sales-representative'), 404, 'SUITE__NO_SALES_REPRESENTATIVE');
      expectError(await (await as(null)).get('/sales-representative'), 401);
    });

    it('lets the representative change their own profile only', async () => {
      const { rep, customers, token } = await representativeWith(1);
      const res = await (
        await as(token)
      ).patch(`/sales-representative/${rep.id}`, { firstName: 'Rosa', phone: '+49 40 2' });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ success: true });
      const seen = await (await as(customers[0]!.token)).get('/sales-representative');
      expect(seen.body).to.include({ firstName: 'Rosa', phone: '+49 40 2' });
      const other = await createRepresentative([]);
      expectError(await (await as(token)).patch(`/sales-representative/${other.id}`, { firstName: 'X' }), 404);
      expectError(await (await as(token)).patch(`/sales-representative/${rep.id}`, {}), 400);
      expectError(await (await as(token)).patch(`/sales-representative/${rep.id}`, { firstName: '' }), 400);
      expectError(
        await (await as(token)).patch(`/sales-representative/${rep.id}`, { email: customers[0]!.email }),
        400,
        'SUITE__EMAIL_TAKEN',
      );
      expectError(await (await as(token)).patch('/sales-representative/nope', { firstName: 'X' }), 400);
      expectError(await (await as(null)).patch(`/sales-representative/${rep.id}`, { firstName: 'X' }), 401);
      expectError(
        await (await as(customers[0]!.token)).patch(`/sales-representative/${rep.id}`, { firstName: 'X' }),
        403,
      );
    });
  });
});
