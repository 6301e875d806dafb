import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { toDbTime, zonedParts } from '../../../src/lib/time.js';
import { expectError, getShop } from '../../helpers/shop.js';
import { as, createEmployee, employeeWith, loginAs, newCustomer, orderAs, representativeWith } from './helpers.js';

const ids = (res: { body: { elements: Array<{ id: string }> } }) => res.body.elements.map((o) => o.id);

/** The standard refusals of a representative route: guests 401, customer and employee logins 403. */
async function refusesOthers(method: 'get' | 'post', path: string, body: unknown = {}) {
  const customer = await newCustomer();
  const employee = await employeeWith(['orders.read-all', 'employee.read'], customer);
  const send = async (token: string | null) => {
    const client = await as(token);
    return method === 'get' ? client.get(path) : client.post(path, body);
  };
  expectError(await send(null), 401);
  expectError(await send(customer.token), 403, 'SUITE__SALES_REPRESENTATIVE_ONLY');
  expectError(await send(employee.token), 403, 'SUITE__SALES_REPRESENTATIVE_ONLY');
}

describe('sales representatives: customers, orders, statistics', () => {
  describe('POST /sales-representative/customers and /customer-search', () => {
    it('lists the assigned customers with order count, net revenue and last order; never others', async () => {
      const { customers, token } = await representativeWith(2);
      const [first, second] = customers as [(typeof customers)[0], (typeof customers)[0]];
      await orderAs(first.token, 2, 1500);
      await orderAs(first.token, 1, 1000);
      await newCustomer();
      const res = await (await as(token)).post('/sales-representative/customers', {});
      expect(res.status).to.equal(200);
      expect(res.body.total).to.equal(2);
      const byId = new Map<string, Record<string, unknown>>(res.body.elements.map((c: { id: string }) => [c.id, c]));
      expect(byId.get(first.customer.id)).to.include({ orderCount: 2, revenue: 40, current: true, email: first.email });
      expect(byId.get(first.customer.id)!.lastOrderDate).to.be.a('string');
      expect(byId.get(second.customer.id)).to.include({
        orderCount: 0,
        revenue: 0,
        lastOrderDate: null,
        current: false,
      });

      const search = await (await as(token)).post('/sales-representative/customer-search', { term: second.email });
      expect(search.status).to.equal(200);
      expect(ids(search)).to.deep.equal([second.customer.id]);
      const filtered = await (
        await as(token)
      ).post('/sales-representative/customer-search', {
        filter: [{ type: 'equals', field: 'customerNumber', value: first.customer.customerNumber }],
      });
      expect(ids(filtered)).to.deep.equal([first.customer.id]);
      const paged = await (await as(token)).post('/sales-representative/customer-search', { limit: 1 });
      expect(paged.body).to.include({ total: 2 });
      expect(paged.body.elements).to.have.length(1);
    });

    it('refuses invalid criteria (400), guests (401) and non-representatives (403)', async () => {
      const { token } = await representativeWith(1);
      for (const path of ['/sales-representative/customers', '/sales-representative/customer-search']) {
        expectError(await (await as(token)).post(path, { limit: 501 }), 400);
        expectError(
          await (await as(token)).post(path, { filter: [{ type: 'equals', field: 'password', value: 'x' }] }),
          400,
        );
        await refusesOthers('post', path);
      }
    });
  });

  describe('orders', () => {
    it('POST /sales-representative/orders lists the orders of all assigned customers, filterable by customerId', async () => {
      const { customers, token } = await representativeWith(2);
      const a = await orderAs(customers[0]!.token);
      const b = await orderAs(customers[1]!.token);
      const stranger = await newCustomer();
      await orderAs(stranger.token);
      const all = await (await as(token)).post('/sales-representative/orders', {});
      expect(all.status).to.equal(200);
      expect(all.body.total).to.equal(2);
      expect(ids(all)).to.have.members([a, b]);
      expect(all.body.elements[0]).to.include.keys('orderNumber', 'amountTotal', 'lineItems');
      const one = await (
        await as(token)
      ).post('/sales-representative/orders', {
        filter: [{ type: 'equals', field: 'customerId', value: customers[1]!.customer.id }],
      });
      expect(ids(one)).to.deep.equal([b]);
      const other = await (
        await as(token)
      ).post('/sales-representative/orders', {
        filter: [{ type: 'equals', field: 'customerId', value: stranger.customer.id }],
      });
      expect(other.body).to.deep.equal({
        total: 0,
        page: 1,
        limit: 25,
        elements: [],
        aggregations: {},
        apiAlias: 'dal_entity_search_result',
      });
      expectError(await (await as(token)).post('/sales-representative/orders', { page: 0 }), 400);
      await refusesOthers('post', '/sales-representative/orders');
    });

    it('GET /sales-representative/customer-orders/{customerId} lists one assigned customer’s orders; others are 404', async () => {
      const { customers, token } = await representativeWith(2);
      const mine = [await orderAs(customers[1]!.token), await orderAs(customers[1]!.token)];
      await orderAs(customers[0]!.token);
      const res = await (await as(token)).get(`/sales-representative/customer-orders/${customers[1]!.customer.id}`);
      expect(res.status).to.equal(200);
      // The spec: "array of orders of the customer".
      expect(res.body).to.be.an('array');
      expect(res.body.map((order: { id: string }) => order.id)).to.have.members(mine);
      expect(res.body[0]).to.include.keys('orderNumber', 'orderDate', 'amountTotal', 'lineItems');
      const page = await (
        await as(token)
      ).get(`/sales-representative/customer-orders/${customers[1]!.customer.id}?limit=1&page=2`);
      expect(page.body).to.have.length(1);
      expect(mine).to.include(page.body[0].id);
      const stranger = await newCustomer();
      expectError(await (await as(token)).get(`/sales-representative/customer-orders/${stranger.customer.id}`), 404);
      expectError(await (await as(token)).get('/sales-representative/customer-orders/nope'), 400);
      expectError(
        await (await as(token)).get(`/sales-representative/customer-orders/${stranger.customer.id}?limit=0`),
        400,
      );
      await refusesOthers('get', `/sales-representative/customer-orders/${customers[0]!.customer.id}`);
    });

    it('POST /sales-representative/customer-last-orders answers each customer’s latest order', async () => {
      const { customers, token } = await representativeWith(3);
      await orderAs(customers[0]!.token);
      const latestA = await orderAs(customers[0]!.token);
      const latestB = await orderAs(customers[1]!.token);
      const res = await (await as(token)).post('/sales-representative/customer-last-orders', {});
      expect(res.status).to.equal(200);
      expect(res.body.total).to.equal(2);
      expect(ids(res)).to.have.members([latestA, latestB]);
      const filtered = await (
        await as(token)
      ).post('/sales-representative/customer-last-orders', {
        filter: [{ type: 'equals', field: 'customerId', value: customers[0]!.customer.id }],
      });
      expect(ids(filtered)).to.deep.equal([latestA]);
      expectError(
        await (await as(token)).post('/sales-representative/customer-last-orders', { sort: [{ field: 'amount' }] }),
        400,
      );
      await refusesOthers('post', '/sales-representative/customer-last-orders');
    });

    it('POST /sales-representative/customer-activity-order/{id} lists the orders an employee of an assigned customer placed', async () => {
      const { customers, token } = await representativeWith(1);
      const owner = customers[0]!;
      const employee = await createEmployee(owner.token, { permissions: ['orders.create', 'orders.read'] });
      const employeeToken = await loginAs(employee.email, employee.password);
      const placed = await orderAs(employeeToken);
      await orderAs(owner.token);
      const res = await (await as(token)).post(`/sales-representative/customer-activity-order/${employee.id}`, {});
      expect(res.status).to.equal(200);
      expect(ids(res)).to.deep.equal([placed]);
      const strangerEmployee = await employeeWith(['orders.create']);
      expectError(
        await (
          await as(token)
        ).post(`/sales-representative/customer-activity-order/${strangerEmployee.employee.id}`, {}),
        404,
      );
      expectError(await (await as(token)).post(`/sales-representative/customer-activity-order/${newId()}`, {}), 404);
      expectError(await (await as(token)).post('/sales-representative/customer-activity-order/nope', {}), 400);
      expectError(
        await (await as(token)).post(`/sales-representative/customer-activity-order/${employee.id}`, { limit: 'x' }),
        400,
      );
      await refusesOthers('post', `/sales-representative/customer-activity-order/${employee.id}`);
    });
  });

  describe('POST /sales-representative/employees', () => {
    it('lists the employees of all assigned customers with their customer', async () => {
      const { customers, token } = await representativeWith(2);
      const e1 = await createEmployee(customers[0]!.token, { permissions: ['orders.read'] });
      const e2 = await createEmployee(customers[1]!.token, { permissions: ['orders.read'] });
      await employeeWith(['orders.read']);
      const res = await (await as(token)).post('/sales-representative/employees', {});
      expect(res.status).to.equal(200);
      expect(res.body.total).to.equal(2);
      expect(
        res.body.elements.map((e: { id: string; customerId: string }) => [e.id, e.customerId]),
      ).to.have.deep.members([
        [e1.id, customers[0]!.customer.id],
        [e2.id, customers[1]!.customer.id],
      ]);
      const one = await (
        await as(token)
      ).post('/sales-representative/employees', {
        filter: [{ type: 'equals', field: 'customerId', value: customers[1]!.customer.id }],
      });
      expect(ids(one)).to.deep.equal([e2.id]);
      const term = await (await as(token)).post('/sales-representative/employees', { term: e1.email });
      expect(ids(term)).to.deep.equal([e1.id]);
      expectError(
        await (
          await as(token)
        ).post('/sales-representative/employees', { filter: [{ type: 'equals', field: 'passwordHash', value: 'x' }] }),
        400,
      );
      await refusesOthers('post', '/sales-representative/employees');
    });
  });

  describe('statistics', () => {
    async function backdate(orderId: string, date: Date) {
      await (
        await getShop()
      )
        .db('orders')
        .where({ id: orderId })
        .update({ order_date: toDbTime(date) });
    }

    it('POST /sales-representative/sales-statistics sums net revenue per month in minor units', async () => {
      const { customers, token } = await representativeWith(1);
      const customer = customers[0]!;
      await orderAs(customer.token, 3, 333);
      await orderAs(customer.token, 1, 1001);
      const old = await orderAs(customer.token, 1, 5000);
      const today = zonedParts(new Date(), 'Europe/Berlin');
      await backdate(old, new Date(Date.UTC(today.year, today.month - 3, 15, 12)));
      const cancelled = await orderAs(customer.token, 1, 7777);
      await (await getShop()).db('orders').where({ id: cancelled }).update({ state: 'cancelled' });

      const res = await (
        await as(token)
      ).post(`/sales-representative/sales-statistics?customerId=${customer.customer.id}&months=3`, {});
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ customerId: customer.customer.id, currency: 'EUR', revenueBasis: 'net' });
      expect(res.body.months).to.have.length(3);
      const [twoAgo, lastMonth, thisMonth] = res.body.months;
      expect(thisMonth).to.include({ revenue: 20, orderCount: 2, averageOrderValue: 10 });
      expect(lastMonth).to.include({ revenue: 0, orderCount: 0, averageOrderValue: 0 });
      expect(twoAgo).to.include({ revenue: 50, orderCount: 1, averageOrderValue: 50 });
      expect(res.body.total).to.deep.equal({ revenue: 70, orderCount: 3, averageOrderValue: 23.33 });
      expect(thisMonth.month).to.match(/^\d{4}-\d{2}$/);
      expect(new Date(thisMonth.from) < new Date(thisMonth.to)).to.equal(true);
      expect(twoAgo.to).to.equal(lastMonth.from);
    });

    it('sales-statistics: a customerId must be an assigned customer (without one: all of them, connector-calls.test.ts)', async () => {
      const { token } = await representativeWith(1);
      const stranger = await newCustomer();
      expectError(await (await as(token)).post('/sales-representative/sales-statistics?customerId=nope', {}), 400);
      expectError(
        await (
          await as(token)
        ).post(`/sales-representative/sales-statistics?customerId=${stranger.customer.id}&months=99`, {}),
        400,
      );
      expectError(
        await (await as(token)).post(`/sales-representative/sales-statistics?customerId=${stranger.customer.id}`, {}),
        404,
      );
      await refusesOthers('post', `/sales-representative/sales-statistics?customerId=${stranger.customer.id}`);
    });

    it('POST /sales-representative/customer-sales-ranking ranks the assigned customers by net revenue', async () => {
      const { customers, token } = await representativeWith(3);
      const [a, b, c] = customers as [(typeof customers)[0], (typeof customers)[0], (typeof customers)[0]];
      await orderAs(a.token, 1, 1000);
      await orderAs(b.token, 1, 5000);
      await orderAs(b.token, 1, 100);
      const res = await (await as(token)).post('/sales-representative/customer-sales-ranking', {});
      expect(res.status).to.equal(200);
      expect(res.body.total).to.equal(3);
      expect(
        res.body.elements.map((e: { customerId: string; rank: number; revenue: number; orderCount: number }) => [
          e.customerId,
          e.rank,
          e.revenue,
          e.orderCount,
        ]),
      ).to.deep.equal([
        [b.customer.id, 1, 51, 2],
        [a.customer.id, 2, 10, 1],
        [c.customer.id, 3, 0, 0],
      ]);
      const one = await (
        await as(token)
      ).post('/sales-representative/customer-sales-ranking', { customerId: a.customer.id });
      expect(one.body).to.deep.include({
        total: 1,
        elements: [
          {
            id: a.customer.id,
            rank: 2,
            customerId: a.customer.id,
            customerNumber: a.customer.customerNumber,
            company: a.customer.company,
            revenue: 10,
            orderCount: 1,
          },
        ],
      });
      const future = await (
        await as(token)
      ).post('/sales-representative/customer-sales-ranking', { from: new Date(Date.now() + 86_400_000).toISOString() });
      expect(future.body.elements.every((e: { revenue: number }) => e.revenue === 0)).to.equal(true);
      const stranger = await newCustomer();
      expectError(
        await (
          await as(token)
        ).post('/sales-representative/customer-sales-ranking', { customerId: stranger.customer.id }),
        404,
      );
      expectError(
        await (await as(token)).post('/sales-representative/customer-sales-ranking', { customerId: 'ABC' }),
        400,
      );
      expectError(
        await (
          await as(token)
        ).post('/sales-representative/customer-sales-ranking', {
          from: '2026-02-01T00:00:00Z',
          to: '2026-01-01T00:00:00Z',
        }),
        400,
        'SUITE__INVALID_PERIOD',
      );
      expectError(
        await (
          await as(token)
        ).post('/sales-representative/customer-sales-ranking', { to: '9999-12-31T23:00:00-05:00' }),
        400,
        'SUITE__INVALID_DATE',
      );
      await refusesOthers('post', '/sales-representative/customer-sales-ranking');
    });
  });
});
