import { expect } from 'chai';
import { getShop, expectError } from '../../helpers/shop.js';
import { placeOrder } from '../../helpers/checkout.js';
import {
  APPROVER_PERMISSIONS,
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

const OTHER_ID = 'ffffffffffffffffffffffffffffffff';

async function setPrice(productId: string, priceNet: number): Promise<void> {
  await (await getShop()).db('products').where({ id: productId }).update({ price_net: priceNet });
}

async function setProduct(productId: string, changes: Record<string, unknown>): Promise<void> {
  await (await getShop()).db('products').where({ id: productId }).update(changes);
}

/** A company whose requester has an approved approval (only-admins, approved by the customer login). */
async function approvedApproval(quantity = 2, priceNet = 1500) {
  const setup = await company();
  const p = await product({ priceNet });
  const id = await requestApproval(setup.requester.token, [{ productId: p.id, quantity }]);
  expect((await (await as(setup.customer.token)).post(`/b2b/order-approval/${id}/approve`, {})).status).to.equal(200);
  return { ...setup, product: p, id };
}

describe('order approval: execute, refresh, line items, update, reminders, checkout', () => {
  before(startShop);
  describe('checkout interception', () => {
    it('refuses a direct order of an employee whose role requires approval and points to /order-approval/create', async () => {
      const { requester } = await company();
      const p = await product();
      await fillCart(requester.token, [{ productId: p.id, quantity: 1 }]);
      const error = expectError(await placeOrder(requester.token), 400, 'SUITE__ORDER_APPROVAL_REQUIRED') as {
        meta?: Record<string, any>;
        detail?: string;
      };
      expect(error.meta?.reason).to.equal('role');
      // The detail is read by people (the storefront shows it); the path is for clients, in meta.
      expect(error.detail).to.equal('Your orders need approval: request approval for this order instead.');
      expect(error.meta?.createApproval).to.deep.equal({ method: 'POST', path: '/store-api/order-approval/create' });
    });

    it('lets employees without the approval requirement and the customer login order directly', async () => {
      const { customer, approverA } = await company();
      const p = await product();
      for (const token of [approverA.token, customer.token]) {
        await fillCart(token, [{ productId: p.id, quantity: 1 }]);
        expect((await placeOrder(token)).status).to.equal(200);
      }
    });
  });

  describe('POST /b2b/order-approval/{id}/execute', () => {
    it("places one order with the approval's lines and returns the same result when called again", async () => {
      const { requester, id, product: p } = await approvedApproval(2, 1500);
      const first = await (await as(requester.token)).post(`/b2b/order-approval/${id}/execute`, {});
      expect(first.status).to.equal(200);
      const result = first.body.executionResult;
      expect(result).to.include({ success: true, requiresPaymentAction: false });
      expect(result.orderId).to.match(/^[0-9a-f]{32}$/);
      const again = await (await as(requester.token)).post(`/b2b/order-approval/${id}/execute`, { skipRefresh: true });
      expect(again.status).to.equal(200);
      expect(again.body.executionResult).to.deep.equal(result);
      const order = await (await as(requester.token)).get(`/order/${result.orderId}`);
      expect(order.status).to.equal(200);
      expect(order.body.orderNumber).to.equal(result.orderNumber);
      expect(order.body.lineItems).to.have.length(1);
      expect(order.body.lineItems[0]).to.include({ productId: p.id, quantity: 2, unitPrice: 15 });
      expect(order.body.customFields.orderApprovalId).to.equal(id);
      expect(await approval(requester.token, id)).to.include({
        status: 'ordered',
        orderId: result.orderId,
        isOrdered: true,
      });
      const count = await (
        await getShop()
      )
        .db('orders')
        .where({ customer_id: order.body.orderCustomer.customerId })
        .count({ n: '*' });
      expect(Number(count[0]!.n)).to.equal(1);
    });

    it('refuses pending and declined approvals (400) and callers who are neither requester nor admin (403)', async () => {
      const { customer, requester, approverA } = await company();
      const p = await product();
      const pending = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      expectError(
        await (await as(requester.token)).post(`/b2b/order-approval/${pending}/execute`, {}),
        400,
        'SUITE__ORDER_APPROVAL_NOT_EXECUTABLE',
      );
      expectError(
        await (await as(requester.token)).post(`/b2b/order-approval/${pending}/execute`, { skipRefresh: 'yes' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(await (await as(null)).post(`/b2b/order-approval/${pending}/execute`, {}), 401);
      await (await as(customer.token)).post(`/b2b/order-approval/${pending}/approve`, {});
      expectError(await (await as(approverA.token)).post(`/b2b/order-approval/${pending}/execute`, {}), 403);
      const stranger = await newCustomer();
      expectError(await (await as(stranger.token)).post(`/b2b/order-approval/${pending}/execute`, {}), 404);
      expectError(await (await as(customer.token)).post(`/b2b/order-approval/${OTHER_ID}/execute`, {}), 404);
      const declined = await requestApproval(requester.token, [{ productId: p.id, quantity: 3 }]);
      await (await as(customer.token)).post(`/b2b/order-approval/${declined}/decline`, { comment: 'No' });
      expectError(
        await (await as(requester.token)).post(`/b2b/order-approval/${declined}/execute`, {}),
        400,
        'SUITE__ORDER_APPROVAL_NOT_EXECUTABLE',
      );
      // The company admin may execute on the requester's behalf.
      expect(
        (await (await as(customer.token)).post(`/b2b/order-approval/${pending}/execute`, {})).body.executionResult
          .success,
      ).to.equal(true);
    });

    it('refreshes first: a price rise sends it back for approval instead of ordering', async () => {
      const { requester, id, product: p } = await approvedApproval(1, 1000);
      await setPrice(p.id, 1200);
      const res = await (await as(requester.token)).post(`/b2b/order-approval/${id}/execute`, {});
      const error = expectError(res, 400, 'SUITE__ORDER_APPROVAL_REAPPROVAL_REQUIRED') as {
        meta?: Record<string, any>;
      };
      expect(error.meta?.refreshResult).to.include({ hasChanges: true, requiresReapproval: true });
      expect(await approval(requester.token, id)).to.include({ status: 'pending', totalPrice: 14.28 });
    });

    it('with skipRefresh orders at the approved prices; a product out of stock fails without an order', async () => {
      const { requester, id, product: p } = await approvedApproval(1, 1000);
      await setPrice(p.id, 1200);
      await setProduct(p.id, { stock: 0 });
      const failed = await (await as(requester.token)).post(`/b2b/order-approval/${id}/execute`, { skipRefresh: true });
      const error = expectError(failed, 400, 'SUITE__ORDER_APPROVAL_EXECUTION_FAILED') as {
        meta?: Record<string, any>;
      };
      expect(error.meta?.executionResult).to.include({ success: false });
      expect((await approval(requester.token, id)).status).to.equal('approved');
      await setProduct(p.id, { stock: 5 });
      const ok = await (await as(requester.token)).post(`/b2b/order-approval/${id}/execute`, { skipRefresh: true });
      expect(ok.status).to.equal(200);
      const order = await (await as(requester.token)).get(`/order/${ok.body.executionResult.orderId}`);
      expect(order.body.lineItems[0].unitPrice).to.equal(10);
    });
  });

  describe('POST /b2b/order-approval/{id}/refresh', () => {
    it('reports price changes, resets decisions when the total rises and mails the requester on request', async () => {
      const { customer, requester, approverA, approverB } = await company();
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 2 });
      const p = await product({ priceNet: 1000 });
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 2 }]);
      await (await as(approverA.token)).post(`/b2b/order-approval/${id}/approve`, {});
      const unchanged = await (await as(requester.token)).post(`/b2b/order-approval/${id}/refresh`, {});
      expect(unchanged.status).to.equal(200);
      expect(unchanged.body.refreshResult).to.deep.equal({
        isValid: true,
        isBlocked: false,
        blockReasons: [],
        hasChanges: false,
        changes: [],
        requiresReapproval: false,
      });
      await setPrice(p.id, 1100);
      const tooSoon = await (await as(requester.token)).post(`/b2b/order-approval/${id}/refresh`, {});
      expectError(tooSoon, 400, 'SUITE__ORDER_APPROVAL_REFRESH_TOO_SOON');
      const forced = await (
        await as(requester.token)
      ).post(`/b2b/order-approval/${id}/refresh`, { force: true, sendEmailOnChanges: true });
      expect(forced.status).to.equal(200);
      const result = forced.body.refreshResult;
      expect(result).to.include({ hasChanges: true, requiresReapproval: true, isBlocked: false });
      expect(result.changes[0]).to.include({
        type: 'price',
        oldUnitPrice: 10,
        newUnitPrice: 11,
        oldTotalPrice: 20,
        newTotalPrice: 22,
      });
      const status = await (await as(requester.token)).get(`/b2b/order-approval/${id}/approvers`);
      expect(status.body.approverStatus.approvers.every((a: { status: string }) => a.status === 'pending')).to.equal(
        true,
      );
      expect(await outbox('order-approval-changes', requester.email)).to.have.length(1);
      expect(await outbox('order-approval-requested', approverA.email)).to.have.length(2);
    });

    it('blocks the approval while a product is gone or out of stock, and unblocks once it is back', async () => {
      const { customer, requester, id, product: p } = await approvedApproval(3, 1000);
      await setProduct(p.id, { active: false });
      const gone = (await (await as(requester.token)).post(`/b2b/order-approval/${id}/refresh`, { force: true })).body
        .refreshResult;
      expect(gone).to.include({ isBlocked: true, isValid: false });
      expect(gone.blockReasons[0]).to.contain('no longer available');
      expectError(
        await (await as(requester.token)).post(`/b2b/order-approval/${id}/execute`, { skipRefresh: true }),
        400,
        'SUITE__ORDER_APPROVAL_BLOCKED',
      );
      await setProduct(p.id, { active: true, stock: 2 });
      const short = (await (await as(customer.token)).post(`/b2b/order-approval/${id}/refresh`, { force: true })).body
        .refreshResult;
      expect(short.isBlocked).to.equal(true);
      expect(short.changes[0]).to.include({ type: 'out-of-stock', availableStock: 2 });
      await setProduct(p.id, { stock: 50 });
      const back = (await (await as(requester.token)).post(`/b2b/order-approval/${id}/refresh`, { force: true })).body
        .refreshResult;
      expect(back).to.include({ isBlocked: false, isValid: true });
      expect((await approval(requester.token, id)).isBlocked).to.equal(false);
    });

    it('answers 400 for invalid bodies and ordered approvals, 401, 403 for bystanders and 404 for other customers', async () => {
      const { customer, requester, id } = await approvedApproval();
      const bystander = await employee(customer, ['orders.create']);
      expectError(
        await (await as(requester.token)).post(`/b2b/order-approval/${id}/refresh`, { force: 1 }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(await (await as(null)).post(`/b2b/order-approval/${id}/refresh`, {}), 401);
      expectError(await (await as(bystander.token)).post(`/b2b/order-approval/${id}/refresh`, {}), 403);
      expectError(await (await as((await newCustomer()).token)).post(`/b2b/order-approval/${id}/refresh`, {}), 404);
      await (await as(requester.token)).post(`/b2b/order-approval/${id}/execute`, {});
      expectError(
        await (await as(requester.token)).post(`/b2b/order-approval/${id}/refresh`, { force: true }),
        400,
        'SUITE__ORDER_APPROVAL_NOT_REFRESHABLE',
      );
    });
  });

  describe('line items', () => {
    it('an approver changes a quantity: re-priced, logged, and a higher total needs the approvals again', async () => {
      const { customer, requester, approverA, approverB } = await company();
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 2 });
      const p = await product({ priceNet: 1000 });
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 4 }]);
      const lineId = (await approval(requester.token, id)).lineItems[0].id;
      await (await as(approverA.token)).post(`/b2b/order-approval/${id}/approve`, {});
      expect(
        (await (await as(approverB.token)).patch(`/b2b/order-approval/${id}/line-items/${lineId}`, { quantity: 2 }))
          .status,
      ).to.equal(200);
      let detail = await approval(requester.token, id);
      expect(detail.lineItems[0]).to.include({ quantity: 2, totalPrice: 20 });
      expect(detail.netPrice).to.equal(20);
      let approvers = (await (await as(requester.token)).get(`/b2b/order-approval/${id}/approvers`)).body.approverStatus
        .approvers;
      expect(approvers.find((a: { employeeId: string }) => a.employeeId === approverA.id).status).to.equal('approved');
      expect(
        (await (await as(approverB.token)).patch(`/b2b/order-approval/${id}/line-items/${lineId}`, { quantity: 5 }))
          .status,
      ).to.equal(200);
      detail = await approval(requester.token, id);
      expect(detail.netPrice).to.equal(50);
      approvers = (await (await as(requester.token)).get(`/b2b/order-approval/${id}/approvers`)).body.approverStatus
        .approvers;
      expect(approvers.every((a: { status: string }) => a.status === 'pending')).to.equal(true);
      const log = (await (await as(requester.token)).get(`/b2b/order-approval/${id}/activity`)).body.activities;
      const edits = log.filter((a: { action: string }) => a.action === 'line-item-updated');
      expect(
        edits.map((a: { metadata: { oldQuantity: number; newQuantity: number } }) => [
          a.metadata.oldQuantity,
          a.metadata.newQuantity,
        ]),
      ).to.deep.equal([
        [4, 2],
        [2, 5],
      ]);
    });

    it('an approver deletes a line with a reason; the last line cannot go', async () => {
      const { customer, requester } = await company();
      const budget = await createBudget(customer.token, { amount: 1000, employeeIds: [requester.id] });
      const [a, b] = [await product({ priceNet: 1000 }), await product({ priceNet: 3000 })];
      const id = await requestApproval(requester.token, [
        { productId: a.id, quantity: 1 },
        { productId: b.id, quantity: 1 },
      ]);
      expect((await (await as(customer.token)).get(`/budget/${budget.id}`)).body.reserved).to.equal(40);
      const lines = (await approval(requester.token, id)).lineItems;
      const lineB = lines.find((l: { productId: string }) => l.productId === b.id).id;
      const lineA = lines.find((l: { productId: string }) => l.productId === a.id).id;
      expect(
        (
          await (
            await as(customer.token)
          ).post(`/b2b/order-approval/${id}/line-items/${lineB}/delete`, { reason: 'Not needed' })
        ).status,
      ).to.equal(200);
      const detail = await approval(requester.token, id);
      expect(detail.lineItems.map((l: { id: string }) => l.id)).to.deep.equal([lineA]);
      expect((await (await as(customer.token)).get(`/budget/${budget.id}`)).body.reserved).to.equal(10);
      const log = (await (await as(requester.token)).get(`/b2b/order-approval/${id}/activity`)).body.activities.at(-1);
      expect(log).to.include({ action: 'line-item-deleted', comment: 'Not needed' });
      expectError(
        await (
          await as(customer.token)
        ).post(`/b2b/order-approval/${id}/line-items/${lineA}/delete`, { reason: 'All gone' }),
        400,
        'SUITE__ORDER_APPROVAL_LAST_LINE_ITEM',
      );
    });

    it('answers 400, 401, 403 for the requester and bystanders, 404 for unknown lines and other customers', async () => {
      const { customer, requester } = await company();
      const bystander = await employee(customer, ['orders.create', 'orders.read']);
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      const lineId = (await approval(requester.token, id)).lineItems[0].id;
      const admin = await as(customer.token);
      expectError(
        await admin.patch(`/b2b/order-approval/${id}/line-items/${lineId}`, { quantity: 0 }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await admin.post(`/b2b/order-approval/${id}/line-items/${lineId}/delete`, {}),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(await (await as(null)).patch(`/b2b/order-approval/${id}/line-items/${lineId}`, { quantity: 2 }), 401);
      expectError(
        await (await as(null)).post(`/b2b/order-approval/${id}/line-items/${lineId}/delete`, { reason: 'x' }),
        401,
      );
      for (const token of [requester.token, bystander.token]) {
        expectError(
          await (await as(token)).patch(`/b2b/order-approval/${id}/line-items/${lineId}`, { quantity: 2 }),
          403,
        );
        expectError(
          await (await as(token)).post(`/b2b/order-approval/${id}/line-items/${lineId}/delete`, { reason: 'x' }),
          403,
        );
      }
      expectError(await admin.patch(`/b2b/order-approval/${id}/line-items/${OTHER_ID}`, { quantity: 2 }), 404);
      expectError(await admin.post(`/b2b/order-approval/${id}/line-items/${OTHER_ID}/delete`, { reason: 'x' }), 404);
      const stranger = await as((await newCustomer()).token);
      expectError(await stranger.patch(`/b2b/order-approval/${id}/line-items/${lineId}`, { quantity: 2 }), 404);
      expectError(await stranger.post(`/b2b/order-approval/${id}/line-items/${lineId}/delete`, { reason: 'x' }), 404);
      await admin.post(`/b2b/order-approval/${id}/decline`, { comment: 'no' });
      expectError(
        await admin.patch(`/b2b/order-approval/${id}/line-items/${lineId}`, { quantity: 2 }),
        400,
        'SUITE__ORDER_APPROVAL_NOT_EDITABLE',
      );
    });
  });

  describe('POST /b2b/order-approval/{id}/update', () => {
    it('the requester changes comment and address of a pending approval; the activity records it', async () => {
      const { customer, requester } = await company();
      const addresses = (await (await as(customer.token)).get('/account/customer')).body.addresses;
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      const res = await (
        await as(requester.token)
      ).post(`/b2b/order-approval/${id}/update`, {
        customerComment: 'Deliver to gate 2',
        shippingAddressId: addresses[0].id,
      });
      expect(res.status).to.equal(200);
      expect(await approval(requester.token, id)).to.include({
        customerComment: 'Deliver to gate 2',
        shippingAddressId: addresses[0].id,
      });
      expect(
        (await (await as(requester.token)).get(`/b2b/order-approval/${id}/activity`)).body.activities.at(-1).action,
      ).to.equal('updated');
    });

    it('answers 400 for empty or foreign input and finished approvals, 401, 403 and 404', async () => {
      const { customer, requester, approverA } = await company();
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      const client = await as(requester.token);
      // An update that names nothing says what it needs (docs/budgets-and-approval.md).
      const empty = await client.post(`/b2b/order-approval/${id}/update`, {});
      expectError(empty, 400, 'SUITE__APPROVAL_UPDATE_EMPTY');
      expect(empty.body.errors[0].detail)
        .to.contain('customerComment')
        .and.contain('billingAddressId')
        .and.contain('shippingAddressId');
      expectError(await client.post(`/b2b/order-approval/${id}/update`), 400, 'SUITE__APPROVAL_UPDATE_EMPTY');
      expectError(
        await client.post(`/b2b/order-approval/${id}/update`, { shippingAddressId: OTHER_ID }),
        400,
        'SUITE__UNKNOWN_ADDRESS',
      );
      expectError(await (await as(null)).post(`/b2b/order-approval/${id}/update`, { customerComment: 'x' }), 401);
      expectError(
        await (await as(approverA.token)).post(`/b2b/order-approval/${id}/update`, { customerComment: 'x' }),
        403,
      );
      expectError(
        await (
          await as((await newCustomer()).token)
        ).post(`/b2b/order-approval/${id}/update`, { customerComment: 'x' }),
        404,
      );
      await (await as(customer.token)).post(`/b2b/order-approval/${id}/decline`, { comment: 'no' });
      expectError(
        await client.post(`/b2b/order-approval/${id}/update`, { customerComment: 'x' }),
        400,
        'SUITE__ORDER_APPROVAL_NOT_UPDATABLE',
      );
    });
  });

  describe('reminders', () => {
    it('remind and remind/all mail pending approvers, at most once per approver per interval', async () => {
      const { customer, requester, approverA, approverB } = await company();
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 2 });
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      await (await as(approverA.token)).post(`/b2b/order-approval/${id}/approve`, {});
      const one = await (
        await as(requester.token)
      ).post(`/b2b/order-approval/${id}/remind`, { approverId: approverB.id });
      expect(one.status).to.equal(200);
      expect(one.body).to.deep.equal({ remindersSent: 1, approverId: approverB.id });
      const all = await (await as(requester.token)).post(`/b2b/order-approval/${id}/remind/all`, {});
      expect(all.body).to.deep.equal({ remindersSent: 0 });
      expect(await outbox('order-approval-reminder', approverB.email)).to.have.length(1);
      expect(await outbox('order-approval-reminder', approverA.email)).to.have.length(0);
    });

    it('answers 400, 401, 403 for approvers, 404 for unknown approvers and other customers', async () => {
      const { customer, requester, approverA } = await company();
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      const client = await as(requester.token);
      expectError(await client.post(`/b2b/order-approval/${id}/remind`, {}), 400, 'SUITE__INVALID_INPUT');
      expectError(
        await client.post(`/b2b/order-approval/${id}/remind/all`, { approverId: OTHER_ID }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(await (await as(null)).post(`/b2b/order-approval/${id}/remind`, { approverId: OTHER_ID }), 401);
      expectError(await (await as(null)).post(`/b2b/order-approval/${id}/remind/all`, {}), 401);
      expectError(await (await as(approverA.token)).post(`/b2b/order-approval/${id}/remind/all`, {}), 403);
      expectError(await client.post(`/b2b/order-approval/${id}/remind`, { approverId: OTHER_ID }), 404);
      const stranger = await as((await newCustomer()).token);
      expectError(await stranger.post(`/b2b/order-approval/${id}/remind`, { approverId: customer.customer.id }), 404);
      expectError(await stranger.post(`/b2b/order-approval/${id}/remind/all`, {}), 404);
      // The customer login is an approver to remind (the default settings: any-approver).
      expect(
        (await client.post(`/b2b/order-approval/${id}/remind`, { approverId: customer.customer.id })).body
          .remindersSent,
      ).to.equal(1);
      await (await as(customer.token)).post(`/b2b/order-approval/${id}/approve`, {});
      expectError(
        await client.post(`/b2b/order-approval/${id}/remind/all`, {}),
        400,
        'SUITE__ORDER_APPROVAL_NOT_REMINDABLE',
      );
    });

    it('the scheduled job reminds approvers of approvals pending longer than the interval', async () => {
      const { customer, requester } = await company();
      const admin = await employee(customer, ['admin']);
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      const shop = await getShop();
      await shop.db('suite_order_approvals').where({ id }).update({ created_at: '2020-01-01 00:00:00.000' });
      const job = () => shop.jobs.runHandler('order-approval.remind-overdue', {});
      await job();
      await job();
      expect(shop.internals.registries.jobSchedules.get('order-approval.remind-overdue')).to.be.a('number');
      expect(await outbox('order-approval-reminder', admin.email)).to.have.length(1);
      expect(await outbox('order-approval-reminder', customer.email)).to.have.length(1);
    });
  });
});

describe('order approval: n-of approvers need the approve permission', () => {
  it('an approver whose role lost the permission cannot approve', async () => {
    const { customer, requester, approverA } = await company();
    const spare = await employee(customer, APPROVER_PERMISSIONS);
    await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, spare.id], nValue: 1 });
    const roleId = (await (await as(approverA.token)).get('/context')).body.employee.roleId;
    expect(
      (await (await as(customer.token)).patch(`/b2b/employee-roles/${roleId}`, { permissions: ['orders.create'] }))
        .status,
    ).to.equal(200);
    const p = await product();
    const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
    expectError(await (await as(approverA.token)).post(`/b2b/order-approval/${id}/approve`, {}), 403);
  });
});
