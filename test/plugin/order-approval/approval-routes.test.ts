import { expect } from 'chai';
import { expectError, http } from '../../helpers/shop.js';
import {
  APPROVER_PERMISSIONS,
  REQUESTER_PERMISSIONS,
  approval,
  as,
  company,
  createBudget,
  employee,
  fillCart,
  newCustomer,
  outbox,
  product,
  requestApproval,
  setSettings,
  startShop,
} from './helpers.js';
import { headerOf } from '../../helpers/headers.js';

const OTHER_ID = 'ffffffffffffffffffffffffffffffff';

describe('order approval: create, read, decide, settings', () => {
  before(startShop);
  describe('the paths the real product’s storefront connector calls', () => {
    it('POST /b2b/order-approval/create and /list, GET /b2b/order-approval/budget-approval-employees', async () => {
      const { customer, requester, approverA } = await company();
      const p = await product({ priceNet: 1000 });
      const cartToken = await fillCart(requester.token, [{ productId: p.id, quantity: 2 }]);
      const client = await as(requester.token);
      const created = await client.post('/b2b/order-approval/create', { cartToken, customerComment: 'Connector' });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const id = headerOf(created, 'suite-order-approval-id');
      expect(created.headers.location).to.equal(`/store-api/b2b/order-approval/${id}`);
      expect(await approval(requester.token, id)).to.include({ status: 'pending', customerComment: 'Connector' });

      const listed = await client.post('/b2b/order-approval/list', {});
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
      expect(listed.body, 'the platform’s list, as the connector reads it').to.include({ total: 1, page: 1 });
      expect(listed.body.elements.map((a: { id: string }) => a.id)).to.deep.equal([id]);
      expect((await client.post('/order-approval/list', {})).body.data.map((a: { id: string }) => a.id)).to.deep.equal([
        id,
      ]);

      const admin = await as(customer.token);
      const employees = await admin.get('/b2b/order-approval/budget-approval-employees');
      expect(employees.status, JSON.stringify(employees.body)).to.equal(200);
      expect(employees.body).to.deep.equal((await admin.get('/budget-approval-employees')).body);
      expect(employees.body.elements.map((e: { id: string }) => e.id)).to.include(approverA.id);
      // The approval's own path still answers ids.
      expect((await client.get(`/b2b/order-approval/${id}`)).status).to.equal(200);
      expectError(await client.post('/b2b/order-approval/create', {}), 400, 'SUITE__INVALID_INPUT');
      expectError(await (await as(null)).post('/b2b/order-approval/list', {}), 401);
      expectError(await client.get('/b2b/order-approval/budget-approval-employees'), 403);

      const openapi = (await (await http()).get('/store-api/_info/openapi3.json')).body;
      expect(openapi.paths['/b2b/order-approval/create'].post['x-suite-alias-of']).to.equal('createOrderApproval');
      expect(openapi.paths['/b2b/order-approval/budget-approval-employees'].get).to.be.an('object');
    });
  });

  describe('POST /order-approval/create', () => {
    it("snapshots the cart, answers the new approval's address and mails the approvers", async () => {
      const { customer, requester, approverA, approverB } = await company();
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 1 });
      const p = await product({ priceNet: 1250 });
      const cartToken = await fillCart(requester.token, [{ productId: p.id, quantity: 3 }]);
      const res = await (
        await as(requester.token)
      ).post('/order-approval/create', { cartToken, customerComment: 'For the new office' });
      expect(res.status).to.equal(200);
      const id = headerOf(res, 'suite-order-approval-id');
      expect(res.headers.location).to.equal(`/store-api/b2b/order-approval/${id}`);
      const detail = await approval(requester.token, id);
      expect(detail).to.include({
        status: 'pending',
        customerComment: 'For the new office',
        netPrice: 37.5,
        totalPrice: 44.63,
        mode: 'n-of',
      });
      expect(detail.reasons).to.deep.equal(['role']);
      expect(detail.lineItems).to.have.length(1);
      expect(detail.lineItems[0]).to.include({ productId: p.id, quantity: 3, unitPrice: 12.5, totalPrice: 37.5 });
      for (const approver of [approverA, approverB])
        expect(await outbox('order-approval-requested', approver.email)).to.have.length(1);
      expect(await outbox('order-approval-requested', requester.email)).to.have.length(0);
    });

    it("refuses a second open approval for the same cart, invalid bodies, unknown carts and another customer's cart", async () => {
      const { requester } = await company();
      const p = await product();
      const cartToken = await fillCart(requester.token, [{ productId: p.id, quantity: 1 }]);
      const client = await as(requester.token);
      expect((await client.post('/order-approval/create', { cartToken })).status).to.equal(200);
      expectError(await client.post('/order-approval/create', { cartToken }), 400, 'SUITE__ORDER_APPROVAL_EXISTS');
      expectError(await client.post('/order-approval/create', {}), 400, 'SUITE__INVALID_INPUT');
      expectError(await client.post('/order-approval/create', { cartToken, extra: 1 }), 400, 'SUITE__INVALID_INPUT');
      expectError(await client.post('/order-approval/create', { cartToken: 'nope' }), 400, 'SUITE__CART_NOT_FOUND');
      const stranger = await company();
      const strangerCart = await fillCart(stranger.requester.token, [{ productId: p.id, quantity: 1 }]);
      expectError(
        await client.post('/order-approval/create', { cartToken: strangerCart }),
        400,
        'SUITE__CART_NOT_FOUND',
      );
    });

    it('creates one approval for a repeated Idempotency-Key, and 422 when the key comes with another body', async () => {
      const { requester } = await company();
      const p = await product();
      const cartToken = await fillCart(requester.token, [{ productId: p.id, quantity: 1 }]);
      const client = await as(requester.token);
      const send = (body: Record<string, unknown>) =>
        client.post('/order-approval/create', body).set('Idempotency-Key', 'request-1');
      expect((await send({ cartToken })).status).to.equal(200);
      const replay = await send({ cartToken });
      expect(replay.status).to.equal(200);
      expect(replay.headers['idempotent-replayed']).to.equal('true');
      expectError(await send({ cartToken, customerComment: 'other' }), 422, 'SUITE__IDEMPOTENCY_KEY_REUSED');
      expect((await client.post('/order-approval/list', {})).body.total).to.equal(1);
    });

    it('answers 401 without login and 403 without the request permission', async () => {
      expectError(await (await as(null)).post('/order-approval/create', { cartToken: 'x' }), 401);
      const customer = await newCustomer();
      const buyer = await employee(customer, ['orders.create']);
      expectError(
        await (await as(buyer.token)).post('/order-approval/create', { cartToken: 'x' }),
        403,
        'SUITE__PERMISSION_DENIED',
      );
    });

    it('refuses an approval beyond a budget that does not allow approval, with the remaining amount', async () => {
      const { customer, requester } = await company();
      await createBudget(customer.token, { amount: 50, allowApproval: false, employeeIds: [requester.id] });
      const p = await product({ priceNet: 6000 });
      const cartToken = await fillCart(requester.token, [{ productId: p.id, quantity: 1 }]);
      const error = expectError(
        await (await as(requester.token)).post('/order-approval/create', { cartToken }),
        400,
        'SUITE__BUDGET_EXCEEDED',
      ) as { meta?: Record<string, unknown> };
      expect(error.meta).to.include({ remaining: 50, orderValue: 60, currency: 'EUR' });
    });
  });

  describe('POST /order-approval/list', () => {
    it("lists the company's approvals for approvers and admins, only their own for requesters, filtered by criteria", async () => {
      const { customer, requester, approverA } = await company();
      const colleague = await employee(customer, REQUESTER_PERMISSIONS, { requiresApproval: true });
      const p = await product();
      const mine = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      const theirs = await requestApproval(colleague.token, [{ productId: p.id, quantity: 2 }]);
      const own = await (await as(requester.token)).post('/order-approval/list', {});
      expect(own.status).to.equal(200);
      expect(own.body.total).to.equal(1);
      expect(own.body.data[0]).to.include({ id: mine, lineItemCount: 1 });
      for (const token of [customer.token, approverA.token]) {
        const all = await (await as(token)).post('/order-approval/list', {});
        expect(all.body.data.map((a: { id: string }) => a.id)).to.have.members([mine, theirs]);
      }
      const filtered = await (
        await as(customer.token)
      ).post('/order-approval/list', { filter: [{ type: 'equals', field: 'requesterId', value: colleague.id }] });
      expect(filtered.body.data.map((a: { id: string }) => a.id)).to.deep.equal([theirs]);
      const stranger = await newCustomer();
      expect((await (await as(stranger.token)).post('/order-approval/list', {})).body.total).to.equal(0);
    });

    it('answers 400 for unknown fields and limits, 401 without login', async () => {
      const customer = await newCustomer();
      expectError(
        await (
          await as(customer.token)
        ).post('/order-approval/list', { filter: [{ type: 'equals', field: 'secret', value: 1 }] }),
        400,
      );
      expectError(await (await as(customer.token)).post('/order-approval/list', { limit: 501 }), 400);
      expectError(await (await as(null)).post('/order-approval/list', {}), 401);
    });
  });

  describe('GET /b2b/order-approval/{id}, /activity, /approvers', () => {
    it("shows the approval, its activity log and each approver's status to those involved", async () => {
      const { customer, requester, approverA, approverB } = await company();
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 2 });
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }], 'Urgent');
      await (await as(approverA.token)).post(`/b2b/order-approval/${id}/approve`, { comment: 'Fine by me' });
      const activity = await (await as(requester.token)).get(`/b2b/order-approval/${id}/activity`);
      expect(activity.status).to.equal(200);
      expect(activity.body.activities.map((a: { action: string }) => a.action)).to.deep.equal(['created', 'approved']);
      expect(activity.body.activities[1]).to.include({ comment: 'Fine by me', employeeName: 'Erin Employee' });
      const approvers = await (await as(approverB.token)).get(`/b2b/order-approval/${id}/approvers`);
      expect(approvers.status).to.equal(200);
      const byId = Object.fromEntries(
        approvers.body.approverStatus.approvers.map((a: { employeeId: string }) => [a.employeeId, a]),
      );
      expect(byId[approverA.id]).to.include({ status: 'approved', canApprove: false });
      expect(byId[approverB.id]).to.include({ status: 'pending', canApprove: true });
      expect(approvers.body.approverStatus).to.include({ isApproved: false, isDeclined: false });
    });

    it('once an approval is decided, an approver who did not decide is listed as not needed, not pending', async () => {
      const { customer, requester, approverA, approverB } = await company();
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 1 });
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      expect((await (await as(approverA.token)).post(`/b2b/order-approval/${id}/approve`, {})).status).to.equal(200);
      const approvers = await (await as(requester.token)).get(`/b2b/order-approval/${id}/approvers`);
      const byId = Object.fromEntries(
        approvers.body.approverStatus.approvers.map((a: { employeeId: string }) => [a.employeeId, a]),
      );
      expect(byId[approverA.id]).to.include({ status: 'approved', canApprove: false });
      expect(byId[approverB.id]).to.include({ status: 'not-needed', canApprove: false });
      expect(approvers.body.approverStatus).to.include({ isApproved: true });
    });

    it("answers 400 for a malformed id, 401, 403 for an uninvolved employee and 404 for another customer's approval", async () => {
      const { customer, requester } = await company();
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      const bystander = await employee(customer, ['orders.create']);
      const stranger = await newCustomer();
      for (const suffix of ['', '/activity', '/approvers']) {
        expectError(await (await as(requester.token)).get(`/b2b/order-approval/not-an-id${suffix}`), 400);
        expectError(await (await as(null)).get(`/b2b/order-approval/${id}${suffix}`), 401);
        expectError(
          await (await as(bystander.token)).get(`/b2b/order-approval/${id}${suffix}`),
          403,
          'SUITE__ORDER_APPROVAL_NOT_ALLOWED',
        );
        expectError(await (await as(stranger.token)).get(`/b2b/order-approval/${id}${suffix}`), 404);
        expectError(await (await as(customer.token)).get(`/b2b/order-approval/${OTHER_ID}${suffix}`), 404);
      }
    });
  });

  describe('POST /b2b/order-approval/{id}/approve', () => {
    it('n-of 2: one approval keeps it pending, the second approves it and mails the requester once with cc', async () => {
      const { customer, requester, approverA, approverB } = await company();
      const cc = await employee(customer, ['orders.read']);
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 2 });
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      expect(
        (
          await (
            await as(approverA.token)
          ).post(`/b2b/order-approval/${id}/approve`, { comment: 'ok', ccEmployeeIds: [cc.id] })
        ).status,
      ).to.equal(200);
      expect((await approval(requester.token, id)).status).to.equal('pending');
      expectError(
        await (await as(approverA.token)).post(`/b2b/order-approval/${id}/approve`, {}),
        400,
        'SUITE__ORDER_APPROVAL_ALREADY_DECIDED',
      );
      expect((await (await as(approverB.token)).post(`/b2b/order-approval/${id}/approve`, {})).status).to.equal(200);
      expect(await approval(requester.token, id)).to.include({ status: 'approved', isApproved: true });
      const mails = await outbox('order-approval-approved', requester.email);
      expect(mails).to.have.length(1);
      expect(JSON.parse(mails[0]!.cc)).to.deep.equal([cc.email]);
      expectError(
        await (await as(approverB.token)).post(`/b2b/order-approval/${id}/approve`, {}),
        400,
        'SUITE__ORDER_APPROVAL_NOT_APPROVABLE',
      );
    });

    it('by default an employee whose role holds order-approval.approve approves, as do the company admins; others and the requester may not', async () => {
      // No settings chosen (decision 0065): any-approver, one approval enough.
      const { customer, requester, approverA, approverB } = await company();
      const admin = await employee(customer, ['admin']);
      const bystander = await employee(customer, ['orders.create', 'orders.read']);
      const p = await product();
      const first = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      expect(await approval(requester.token, first)).to.include({ mode: 'any-approver', nValue: 1 });
      const listed = await (await as(requester.token)).get(`/b2b/order-approval/${first}/approvers`);
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
      const canApprove = Object.fromEntries(
        listed.body.approverStatus.approvers.map((a: { employeeId: string; canApprove: boolean }) => [
          a.employeeId,
          a.canApprove,
        ]),
      );
      expect(canApprove).to.deep.equal({
        [customer.customer.id]: true,
        [approverA.id]: true,
        [approverB.id]: true,
        [admin.id]: true,
      });
      // The approval-requested mail went to the approvers too, not only to the company admins.
      expect(await outbox('order-approval-requested', approverA.email)).to.have.length(1);
      for (const refused of [bystander, requester])
        expectError(
          await (await as(refused.token)).post(`/b2b/order-approval/${first}/approve`, {}),
          403,
          'SUITE__ORDER_APPROVAL_NOT_ALLOWED',
        );
      const approved = await (await as(approverA.token)).post(`/b2b/order-approval/${first}/approve`, {});
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      expect((await approval(requester.token, first)).status).to.equal('approved');
      const second = await requestApproval(requester.token, [{ productId: p.id, quantity: 2 }]);
      expect((await (await as(admin.token)).post(`/b2b/order-approval/${second}/approve`, {})).status).to.equal(200);
      expect((await approval(requester.token, second)).status).to.equal('approved');
      const third = await requestApproval(requester.token, [{ productId: p.id, quantity: 3 }]);
      expect((await (await as(customer.token)).post(`/b2b/order-approval/${third}/approve`, {})).status).to.equal(200);
      expect((await approval(requester.token, third)).status).to.equal('approved');
    });

    it('only-admins (chosen): the customer login and admin employees approve; plain approvers and the requester may not', async () => {
      const { customer, requester, approverA } = await company();
      const admin = await employee(customer, ['admin']);
      await setSettings(customer.token, { mode: 'only-admins' });
      const p = await product();
      const first = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      expectError(
        await (await as(approverA.token)).post(`/b2b/order-approval/${first}/approve`, {}),
        403,
        'SUITE__ORDER_APPROVAL_NOT_ALLOWED',
      );
      expectError(
        await (await as(requester.token)).post(`/b2b/order-approval/${first}/approve`, {}),
        403,
        'SUITE__ORDER_APPROVAL_NOT_ALLOWED',
      );
      expect((await (await as(admin.token)).post(`/b2b/order-approval/${first}/approve`, {})).status).to.equal(200);
      expect((await approval(requester.token, first)).status).to.equal('approved');
      const second = await requestApproval(requester.token, [{ productId: p.id, quantity: 2 }]);
      expect((await (await as(customer.token)).post(`/b2b/order-approval/${second}/approve`, {})).status).to.equal(200);
      expect((await approval(requester.token, second)).status).to.equal('approved');
    });

    it('never lets requesters approve their own request, even when listed as approver', async () => {
      const customer = await newCustomer();
      const both = await employee(customer, [...APPROVER_PERMISSIONS, ...REQUESTER_PERMISSIONS], {
        requiresApproval: true,
      });
      const other = await employee(customer, APPROVER_PERMISSIONS);
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [both.id, other.id], nValue: 1 });
      const p = await product();
      const id = await requestApproval(both.token, [{ productId: p.id, quantity: 1 }]);
      expectError(await (await as(both.token)).post(`/b2b/order-approval/${id}/approve`, {}), 403);
      const status = await (await as(both.token)).get(`/b2b/order-approval/${id}/approvers`);
      const self = status.body.approverStatus.approvers.find((a: { employeeId: string }) => a.employeeId === both.id);
      expect(self.canApprove).to.equal(false);
    });

    it("answers 400 for invalid bodies, 401 and 404 for another customer's approval", async () => {
      const { customer, requester } = await company();
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      expectError(
        await (await as(customer.token)).post(`/b2b/order-approval/${id}/approve`, { comment: 5 }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await (await as(customer.token)).post(`/b2b/order-approval/${id}/approve`, { ccEmployeeIds: ['nope'] }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await (await as(customer.token)).post(`/b2b/order-approval/${id}/approve`, { ccEmployeeIds: [OTHER_ID] }),
        400,
        'SUITE__UNKNOWN_EMPLOYEE',
      );
      expectError(await (await as(null)).post(`/b2b/order-approval/${id}/approve`, {}), 401);
      const stranger = await newCustomer();
      expectError(await (await as(stranger.token)).post(`/b2b/order-approval/${id}/approve`, {}), 404);
      expect((await approval(requester.token, id)).status).to.equal('pending');
    });
  });

  describe('POST /b2b/order-approval/{id}/decline', () => {
    it('one decline declines, releases the budget reservation and mails the requester and cc with the reason', async () => {
      const { customer, requester, approverA, approverB } = await company();
      const cc = await employee(customer, ['orders.read']);
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 2 });
      const budget = await createBudget(customer.token, { amount: 1000, employeeIds: [requester.id] });
      const p = await product({ priceNet: 10000 });
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      expect((await (await as(customer.token)).get(`/budget/${budget.id}`)).body.reserved).to.equal(100);
      await (await as(approverA.token)).post(`/b2b/order-approval/${id}/approve`, {});
      const res = await (
        await as(approverB.token)
      ).post(`/b2b/order-approval/${id}/decline`, { comment: 'Too expensive', ccEmployeeIds: [cc.id] });
      expect(res.status).to.equal(200);
      expect(await approval(requester.token, id)).to.include({ status: 'declined', isDeclined: true });
      expect((await (await as(customer.token)).get(`/budget/${budget.id}`)).body.reserved).to.equal(0);
      const [mail] = await outbox('order-approval-declined', requester.email);
      expect(JSON.parse(mail!.data).comment).to.equal('Too expensive');
      expect(JSON.parse(mail!.cc)).to.deep.equal([cc.email]);
      expectError(
        await (await as(approverA.token)).post(`/b2b/order-approval/${id}/decline`, { comment: 'again' }),
        400,
        'SUITE__ORDER_APPROVAL_NOT_DECLINABLE',
      );
    });

    it("needs a comment (400), a login (401), an approver (403) and the customer's own approval (404)", async () => {
      const { customer, requester, approverA } = await company();
      // approverA is no approver once the company names someone else.
      const chosen = await employee(customer, APPROVER_PERMISSIONS);
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [chosen.id], nValue: 1 });
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      expectError(
        await (await as(customer.token)).post(`/b2b/order-approval/${id}/decline`, {}),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await (await as(customer.token)).post(`/b2b/order-approval/${id}/decline`, { comment: '   ' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(await (await as(null)).post(`/b2b/order-approval/${id}/decline`, { comment: 'no' }), 401);
      expectError(await (await as(approverA.token)).post(`/b2b/order-approval/${id}/decline`, { comment: 'no' }), 403);
      expectError(await (await as(requester.token)).post(`/b2b/order-approval/${id}/decline`, { comment: 'no' }), 403);
      const stranger = await newCustomer();
      expectError(await (await as(stranger.token)).post(`/b2b/order-approval/${id}/decline`, { comment: 'no' }), 404);
      expect((await approval(requester.token, id)).status).to.equal('pending');
    });
  });

  describe('customer settings, count-pending, update-pending', () => {
    it('reads defaults, saves n-of settings and validates them', async () => {
      const { customer, requester, approverA, approverB } = await company();
      const client = await as(customer.token);
      const defaults = await (await as(requester.token)).get('/b2b/order-approval/customer-settings');
      expect(defaults.status).to.equal(200);
      expect(defaults.body.settings).to.deep.equal({ mode: 'any-approver', approverEmployeeIds: [], nValue: 1 });
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 2 });
      expect((await client.get('/b2b/order-approval/customer-settings')).body.settings).to.deep.equal({
        mode: 'n-of',
        approverEmployeeIds: [approverA.id, approverB.id],
        nValue: 2,
      });
      expectError(
        await client.post('/b2b/order-approval/customer-settings', { mode: 'everyone' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await client.post('/b2b/order-approval/customer-settings', {
          mode: 'n-of',
          approverEmployeeIds: [approverA.id],
          nValue: 2,
        }),
        400,
        'SUITE__INVALID_APPROVAL_SETTINGS',
      );
      expectError(
        await client.post('/b2b/order-approval/customer-settings', {
          mode: 'n-of',
          approverEmployeeIds: [requester.id],
          nValue: 1,
        }),
        400,
        'SUITE__APPROVER_NOT_PERMITTED',
      );
      const stranger = await newCustomer();
      const strangerEmployee = await employee(stranger, APPROVER_PERMISSIONS);
      expectError(
        await client.post('/b2b/order-approval/customer-settings', {
          mode: 'n-of',
          approverEmployeeIds: [strangerEmployee.id],
          nValue: 1,
        }),
        400,
        'SUITE__UNKNOWN_EMPLOYEE',
      );
      expect(
        (await (await as(stranger.token)).get('/b2b/order-approval/customer-settings')).body.settings.mode,
      ).to.equal('any-approver');
      // A choice stays as chosen, the default's own mode too.
      await setSettings(customer.token, { mode: 'only-admins' });
      expect((await client.get('/b2b/order-approval/customer-settings')).body.settings.mode).to.equal('only-admins');
      await setSettings(customer.token, { mode: 'any-approver' });
      expect((await client.get('/b2b/order-approval/customer-settings')).body.settings).to.deep.equal({
        mode: 'any-approver',
        approverEmployeeIds: [],
        nValue: 1,
      });
    });

    it('needs a login for all and the settings permission to change them or count and update pending ones', async () => {
      const { requester } = await company();
      expectError(await (await as(null)).get('/b2b/order-approval/customer-settings'), 401);
      expectError(await (await as(null)).post('/b2b/order-approval/customer-settings', { mode: 'only-admins' }), 401);
      expectError(await (await as(null)).get('/b2b/order-approval/settings/count-pending'), 401);
      expectError(await (await as(null)).post('/b2b/order-approval/settings/update-pending', {}), 401);
      expectError(
        await (await as(requester.token)).post('/b2b/order-approval/customer-settings', { mode: 'only-admins' }),
        403,
      );
      expectError(await (await as(requester.token)).get('/b2b/order-approval/settings/count-pending'), 403);
      expectError(await (await as(requester.token)).post('/b2b/order-approval/settings/update-pending', {}), 403);
    });

    it('counts pending approvals and re-applies changed settings to them', async () => {
      const { customer, requester, approverA, approverB } = await company();
      const manager = await employee(customer, ['order-approval.manage-settings']);
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 2 });
      const p = await product();
      const first = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      const second = await requestApproval(requester.token, [{ productId: p.id, quantity: 2 }]);
      await (await as(approverA.token)).post(`/b2b/order-approval/${first}/approve`, {});
      const count = await (await as(manager.token)).get('/b2b/order-approval/settings/count-pending');
      expect(count.status).to.equal(200);
      expect(count.body).to.deep.equal({ count: 2 });
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 1 });
      expect((await approval(requester.token, first)).nValue).to.equal(2);
      expectError(
        await (await as(manager.token)).post('/b2b/order-approval/settings/update-pending', { extra: true }),
        400,
      );
      const updated = await (await as(manager.token)).post('/b2b/order-approval/settings/update-pending', {});
      expect(updated.status).to.equal(200);
      expect(updated.body).to.deep.equal({ updatedCount: 2 });
      expect(await approval(requester.token, first)).to.include({ status: 'approved', nValue: 1 });
      expect(await approval(requester.token, second)).to.include({ status: 'pending', nValue: 1 });
      expect((await (await as(manager.token)).get('/b2b/order-approval/settings/count-pending')).body).to.deep.equal({
        count: 1,
      });
    });
  });

  describe('GET /b2b/order-approval/budget/{budgetId}/summary', () => {
    it('sums what open approvals reserve on the budget', async () => {
      const { customer, requester } = await company();
      const budget = await createBudget(customer.token, { amount: 500, employeeIds: [requester.id] });
      const p = await product({ priceNet: 4000 });
      const first = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      await requestApproval(requester.token, [{ productId: p.id, quantity: 2 }]);
      const res = await (await as(requester.token)).get(`/b2b/order-approval/budget/${budget.id}/summary`);
      expect(res.status).to.equal(200);
      expect(res.body.budgetSummary).to.include({ budgetId: budget.id, totalReserved: 120, pendingApprovals: 2 });
      expect(res.body.budgetSummary.orderApprovals.map((a: { id: string }) => a.id)).to.include(first);
    });

    it("answers 400, 401, 403 without budget.read and 404 for another customer's budget", async () => {
      const { customer } = await company();
      const budget = await createBudget(customer.token, { amount: 500 });
      const noBudgets = await employee(customer, ['orders.create']);
      const stranger = await newCustomer();
      expectError(await (await as(customer.token)).get('/b2b/order-approval/budget/nope/summary'), 400);
      expectError(await (await as(null)).get(`/b2b/order-approval/budget/${budget.id}/summary`), 401);
      expectError(await (await as(noBudgets.token)).get(`/b2b/order-approval/budget/${budget.id}/summary`), 403);
      expectError(await (await as(stranger.token)).get(`/b2b/order-approval/budget/${budget.id}/summary`), 404);
    });
  });
});
