import { expect } from 'chai';
import { adminToken, deliverMail, expectError, http, testMailbox } from '../../helpers/shop.js';
import { placeOrder, productStock } from '../../helpers/checkout.js';
import { newId } from '../../../src/lib/ids.js';
import {
  approval,
  as,
  category,
  createBudget,
  employee,
  fillCart,
  newCustomer,
  outbox,
  product,
  startShop,
} from '../order-approval/helpers.js';
import { headerOf } from '../../helpers/headers.js';

const BUYER = ['orders.create', 'orders.read', 'budget.read', 'order-approval.request'];

/** A fresh cart with these items, ordered. */
async function buy(token: string, items: Array<{ productId: string; quantity: number }>) {
  await (await as(token)).delete('/checkout/cart');
  await fillCart(token, items);
  return placeOrder(token);
}

async function budgetOf(token: string, id: string): Promise<Record<string, any>> {
  return (await (await as(token)).get(`/budget/${id}`)).body;
}

describe('budgets at checkout', () => {
  before(startShop);
  it('refuses an order beyond a budget that does not allow approval, naming what remains', async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, BUYER);
    const budget = await createBudget(customer.token, { amount: 50, allowApproval: false, employeeIds: [buyer.id] });
    const p = await product({ priceNet: 1000 });
    expect((await buy(buyer.token, [{ productId: p.id, quantity: 3 }])).status).to.equal(200);
    const refused = await buy(buyer.token, [{ productId: p.id, quantity: 3 }]);
    const error = expectError(refused, 400, 'SUITE__BUDGET_EXCEEDED') as {
      detail?: string;
      meta?: Record<string, unknown>;
    };
    expect(error.meta).to.include({ budgetId: budget.id, remaining: 20, orderValue: 30 });
    expect(error.detail).to.contain('20.00 EUR');
    expect(await budgetOf(customer.token, budget.id)).to.include({ used: 30, reserved: 0, available: 20 });
    expect((await placeOrder(buyer.token)).status).to.equal(400);
  });

  it('sends an order beyond a budget that allows approval to approval; the executed approval uses the budget', async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, BUYER);
    const budget = await createBudget(customer.token, { amount: 100, employeeIds: [buyer.id] });
    const p = await product({ priceNet: 4000 });
    await fillCart(buyer.token, [{ productId: p.id, quantity: 3 }]);
    const error = expectError(await placeOrder(buyer.token), 400, 'SUITE__ORDER_APPROVAL_REQUIRED') as {
      meta?: Record<string, any>;
    };
    expect(error.meta).to.include({ reason: 'budget', budgetId: budget.id, remaining: 100 });
    const cartToken = (await (await as(buyer.token)).get('/checkout/cart')).body.token;
    const created = await (await as(buyer.token)).post('/order-approval/create', { cartToken });
    expect(created.status).to.equal(200);
    const id = headerOf(created, 'suite-order-approval-id');
    const detail = await approval(buyer.token, id);
    expect(detail.reasons).to.deep.equal(['budget']);
    expect(detail.budgets[0]).to.include({ budgetId: budget.id, reservedAmount: 120, exceedsBudget: true });
    expect(await budgetOf(customer.token, budget.id)).to.include({ used: 0, reserved: 120, available: 0 });
    await (await as(customer.token)).post(`/b2b/order-approval/${id}/approve`, {});
    const executed = await (await as(buyer.token)).post(`/b2b/order-approval/${id}/execute`, {});
    expect(executed.status).to.equal(200);
    expect(await budgetOf(customer.token, budget.id)).to.include({ used: 120, reserved: 0, available: 0 });
    const orders = await (await as(buyer.token)).get(`/budget/${budget.id}/orders`);
    expect(orders.body.orders[0].id).to.equal(executed.body.executionResult.orderId);
    expect(orders.body.orders[0].budgetData).to.include({ budgetValue: 120, budgetUsagePercentage: 120 });
  });

  it('an order an operator cancels (Admin API) gives its budget usage and its stock back, once', async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, BUYER);
    const budget = await createBudget(customer.token, { amount: 50, allowApproval: false, employeeIds: [buyer.id] });
    const p = await product({ priceNet: 1000, stock: 10 });
    const placed = await buy(buyer.token, [{ productId: p.id, quantity: 4 }]);
    expect(placed.status).to.equal(200);
    expectError(await buy(buyer.token, [{ productId: p.id, quantity: 2 }]), 400, 'SUITE__BUDGET_EXCEEDED');
    expect(await productStock(p.id)).to.equal(6);

    const admin = { authorization: `Bearer ${await adminToken()}` };
    const cancel = async (orderId: string, headers: Record<string, string> = admin) =>
      (await http()).post(`/api/_action/order/${orderId}/state/cancel`).set(headers).send({});
    const cancelled = await cancel(placed.body.id);
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect(cancelled.body.data).to.deep.equal({
      id: placed.body.id,
      type: 'order',
      attributes: { orderNumber: placed.body.orderNumber, state: 'cancelled' },
    });
    expect(await budgetOf(customer.token, budget.id)).to.include({ used: 0, available: 50 });
    expect((await (await as(buyer.token)).get(`/budget/${budget.id}/orders`)).body.orders).to.deep.equal([]);
    expect(await productStock(p.id)).to.equal(10);
    expect(
      (await (await as(buyer.token)).get(`/order/${placed.body.id}`)).body.stateMachineState.technicalName,
    ).to.equal('cancelled');

    // What was over the budget fits again; a cancelled order is not cancelled twice.
    expect((await buy(buyer.token, [{ productId: p.id, quantity: 2 }])).status).to.equal(200);
    expectError(await cancel(placed.body.id), 400, 'SUITE__ORDER_NOT_CANCELLABLE');
    expect(await budgetOf(customer.token, budget.id)).to.include({ used: 20 });
    expect(await productStock(p.id)).to.equal(8);
    expectError(await cancel(newId()), 404);
    expectError(await cancel('not-an-id'), 400);
    expectError(await cancel(placed.body.id, {}), 401);
  });

  it('counts only line items of restricted categories', async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, BUYER);
    const categoryId = await category();
    const budget = await createBudget(customer.token, {
      amount: 20,
      allowApproval: false,
      employeeIds: [buyer.id],
      categoryIds: [categoryId],
    });
    const [restricted, free] = [await product({ priceNet: 1500, categoryId }), await product({ priceNet: 10000 })];
    expect(
      (
        await buy(buyer.token, [
          { productId: free.id, quantity: 2 },
          { productId: restricted.id, quantity: 1 },
        ])
      ).status,
    ).to.equal(200);
    expect(await budgetOf(customer.token, budget.id)).to.include({ used: 15, available: 5 });
    expectError(await buy(buyer.token, [{ productId: restricted.id, quantity: 1 }]), 400, 'SUITE__BUDGET_EXCEEDED');
    expect((await buy(buyer.token, [{ productId: free.id, quantity: 1 }])).status).to.equal(200);
  });

  it('per-order budgets limit each order, inactive and future budgets limit nothing, the company admin is never limited', async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, BUYER);
    await createBudget(customer.token, {
      amount: 25,
      periodType: 'per-order',
      allowApproval: false,
      employeeIds: [buyer.id],
    });
    await createBudget(customer.token, { amount: 1, allowApproval: false, active: false, employeeIds: [buyer.id] });
    await createBudget(customer.token, {
      amount: 1,
      allowApproval: false,
      startDate: '2999-01-01',
      employeeIds: [buyer.id],
    });
    const p = await product({ priceNet: 1000 });
    expect((await buy(buyer.token, [{ productId: p.id, quantity: 2 }])).status).to.equal(200);
    expect((await buy(buyer.token, [{ productId: p.id, quantity: 2 }])).status).to.equal(200);
    expectError(await buy(buyer.token, [{ productId: p.id, quantity: 3 }]), 400, 'SUITE__BUDGET_EXCEEDED');
    expect((await buy(customer.token, [{ productId: p.id, quantity: 30 }])).status).to.equal(200);
  });

  it('mails once per period when usage crosses the notification percentage (real SMTP)', async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, BUYER);
    const budget = await createBudget(customer.token, {
      name: 'Coffee',
      amount: 100,
      notificationPercentage: 50,
      employeeIds: [buyer.id],
    });
    const p = await product({ priceNet: 1000 });
    await buy(buyer.token, [{ productId: p.id, quantity: 3 }]);
    expect(await outbox('budget-threshold-reached', customer.email)).to.have.length(0);
    await buy(buyer.token, [{ productId: p.id, quantity: 3 }]);
    await buy(buyer.token, [{ productId: p.id, quantity: 1 }]);
    expect(await outbox('budget-threshold-reached', customer.email)).to.have.length(1);
    await deliverMail();
    const mail = await (
      await testMailbox()
    ).waitFor((m) => m.envelopeTo.includes(customer.email) && String(m.subject).includes('Coffee'));
    expect(mail.subject).to.equal('Budget "Coffee" has reached 60 %');
    expect(mail.text).to.contain('60.00 EUR of 100.00 EUR');
    expect(budget.notificationPercentage).to.equal(50);
  });

  it('deleting a budget stops limiting orders', async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, BUYER);
    const budget = await createBudget(customer.token, { amount: 1, allowApproval: false, employeeIds: [buyer.id] });
    const p = await product({ priceNet: 1000 });
    expectError(await buy(buyer.token, [{ productId: p.id, quantity: 1 }]), 400, 'SUITE__BUDGET_EXCEEDED');
    expect((await (await as(customer.token)).delete(`/budget/${budget.id}`)).status).to.equal(200);
    expect((await placeOrder(buyer.token)).status).to.equal(200);
  });
});
