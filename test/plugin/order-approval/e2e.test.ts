import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { adminToken, deliverMail, expectError, http, testMailbox } from '../../helpers/shop.js';
import type { ReceivedMail } from '../../helpers/smtp.js';
import { as, startShop } from './helpers.js';

/** The merchant's Admin API, with a bearer token. */
async function merchant() {
  const token = await adminToken();
  const agent = await http();
  return {
    post: (path: string, body: unknown) =>
      agent
        .post(`/api${path}`)
        .set('authorization', `Bearer ${token}`)
        .send(body as object),
    patch: (path: string, body: unknown) =>
      agent
        .patch(`/api${path}`)
        .set('authorization', `Bearer ${token}`)
        .send(body as object),
  };
}

async function login(email: string, password: string): Promise<string> {
  const res = await (await http()).post('/store-api/account/login').send({ email, password });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.contextToken;
}

async function mailTo(address: string, subjectPart: string): Promise<ReceivedMail> {
  await deliverMail();
  return (await testMailbox()).waitFor(
    (m) => m.envelopeTo.includes(address) && String(m.subject).includes(subjectPart),
  );
}

describe('order approval end to end, as the clients see it', function () {
  before(startShop);
  this.timeout(120000);

  it('n-of 2: request, approve, price rise, refresh, re-approve, execute, budget order list', async () => {
    const suffix = newId().slice(0, 10);
    // The merchant sets up the catalog and the business customer through the Admin API.
    const api = await merchant();
    const categoryId = (await api.post('/category', { name: `Office ${suffix}` })).body.data.id;
    const productRes = await api.post('/product', {
      productNumber: `E2E-${suffix}`,
      name: 'Ergonomic chair',
      price: 200,
      taxRate: 19,
      stock: 20,
      categoryIds: [categoryId],
    });
    expect(productRes.status).to.equal(201);
    const productId = productRes.body.data.id;
    const adminEmail = `admin-${suffix}@acme.test`;
    expect(
      (
        await api.post('/customer', {
          email: adminEmail,
          password: 'acme-admin-password',
          firstName: 'Ada',
          lastName: 'Admin',
          company: `Acme ${suffix}`,
        })
      ).status,
    ).to.equal(201);

    // The company admin sets up roles, employees, the approval rule and a budget through the Store API.
    const admin = await as(await login(adminEmail, 'acme-admin-password'));
    const role = async (name: string, permissions: string[], requiresApproval: boolean) => {
      const res = await admin.post('/b2b/employee-roles/create', { name, permissions, requiresApproval });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.role.id as string;
    };
    const buyerRole = await role(
      'Buyer',
      ['orders.create', 'orders.read', 'order-approval.request', 'budget.read'],
      true,
    );
    const approverRole = await role('Approver', ['orders.create', 'order-approval.approve', 'budget.read'], false);
    const people: Record<string, { id: string; email: string; password: string }> = {};
    for (const [key, roleId, firstName] of [
      ['buyer', buyerRole, 'Bea'],
      ['anna', approverRole, 'Anna'],
      ['otto', approverRole, 'Otto'],
    ] as const) {
      const email = `${key}-${suffix}@acme.test`;
      const password = `${key}-password-${suffix}`;
      const res = await admin.post('/b2b/employee', { email, firstName, lastName: 'Acme', roleId, password });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      people[key] = { id: res.body.id, email, password };
    }
    expect(
      (
        await admin.post('/b2b/order-approval/customer-settings', {
          mode: 'n-of',
          approverEmployeeIds: [people.anna!.id, people.otto!.id],
          nValue: 2,
        })
      ).status,
    ).to.equal(200);
    const budgetRes = await admin.post('/budget', {
      name: 'Furniture',
      amount: 5000,
      periodType: 'monthly',
      employeeIds: [people.buyer!.id],
      categoryIds: [categoryId],
    });
    expect(budgetRes.status).to.equal(200);
    const budgetId = budgetRes.body.budget.id;

    // The buyer fills a cart; a direct order is refused and points to an approval request.
    const buyer = await as(await login(people.buyer!.email, people.buyer!.password));
    const cart = await buyer.post('/checkout/cart/line-item', { items: [{ productId, quantity: 3 }] });
    expect(cart.status).to.equal(200);
    const refused = expectError(await buyer.post('/checkout/order', {}), 400, 'SUITE__ORDER_APPROVAL_REQUIRED') as {
      meta?: { createApproval?: { path: string } };
    };
    expect(refused.meta?.createApproval?.path).to.equal('/store-api/order-approval/create');
    const created = await buyer.post('/order-approval/create', {
      cartToken: cart.body.token,
      customerComment: 'Chairs for the new team',
    });
    expect(created.status).to.equal(200);
    const approvalPath = String(created.headers.location).replace('/store-api', '');
    const number = (await buyer.get(approvalPath)).body.approvalNumber as string;
    expect((await buyer.delete('/checkout/cart')).status).to.equal(204);

    // Both approvers get the request by mail.
    for (const key of ['anna', 'otto']) {
      const mail = await mailTo(people[key]!.email, number);
      expect(mail.subject).to.contain('Approval requested');
      expect(mail.text).to.contain('3 x Ergonomic chair');
      expect(mail.text).to.contain('Chairs for the new team');
    }

    // Anna finds it in her list and approves.
    const anna = await as(await login(people.anna!.email, people.anna!.password));
    const otto = await as(await login(people.otto!.email, people.otto!.password));
    const listed = await anna.post('/order-approval/list', {
      filter: [{ type: 'equals', field: 'status', value: 'pending' }],
    });
    const id = listed.body.data.find((a: { approvalNumber: string }) => a.approvalNumber === number).id as string;
    expect((await anna.post(`/b2b/order-approval/${id}/approve`, { comment: 'Needed' })).status).to.equal(200);
    expect((await buyer.get(`/b2b/order-approval/${id}`)).body.status).to.equal('pending');

    // The merchant raises the price; the refresh reports it and asks for re-approval.
    expect((await api.patch(`/product/${productId}`, { price: 230 })).status).to.equal(200);
    const refresh = await buyer.post(`/b2b/order-approval/${id}/refresh`, { sendEmailOnChanges: true });
    expect(refresh.status).to.equal(200);
    expect(refresh.body.refreshResult).to.include({
      hasChanges: true,
      requiresReapproval: true,
      isBlocked: false,
      isValid: true,
    });
    expect(refresh.body.refreshResult.changes[0]).to.include({ type: 'price', oldUnitPrice: 200, newUnitPrice: 230 });
    const changes = await mailTo(people.buyer!.email, 'prices have changed');
    expect(changes.text).to.contain('200 -> 230');
    const status = (await buyer.get(`/b2b/order-approval/${id}/approvers`)).body.approverStatus;
    expect(status.approvers.map((a: { status: string }) => a.status)).to.deep.equal(['pending', 'pending']);
    expect(status.isApproved).to.equal(false);

    // Both approve again; the buyer is told once.
    expect((await anna.post(`/b2b/order-approval/${id}/approve`, { comment: 'Still needed' })).status).to.equal(200);
    expect((await otto.post(`/b2b/order-approval/${id}/approve`, {})).status).to.equal(200);
    const approvedMail = await mailTo(people.buyer!.email, 'was approved');
    expect(approvedMail.text).to.contain('821.10 EUR');

    // The buyer executes; the order is in the budget's order list with its budgetData.
    const executed = await buyer.post(`/b2b/order-approval/${id}/execute`, {});
    expect(executed.status).to.equal(200);
    const result = executed.body.executionResult;
    expect(result).to.include({ success: true, requiresPaymentAction: false });
    const again = await buyer.post(`/b2b/order-approval/${id}/execute`, {});
    expect(again.body.executionResult).to.deep.equal(result);
    const orders = await buyer.get(`/budget/${budgetId}/orders`);
    expect(orders.status).to.equal(200);
    expect(orders.body.total).to.equal(1);
    const [order] = orders.body.orders;
    expect(order).to.include({ id: result.orderId, orderNumber: result.orderNumber, netPrice: 690, totalPrice: 821.1 });
    expect(order.budgetData).to.deep.include({
      budgetId,
      budgetProductCount: 1,
      totalProductCount: 1,
      budgetValue: 690,
      totalOrderValue: 690,
      budgetUsagePercentage: 13.8,
      budgetProductRatio: '1/1',
    });
    const budget = (await buyer.get(`/budget/${budgetId}`)).body;
    expect(budget).to.include({ used: 690, reserved: 0, available: 4310 });
    const activity = (await buyer.get(`/b2b/order-approval/${id}/activity`)).body.activities.map(
      (a: { action: string }) => a.action,
    );
    expect(activity).to.deep.equal([
      'created',
      'approved',
      'refreshed',
      'approved',
      'approved',
      'refreshed',
      'executed',
    ]);
  });
});
