import { expect } from 'chai';
import { expectError, getShop } from '../../helpers/shop.js';
import { placeOrder } from '../../helpers/checkout.js';
import {
  APPROVER_PERMISSIONS,
  as,
  category,
  createBudget,
  employee,
  fillCart,
  newCustomer,
  product,
  startShop,
} from '../order-approval/helpers.js';

const OTHER_ID = 'ffffffffffffffffffffffffffffffff';
const BUYER = ['orders.create', 'orders.read', 'budget.read'];

describe('budgets: Store API routes', () => {
  before(startShop);
  it('POST /budget-period-types lists the period types (401 without login, 400 with a body)', async () => {
    const customer = await newCustomer();
    const res = await (await as(customer.token)).post('/budget-period-types', {});
    expect(res.status).to.equal(200);
    expect(res.body.elements.map((t: { key: string }) => t.key)).to.deep.equal([
      'per-order',
      'daily',
      'weekly',
      'monthly',
      'quarterly',
      'yearly',
      'once',
    ]);
    expectError(await (await as(customer.token)).post('/budget-period-types', { type: 'x' }), 400);
    expectError(await (await as(null)).post('/budget-period-types', {}), 401);
  });

  describe('POST /budget', () => {
    it('creates a budget with employees, categories and an approver; amounts are in the sales channel currency', async () => {
      const customer = await newCustomer();
      const buyer = await employee(customer, BUYER);
      const approver = await employee(customer, APPROVER_PERMISSIONS);
      const categoryId = await category();
      const res = await (
        await as(customer.token)
      ).post('/budget', {
        name: 'Office supplies',
        amount: 1500.5,
        periodType: 'quarterly',
        startDate: '2024-01-01',
        notificationPercentage: 80,
        allowApproval: false,
        approverEmployeeId: approver.id,
        employeeIds: [buyer.id],
        categoryIds: [categoryId],
      });
      expect(res.status).to.equal(200);
      expect(res.body.success).to.equal(true);
      expect(res.body.budget).to.include({
        name: 'Office supplies',
        amount: 1500.5,
        currency: 'EUR',
        periodType: 'quarterly',
        used: 0,
        reserved: 0,
        available: 1500.5,
        allowApproval: false,
        notificationPercentage: 80,
      });
      expect(res.body.budget.employeeIds).to.deep.equal([buyer.id]);
      expect(res.body.budget.categoryIds).to.deep.equal([categoryId]);
      expect(res.body.budget.periodStart).to.be.a('string');
    });

    it('refuses invalid input with a pointer to the field', async () => {
      const customer = await newCustomer();
      const stranger = await newCustomer();
      const strangerEmployee = await employee(stranger, BUYER);
      const client = await as(customer.token);
      expectError(await client.post('/budget', { amount: 10, periodType: 'monthly' }), 400, 'SUITE__INVALID_INPUT');
      expectError(
        await client.post('/budget', { name: 'x', amount: -5, periodType: 'monthly' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await client.post('/budget', { name: 'x', amount: 5, periodType: 'hourly' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await client.post('/budget', { name: 'x', amount: 5, periodType: 'monthly', startDate: '2024-02-30' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await client.post('/budget', { name: 'x', amount: 5.001, periodType: 'monthly' }),
        400,
        'SUITE__INVALID_AMOUNT',
      );
      expectError(
        await client.post('/budget', { name: 'x', amount: 5, periodType: 'monthly', currency: 'USD' }),
        400,
        'SUITE__BUDGET_CURRENCY_NOT_SUPPORTED',
      );
      const unknown = expectError(
        await client.post('/budget', {
          name: 'x',
          amount: 5,
          periodType: 'monthly',
          employeeIds: [strangerEmployee.id],
        }),
        400,
        'SUITE__UNKNOWN_EMPLOYEE',
      );
      expect(unknown.source?.pointer).to.equal('/employeeIds/0');
      expectError(
        await client.post('/budget', { name: 'x', amount: 5, periodType: 'monthly', categoryIds: [OTHER_ID] }),
        400,
        'SUITE__UNKNOWN_CATEGORY',
      );
    });

    it('answers a category the caller may not see like an unknown one (no existence oracle)', async () => {
      const customer = await newCustomer();
      const client = await as(customer.token);
      const hidden = await category();
      await (await getShop()).db('categories').where({ id: hidden }).update({ active: false });
      const visible = await category();
      const seen = expectError(
        await client.post('/budget', { name: 'x', amount: 5, periodType: 'monthly', categoryIds: [visible, hidden] }),
        400,
        'SUITE__UNKNOWN_CATEGORY',
      );
      const unknown = expectError(
        await client.post('/budget', { name: 'x', amount: 5, periodType: 'monthly', categoryIds: [visible, OTHER_ID] }),
        400,
        'SUITE__UNKNOWN_CATEGORY',
      );
      expect(seen.source?.pointer).to.equal('/categoryIds/1');
      expect(seen.detail!.replace(hidden, '<id>')).to.equal(unknown.detail!.replace(OTHER_ID, '<id>'));
      expect(
        (await client.post('/budget', { name: 'ok', amount: 5, periodType: 'monthly', categoryIds: [visible] })).status,
      ).to.equal(200);
    });

    it('answers 401 without login and 403 without budget.manage', async () => {
      const customer = await newCustomer();
      const reader = await employee(customer, ['budget.read']);
      expectError(await (await as(null)).post('/budget', { name: 'x', amount: 5, periodType: 'monthly' }), 401);
      expectError(
        await (await as(reader.token)).post('/budget', { name: 'x', amount: 5, periodType: 'monthly' }),
        403,
        'SUITE__PERMISSION_DENIED',
      );
    });
  });

  describe('GET, PUT, PATCH, DELETE /budget/{id}', () => {
    it('reads, replaces, changes and deletes a budget', async () => {
      const customer = await newCustomer();
      const buyer = await employee(customer, BUYER);
      const budget = await createBudget(customer.token, {
        amount: 300,
        startDate: '2024-03-01',
        employeeIds: [buyer.id],
        notificationPercentage: 50,
      });
      const client = await as(customer.token);
      const read = await (await as(buyer.token)).get(`/budget/${budget.id}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.include({ id: budget.id, amount: 300 });
      const patched = await await client.patch(`/budget/${budget.id}`, { amount: 450, active: false });
      expect(patched.status).to.equal(200);
      expect(patched.body.budget).to.include({ amount: 450, active: false, notificationPercentage: 50 });
      expect(patched.body.budget.employeeIds).to.deep.equal([buyer.id]);
      const replaced = await client.agent
        .put(`/store-api/budget/${budget.id}`)
        .set('suite-context-token', customer.token)
        .send({ name: 'Replaced', amount: 99.99, periodType: 'yearly' });
      expect(replaced.status).to.equal(200);
      expect(replaced.body.budget).to.include({
        name: 'Replaced',
        amount: 99.99,
        periodType: 'yearly',
        active: true,
        notificationPercentage: null,
        startDate: '2024-03-01',
      });
      expect(replaced.body.budget.employeeIds).to.deep.equal([]);
      expect((await client.delete(`/budget/${budget.id}`)).body).to.deep.equal({ success: true });
      expectError(await client.get(`/budget/${budget.id}`), 404);
    });

    it("answers 400, 401, 403 and 404 for another customer's budget on every method", async () => {
      const customer = await newCustomer();
      const budget = await createBudget(customer.token, { amount: 300 });
      const nobody = await employee(customer, ['orders.create']);
      const reader = await employee(customer, ['budget.read']);
      const stranger = await newCustomer();
      const put = async (token: string | null, id: string, body: unknown) => {
        const { agent } = await as(token);
        const req = agent.put(`/store-api/budget/${id}`);
        return (token ? req.set('suite-context-token', token) : req).send(body as object);
      };
      const valid = { name: 'x', amount: 5, periodType: 'monthly' };
      expectError(await (await as(customer.token)).get('/budget/not-an-id'), 400);
      expectError(await (await as(customer.token)).patch(`/budget/${budget.id}`, {}), 400);
      expectError(await put(customer.token, budget.id, { name: 'x' }), 400);
      expectError(await (await as(customer.token)).delete('/budget/xyz'), 400);
      expectError(await (await as(null)).get(`/budget/${budget.id}`), 401);
      expectError(await (await as(null)).patch(`/budget/${budget.id}`, { amount: 1 }), 401);
      expectError(await put(null, budget.id, valid), 401);
      expectError(await (await as(null)).delete(`/budget/${budget.id}`), 401);
      expectError(await (await as(nobody.token)).get(`/budget/${budget.id}`), 403);
      expectError(await (await as(reader.token)).patch(`/budget/${budget.id}`, { amount: 1 }), 403);
      expectError(await put(reader.token, budget.id, valid), 403);
      expectError(await (await as(reader.token)).delete(`/budget/${budget.id}`), 403);
      expectError(await (await as(stranger.token)).get(`/budget/${budget.id}`), 404);
      expectError(await (await as(stranger.token)).patch(`/budget/${budget.id}`, { amount: 1 }), 404);
      expectError(await put(stranger.token, budget.id, valid), 404);
      expectError(await (await as(stranger.token)).delete(`/budget/${budget.id}`), 404);
      expect((await (await as(customer.token)).get(`/budget/${budget.id}`)).body.amount).to.equal(300);
    });
  });

  describe('POST /budget/list', () => {
    it("lists the customer's budgets by criteria, never another customer's", async () => {
      const customer = await newCustomer();
      const reader = await employee(customer, ['budget.read']);
      await createBudget(customer.token, { name: 'Alpha', amount: 100 });
      await createBudget(customer.token, { name: 'Beta', amount: 200, periodType: 'yearly' });
      const stranger = await newCustomer();
      await createBudget(stranger.token, { name: 'Alpha', amount: 100 });
      const all = await (await as(reader.token)).post('/budget/list', {});
      expect(all.status).to.equal(200);
      expect(all.body.elements.map((b: { name: string }) => b.name)).to.deep.equal(['Alpha', 'Beta']);
      const yearly = await (
        await as(reader.token)
      ).post('/budget/list', { filter: [{ type: 'equals', field: 'periodType', value: 'yearly' }] });
      expect(yearly.body).to.deep.include({ total: 1 });
      expect(yearly.body.elements[0].name).to.equal('Beta');
      const term = await (await as(customer.token)).post('/budget/list', { term: 'alp', limit: 1 });
      expect(term.body.total).to.equal(1);
    });

    it('answers 400 for unknown fields and limits, 401 and 403', async () => {
      const customer = await newCustomer();
      const nobody = await employee(customer, ['orders.create']);
      expectError(
        await (
          await as(customer.token)
        ).post('/budget/list', { filter: [{ type: 'equals', field: 'customerId', value: 'x' }] }),
        400,
      );
      expectError(await (await as(customer.token)).post('/budget/list', { limit: 1000 }), 400);
      expectError(await (await as(null)).post('/budget/list', {}), 401);
      expectError(await (await as(nobody.token)).post('/budget/list', {}), 403);
    });
  });

  describe('GET /b2b/employee-budget and GET /budget-approval-employees', () => {
    it('shows an employee the budgets that govern their orders', async () => {
      const customer = await newCustomer();
      const buyer = await employee(customer, BUYER);
      const other = await employee(customer, BUYER);
      const mine = await createBudget(customer.token, { name: 'Mine', amount: 100, employeeIds: [buyer.id] });
      await createBudget(customer.token, { name: 'Theirs', amount: 100, employeeIds: [other.id] });
      const everyone = await createBudget(customer.token, { name: 'Company-wide', amount: 100 });
      const res = await (await as(buyer.token)).get('/b2b/employee-budget');
      expect(res.status).to.equal(200);
      expect(res.body.elements.map((b: { id: string }) => b.id)).to.have.members([mine.id, everyone.id]);
      expect((await (await as(customer.token)).get('/b2b/employee-budget')).body.total).to.equal(0);
      expectError(await (await as(null)).get('/b2b/employee-budget'), 401);
    });

    it('lists the employees who can approve, for budget managers only', async () => {
      const customer = await newCustomer();
      const approver = await employee(customer, APPROVER_PERMISSIONS);
      const buyer = await employee(customer, BUYER);
      const res = await (await as(customer.token)).get('/budget-approval-employees');
      expect(res.status).to.equal(200);
      const ids = res.body.elements.map((e: { id: string }) => e.id);
      expect(ids).to.include(approver.id);
      expect(ids).not.to.include(buyer.id);
      expectError(await (await as(null)).get('/budget-approval-employees'), 401);
      expectError(await (await as(buyer.token)).get('/budget-approval-employees'), 403);
    });
  });

  describe('GET|POST /budget/{budgetId}/orders', () => {
    it('lists the orders charged to the budget with budgetData', async () => {
      const customer = await newCustomer();
      const buyer = await employee(customer, BUYER);
      const categoryId = await category();
      const budget = await createBudget(customer.token, {
        amount: 1000,
        employeeIds: [buyer.id],
        categoryIds: [categoryId],
      });
      const [inside, outside] = [await product({ priceNet: 2000, categoryId }), await product({ priceNet: 500 })];
      await fillCart(buyer.token, [
        { productId: inside.id, quantity: 2 },
        { productId: outside.id, quantity: 1 },
      ]);
      const order = await placeOrder(buyer.token);
      expect(order.status, JSON.stringify(order.body)).to.equal(200);
      const res = await (await as(buyer.token)).get(`/budget/${budget.id}/orders`);
      expect(res.status).to.equal(200);
      expect(res.body.total).to.equal(1);
      const [listed] = res.body.orders;
      expect(listed).to.include({
        id: order.body.id,
        orderNumber: order.body.orderNumber,
        netPrice: 45,
        totalPrice: order.body.amountTotal,
      });
      expect(listed.budgetData).to.include({
        budgetId: budget.id,
        budgetProductCount: 1,
        totalProductCount: 2,
        budgetValue: 40,
        totalOrderValue: 45,
        budgetUsagePercentage: 4,
        budgetProductRatio: '1/2',
      });
      expect(listed.budgetData.budgetLineItems).to.have.length(1);
      expect(listed.budgetData.budgetLineItems[0]).to.include({ productId: inside.id, quantity: 2, totalPrice: 40 });
      expect((await (await as(customer.token)).get(`/budget/${budget.id}`)).body).to.include({
        used: 40,
        available: 960,
      });
      // Beside the spec's `orders` and `total`, the Store API list envelope that clients written for the platform read.
      expect(res.body).to.include({ page: 1, limit: 25, apiAlias: 'dal_entity_search_result' });
      expect(res.body.elements).to.deep.equal(res.body.orders);
      const searched = await (
        await as(buyer.token)
      ).post(`/budget/${budget.id}/orders`, { term: order.body.orderNumber, limit: 10 });
      expect(searched.body).to.include({ total: 1, page: 1, limit: 10 });
      expect(searched.body.elements.map((o: { id: string }) => o.id)).to.deep.equal([order.body.id]);
      expect(searched.body.elements).to.deep.equal(searched.body.orders);
      const none = await (
        await as(buyer.token)
      ).post(`/budget/${budget.id}/orders`, {
        filter: [{ type: 'range', field: 'orderDate', parameters: { lt: '2000-01-01T00:00:00Z' } }],
      });
      expect(none.body).to.deep.equal({
        orders: [],
        elements: [],
        total: 0,
        page: 1,
        limit: 25,
        aggregations: {},
        apiAlias: 'dal_entity_search_result',
      });
    });

    it("answers 400, 401, 403 and 404 for another customer's budget", async () => {
      const customer = await newCustomer();
      const budget = await createBudget(customer.token, { amount: 1000 });
      const nobody = await employee(customer, ['orders.create']);
      const stranger = await newCustomer();
      expectError(await (await as(customer.token)).get(`/budget/${budget.id}/orders?limit=0`), 400);
      expectError(
        await (
          await as(customer.token)
        ).post(`/budget/${budget.id}/orders`, { filter: [{ type: 'equals', field: 'secret', value: 1 }] }),
        400,
      );
      expectError(await (await as(null)).get(`/budget/${budget.id}/orders`), 401);
      expectError(await (await as(null)).post(`/budget/${budget.id}/orders`, {}), 401);
      expectError(await (await as(nobody.token)).get(`/budget/${budget.id}/orders`), 403);
      expectError(await (await as(nobody.token)).post(`/budget/${budget.id}/orders`, {}), 403);
      expectError(await (await as(stranger.token)).get(`/budget/${budget.id}/orders`), 404);
      expectError(await (await as(stranger.token)).post(`/budget/${budget.id}/orders`, {}), 404);
    });
  });
});
