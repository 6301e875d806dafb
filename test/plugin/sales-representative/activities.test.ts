import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError } from '../../helpers/shop.js';
import { STORE, TOKEN } from '../employee/helpers.js';
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
} from './helpers.js';

const CALL = '00000000000000000000000000ac7001';
const VISIT = '00000000000000000000000000ac7002';

describe('sales representatives: customer activities', () => {
  describe('activity types', () => {
    it('lists the active types, every type with usage counts, and reads one', async () => {
      const { token } = await representativeWith(1);
      const active = await (await as(token)).get('/sales-representative/customer-activity-type');
      expect(active.status).to.equal(200);
      expect(active.body.elements.slice(0, 2).map((t: { technicalName: string }) => t.technicalName)).to.deep.equal([
        'call',
        'visit',
      ]);
      expect(active.body.total).to.equal(active.body.elements.length);

      await (await as(token)).post('/sales-representative/customer-activity', { typeId: CALL, subject: 'Intro call' });
      const list = await (await as(token)).get('/sales-representative/customer-activity-type/list?limit=2');
      expect(list.status).to.equal(200);
      expect(list.body.total).to.be.at.least(5);
      expect(list.body.elements).to.have.length(2);
      expect(list.body.elements[0]).to.include({ id: CALL, technicalName: 'call', activityCount: 1 });
      expect(list.body.elements[1]).to.include({ id: VISIT, activityCount: 0 });
      const term = await (await as(token)).get('/sales-representative/customer-activity-type/list?term=visit');
      expect(term.body.elements.map((t: { id: string }) => t.id)).to.deep.equal([VISIT]);

      const one = await (await as(token)).post(`/sales-representative/customer-activity-type/${VISIT}`, {});
      expect(one.status).to.equal(200);
      expect(one.body).to.deep.equal({
        id: VISIT,
        technicalName: 'visit',
        name: 'Customer visit',
        position: 2,
        active: true,
      });
      // The real product's client reads one type with a GET (with the context token header only).
      const read = await (await as(token)).get(`/sales-representative/customer-activity-type/${VISIT}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(one.body);
    });

    it('refuses bad input (400), unknown types (404), guests (401) and other logins (403)', async () => {
      const { token } = await representativeWith(1);
      expectError(await (await as(token)).post('/sales-representative/customer-activity-type/nope', {}), 400);
      expectError(await (await as(token)).post(`/sales-representative/customer-activity-type/${newId()}`, {}), 404);
      expectError(
        await (await as(token)).get('/sales-representative/customer-activity-type/nope'),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await (await as(token)).get(`/sales-representative/customer-activity-type/${newId()}`),
        404,
        'SUITE__NOT_FOUND',
      );
      expectError(await (await as(token)).get('/sales-representative/customer-activity-type/list?limit=1000'), 400);
      const customer = await newCustomer();
      for (const [method, path] of [
        ['get', '/sales-representative/customer-activity-type'],
        ['get', '/sales-representative/customer-activity-type/list'],
        ['post', `/sales-representative/customer-activity-type/${CALL}`],
        ['get', `/sales-representative/customer-activity-type/${CALL}`],
      ] as const) {
        const send = async (t: string | null) =>
          method === 'get' ? (await as(t)).get(path) : (await as(t)).post(path, {});
        expectError(await send(null), 401);
        expectError(await send(customer.token), 403, 'SUITE__SALES_REPRESENTATIVE_ONLY');
      }
    });
  });

  describe('activities', () => {
    it('records, reads, lists, changes and deletes activities of assigned customers', async () => {
      const { rep, customers, token } = await representativeWith(2);
      const [first, second] = customers as [(typeof customers)[0], (typeof customers)[0]];
      const employee = await createEmployee(second.token, { permissions: ['orders.read'] });
      const order = await orderAs(second.token);
      const client = await as(token);

      const created = await client.post('/sales-representative/customer-activity', {
        customerId: second.customer.id,
        typeId: VISIT,
        subject: 'Visit at the plant',
        comment: 'Talked about the <b>spring</b> order.',
        activityDate: '2026-03-02T09:30:00.000Z',
        followUpDate: '2026-04-01T00:00:00.000Z',
        employeeId: employee.id,
        orderId: order,
      });
      expect(created.status).to.equal(200);
      expect(created.body).to.include({
        customerId: second.customer.id,
        typeId: VISIT,
        salesRepresentativeId: rep.id,
        employeeId: employee.id,
        orderId: order,
        subject: 'Visit at the plant',
        comment: 'Talked about the <b>spring</b> order.',
        activityDate: '2026-03-02T09:30:00.000Z',
        followUpDate: '2026-04-01T00:00:00.000Z',
        updatedAt: null,
      });
      expect(created.body.type).to.deep.equal({ id: VISIT, technicalName: 'visit', name: 'Customer visit' });
      const id = created.body.id;

      const defaulted = await client.post('/sales-representative/customer-activity', {
        typeId: CALL,
        subject: 'Quick call',
      });
      expect(defaulted.body.customerId).to.equal(first.customer.id);
      expect(new Date(defaulted.body.activityDate).getTime()).to.be.closeTo(Date.now(), 60_000);

      expect((await client.get(`/sales-representative/customer-activity/${id}`)).body.id).to.equal(id);

      const updated = await client.put('/sales-representative/customer-activity', {
        id,
        typeId: CALL,
        subject: 'Call instead',
        followUpDate: null,
        employeeId: null,
      });
      expect(updated.status).to.equal(200);
      expect(updated.body).to.include({
        typeId: CALL,
        subject: 'Call instead',
        followUpDate: null,
        employeeId: null,
        orderId: order,
      });
      expect(updated.body.updatedAt).to.be.a('string');

      const all = await client.get('/sales-representative/customer-activity/list');
      expect(all.status).to.equal(200);
      expect(all.body.total).to.equal(2);
      expect(all.body.elements.map((a: { id: string }) => a.id)).to.deep.equal([defaulted.body.id, id]);
      const forSecond = await client.get(
        `/sales-representative/customer-activity/list?customerId=${second.customer.id}`,
      );
      expect(forSecond.body.elements.map((a: { id: string }) => a.id)).to.deep.equal([id]);
      const byTerm = await client.get('/sales-representative/customer-activity/list?term=spring');
      expect(byTerm.body.elements.map((a: { id: string }) => a.id)).to.deep.equal([id]);
      const paged = await client.get('/sales-representative/customer-activity/list?limit=1&page=2');
      expect(paged.body).to.include({ total: 2 });
      expect(paged.body.elements.map((a: { id: string }) => a.id)).to.deep.equal([id]);
      // The spec's GET takes a criteria body; POST takes the same body; query shortcuts narrow it.
      const byCriteria = { filter: [{ type: 'equals', field: 'customerId', value: second.customer.id }] };
      const getWithBody = await client.agent
        .get(`${STORE}/sales-representative/customer-activity/list`)
        .set(TOKEN, token)
        .send(byCriteria);
      expect(getWithBody.status).to.equal(200);
      expect(getWithBody.body.elements.map((a: { id: string }) => a.id)).to.deep.equal([id]);
      const posted = await client.post('/sales-representative/customer-activity/list', { ...byCriteria, limit: 5 });
      expect(posted.status).to.equal(200);
      expect(posted.body).to.include({ total: 1, limit: 5 });
      expect(posted.body.elements.map((a: { id: string }) => a.id)).to.deep.equal([id]);
      const narrowed = await client.post(`/sales-representative/customer-activity/list?typeId=${CALL}`, {
        term: 'quick',
      });
      expect(narrowed.body.elements.map((a: { id: string }) => a.id)).to.deep.equal([defaulted.body.id]);
      expectError(
        await client.post('/sales-representative/customer-activity/list', {
          filter: [{ type: 'equals', field: 'secret', value: 'x' }],
        }),
        400,
      );

      const deleted = await client.delete(`/sales-representative/customer-activity/${id}`);
      expect(deleted.status).to.equal(200);
      expect(deleted.body).to.deep.equal({ success: true });
      expectError(await client.get(`/sales-representative/customer-activity/${id}`), 404);
      expectError(await client.delete(`/sales-representative/customer-activity/${id}`), 404);
    });

    it('a successor representative sees the customer’s history; the previous one no longer does', async () => {
      const { customers, token } = await representativeWith(2);
      const created = await (
        await as(token)
      ).post('/sales-representative/customer-activity', {
        customerId: customers[1]!.customer.id,
        typeId: CALL,
        subject: 'Handover',
      });
      const successor = await createRepresentative([]);
      await (
        await admin()
      ).post(`/suite-sales-representative/${successor.id}/customers`, { customerIds: [customers[1]!.customer.id] });
      const successorToken = await loginAs(successor.email, successor.password);
      expect(
        (await (await as(successorToken)).get(`/sales-representative/customer-activity/${created.body.id}`)).body
          .subject,
      ).to.equal('Handover');
      expectError(await (await as(token)).get(`/sales-representative/customer-activity/${created.body.id}`), 404);
    });

    it('refuses invalid input (400), foreign references (404), guests (401) and other logins (403)', async () => {
      const { customers, token } = await representativeWith(1);
      const client = await as(token);
      const stranger = await newCustomer();
      const strangerOrder = await orderAs(stranger.token);
      const strangerEmployee = await employeeWith(['orders.read'], stranger);
      const mine = (await client.post('/sales-representative/customer-activity', { typeId: CALL, subject: 'Mine' }))
        .body.id;

      expectError(
        await client.post('/sales-representative/customer-activity', { subject: 'No type' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(await client.post('/sales-representative/customer-activity', { typeId: CALL, subject: '   ' }), 400);
      expectError(
        await client.post('/sales-representative/customer-activity', {
          typeId: CALL,
          subject: 'X',
          activityDate: 'yesterday',
        }),
        400,
      );
      expectError(
        await client.post('/sales-representative/customer-activity', { typeId: CALL, subject: 'X', extra: 1 }),
        400,
      );
      expectError(
        await client.post('/sales-representative/customer-activity', {
          typeId: CALL,
          subject: 'X',
          followUpDate: '9999-12-31T23:00:00-05:00',
        }),
        400,
        'SUITE__INVALID_DATE',
      );
      expectError(await client.put('/sales-representative/customer-activity', { id: mine }), 400);
      expectError(await client.put('/sales-representative/customer-activity', { subject: 'X' }), 400);
      expectError(await client.get('/sales-representative/customer-activity/nope'), 400);
      expectError(await client.get('/sales-representative/customer-activity/list?customerId=nope'), 400);

      expectError(
        await client.post('/sales-representative/customer-activity', {
          customerId: stranger.customer.id,
          typeId: CALL,
          subject: 'X',
        }),
        404,
      );
      expectError(await client.post('/sales-representative/customer-activity', { typeId: newId(), subject: 'X' }), 404);
      expectError(
        await client.post('/sales-representative/customer-activity', {
          typeId: CALL,
          subject: 'X',
          orderId: strangerOrder,
        }),
        404,
      );
      expectError(
        await client.post('/sales-representative/customer-activity', {
          typeId: CALL,
          subject: 'X',
          employeeId: strangerEmployee.employee.id,
        }),
        404,
      );
      expectError(
        await client.put('/sales-representative/customer-activity', { id: mine, orderId: strangerOrder }),
        404,
      );
      expectError(await client.put('/sales-representative/customer-activity', { id: newId(), subject: 'X' }), 404);
      expectError(
        await client.get(`/sales-representative/customer-activity/list?customerId=${stranger.customer.id}`),
        404,
      );

      const other = await representativeWith(1);
      const theirs = (
        await (
          await as(other.token)
        ).post('/sales-representative/customer-activity', { typeId: CALL, subject: 'Theirs' })
      ).body.id;
      expectError(await client.get(`/sales-representative/customer-activity/${theirs}`), 404);
      expectError(
        await client.put('/sales-representative/customer-activity', { id: theirs, subject: 'Mine now' }),
        404,
      );
      expectError(await client.delete(`/sales-representative/customer-activity/${theirs}`), 404);
      expect(
        (await client.get('/sales-representative/customer-activity/list')).body.elements.map(
          (a: { id: string }) => a.id,
        ),
      ).to.deep.equal([mine]);

      const customer = customers[0]!;
      const checks: Array<[string, (t: string | null) => Promise<import('supertest').Response>]> = [
        [
          'create',
          async (t) => (await as(t)).post('/sales-representative/customer-activity', { typeId: CALL, subject: 'X' }),
        ],
        [
          'update',
          async (t) => (await as(t)).put('/sales-representative/customer-activity', { id: mine, subject: 'X' }),
        ],
        ['list', async (t) => (await as(t)).get('/sales-representative/customer-activity/list')],
        ['read', async (t) => (await as(t)).get(`/sales-representative/customer-activity/${mine}`)],
        ['delete', async (t) => (await as(t)).delete(`/sales-representative/customer-activity/${mine}`)],
      ];
      for (const [, send] of checks) {
        expectError(await send(null), 401);
        expectError(await send(customer.token), 403, 'SUITE__SALES_REPRESENTATIVE_ONLY');
      }
      expect((await client.get(`/sales-representative/customer-activity/${mine}`)).body.subject).to.equal('Mine');
    });
  });
});
