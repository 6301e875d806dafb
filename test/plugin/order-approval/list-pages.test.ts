import { expect } from 'chai';
import { expectError, getShop } from '../../helpers/shop.js';
import { placeOrder } from '../../helpers/checkout.js';
import { statementsDuring } from '../../helpers/statements.js';
import {
  as,
  company,
  createBudget,
  employee,
  fillCart,
  newCustomer,
  product,
  requestApproval,
  startShop,
} from './helpers.js';

/**
 * The statements on the lists' tables (approvals, budgets and their orders, the host's orders and
 * their parts) while `work` runs: the route's own work, without the context read every request starts
 * with or what an earlier request left running (an approval's mails read the plugin settings).
 */
const LIST_TABLES =
  /suite_order_approval|suite_budget|\borders\b|order_line_items|order_deliveries|order_transactions|documents/;

async function routeStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  return statementsDuring((await getShop()).db, LIST_TABLES, work);
}

const BUYER = ['orders.create', 'orders.read', 'budget.read'];

/**
 * The plain company approval list and a budget's plain order list read their page and its total
 * (a maintained counter) in one statement; filtered, sorted or searched lists go the criteria way.
 * Both must answer what the criteria way answers, and keep another customer's rows out.
 */
describe('order approval list and budget orders: one statement for the page and its total', function () {
  before(startShop);
  this.timeout(120000);

  it('approval list: the page, its line counts and the company total in one statement, the same answer as the criteria query', async () => {
    const { customer, requester } = await company();
    const [p, q] = [await product(), await product()];
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        await requestApproval(
          requester.token,
          i === 1
            ? [
                { productId: p.id, quantity: 1 },
                { productId: q.id, quantity: 2 },
              ]
            : [{ productId: p.id, quantity: 1 + i }],
        ),
      );
    const admin = await as(customer.token);
    await admin.post('/order-approval/list', { limit: 2 });

    const first = await routeStatements(() => admin.post('/order-approval/list', { limit: 2 }));
    expect(first.result.status, JSON.stringify(first.result.body)).to.equal(200);
    expect(first.statements, first.statements.join('\n')).to.have.length(1);
    expect(first.result.body.total).to.equal(3);
    expect(
      first.result.body.data.map((a: { id: string; lineItemCount: number }) => [a.id, a.lineItemCount]),
    ).to.deep.equal([
      [ids[2], 1],
      [ids[1], 2],
    ]);
    // The default sort named explicitly goes the criteria way (builder, count from the counter): the same answer.
    const sorted = await admin.post('/order-approval/list', {
      limit: 2,
      sort: [{ field: 'createdAt', order: 'DESC' }],
    });
    expect(sorted.body).to.deep.equal(first.result.body);
    const filtered = await admin.post('/order-approval/list', {
      limit: 2,
      filter: [{ type: 'equalsAny', field: 'id', value: ids }],
    });
    expect(filtered.body).to.deep.equal(first.result.body);

    // A page past the end has no row to carry the total: the counter is read on its own.
    const past = await routeStatements(() => admin.post('/order-approval/list', { limit: 2, page: 3 }));
    expect(past.result.body).to.deep.equal({ total: 3, data: [] });
    expect(past.statements, past.statements.join('\n')).to.have.length(2);

    // A new approval shows on the next request, in the page and the total.
    const fourth = await requestApproval(requester.token, [{ productId: q.id, quantity: 1 }]);
    const next = await admin.post('/order-approval/list', { limit: 2 });
    expect(next.body.total).to.equal(4);
    expect(next.body.data.map((a: { id: string }) => a.id)).to.deep.equal([fourth, ids[2]]);

    // Another company sees none of them: an empty page, total 0.
    const stranger = await newCustomer();
    const none = await routeStatements(async () =>
      (await as(stranger.token)).post('/order-approval/list', { limit: 2 }),
    );
    expect(none.result.body).to.deep.equal({ total: 0, data: [] });
    expect(none.statements, none.statements.join('\n')).to.have.length(1);
  });

  it('approval list: summaries kept per approval version; a row written by anyone is read again on the next page, and only that row', async () => {
    const shop = await getShop();
    const { customer, requester } = await company();
    const p = await product();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(await requestApproval(requester.token, [{ productId: p.id, quantity: 1 + i }]));
    const admin = await as(customer.token);
    const cold = await routeStatements(() => admin.post('/order-approval/list', { limit: 25 }));
    const warm = await routeStatements(() => admin.post('/order-approval/list', { limit: 25 }));
    expect(warm.result.body).to.deep.equal(cold.result.body);
    expect(warm.statements, 'kept: the stamps only').to.have.length(1);

    await shop
      .db('suite_order_approvals')
      .where({ id: ids[1] })
      .update({ status: 'declined', customer_comment: 'Changed by SQL' });
    const changed = await routeStatements(() => admin.post('/order-approval/list', { limit: 25 }));
    expect(changed.statements, changed.statements.join('\n')).to.have.length(2);
    expect(changed.statements[1], 'only the changed approval is read').to.match(/ in \((\?|\$\d+)\)$/);
    const row = changed.result.body.data.find((a: { id: string }) => a.id === ids[1]);
    expect(row).to.include({ status: 'declined', isDeclined: true, customerComment: 'Changed by SQL' });
    expect(changed.result.body.data.map((a: { id: string }) => a.id)).to.deep.equal([ids[2], ids[1], ids[0]]);
    expect((await routeStatements(() => admin.post('/order-approval/list', { limit: 25 }))).statements).to.have.length(
      1,
    );

    // A line added to an approval changes its count without touching its row: counts come with the stamps.
    const line = await shop.db('suite_order_approval_line_items').where({ approval_id: ids[0] }).first();
    await shop
      .db('suite_order_approval_line_items')
      .insert({ ...line, id: `${line.id.slice(0, 24)}ffffffff`, position: 9 });
    const counted = await admin.post('/order-approval/list', { limit: 25 });
    expect(counted.body.data.find((a: { id: string }) => a.id === ids[0]).lineItemCount).to.equal(2);
  });

  it("budget orders: the page with the budget's order count in one statement; another customer's budget is a 404, an empty or past-the-end page has the right total", async () => {
    const customer = await newCustomer();
    const budget = await createBudget(customer.token, { amount: 1_000_000, allowApproval: false });
    // Inactive: it governs no order, so none is charged to it.
    const empty = await createBudget(customer.token, { amount: 1000, active: false });
    const buyer = await employee(customer, BUYER);
    const p = await product({ priceNet: 500, stock: 1000 });
    const placed: string[] = [];
    const order = async () => {
      await fillCart(buyer.token, [{ productId: p.id, quantity: 1 }]);
      const res = await placeOrder(buyer.token);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      placed.push(res.body.id as string);
    };
    for (let i = 0; i < 3; i++) await order();
    const admin = await as(customer.token);
    await admin.get(`/budget/${budget.id}/orders?limit=2`);

    const first = await routeStatements(() => admin.get(`/budget/${budget.id}/orders?limit=2`));
    expect(first.result.status, JSON.stringify(first.result.body)).to.equal(200);
    // The page with the count, then the orders' stamps: their views are kept since the last request.
    expect(first.statements, first.statements.join('\n')).to.have.length(2);
    expect(first.result.body.total).to.equal(3);
    expect(first.result.body.orders.map((o: { id: string }) => o.id)).to.deep.equal([placed[2], placed[1]]);
    expect(first.result.body.orders[0].lineItems).to.have.length(1);
    expect(first.result.body.orders[0].budgetData).to.include({ budgetId: budget.id, budgetValue: 5 });
    // The criteria way (the default sort named, or a filter every order passes) answers the same.
    const sorted = await admin.post(`/budget/${budget.id}/orders`, {
      limit: 2,
      sort: [{ field: 'orderDate', order: 'DESC' }],
    });
    expect(sorted.body).to.deep.equal(first.result.body);
    const filtered = await admin.post(`/budget/${budget.id}/orders`, {
      limit: 2,
      filter: [{ type: 'range', field: 'orderDate', parameters: { gte: '2000-01-01T00:00:00Z' } }],
    });
    expect(filtered.body).to.deep.equal(first.result.body);
    expect(
      (await admin.get(`/budget/${budget.id}/orders?limit=2&page=2`)).body.orders.map((o: { id: string }) => o.id),
    ).to.deep.equal([placed[0]]);

    // No row, no count with it: the budget itself is read, for its order count and whose it is.
    const past = await routeStatements(() => admin.get(`/budget/${budget.id}/orders?limit=2&page=3`));
    const emptyPage = (total: number, page: number, limit: number) => ({
      orders: [],
      elements: [],
      total,
      page,
      limit,
      aggregations: {},
      apiAlias: 'dal_entity_search_result',
    });
    expect(past.result.body).to.deep.equal(emptyPage(3, 3, 2));
    expect(past.statements, past.statements.join('\n')).to.have.length(2);
    expect((await admin.get(`/budget/${empty.id}/orders`)).body).to.deep.equal(emptyPage(0, 1, 25));
    expect((await admin.get(`/budget/${empty.id}/orders?page=2&limit=1`)).body).to.deep.equal(emptyPage(0, 2, 1));

    // Another customer's budget is not found, whichever way its orders are asked for.
    const stranger = await as((await newCustomer()).token);
    expectError(await stranger.get(`/budget/${budget.id}/orders`), 404);
    expectError(await stranger.get(`/budget/${budget.id}/orders?limit=2&page=3`), 404);
    expectError(
      await stranger.post(`/budget/${budget.id}/orders`, { sort: [{ field: 'orderDate', order: 'ASC' }] }),
      404,
    );
    expectError(await stranger.post(`/budget/${budget.id}/orders`, { term: 'x' }), 404);
    expectError(await stranger.get(`/budget/${empty.id}/orders`), 404);

    // A new order shows on the next request, in the page and the total; a deleted budget is gone.
    await order();
    const next = await admin.get(`/budget/${budget.id}/orders?limit=2`);
    expect(next.body.total).to.equal(4);
    expect(next.body.orders.map((o: { id: string }) => o.id)).to.deep.equal([placed[3], placed[2]]);
    expect((await admin.delete(`/budget/${budget.id}`)).status).to.equal(200);
    expectError(await admin.get(`/budget/${budget.id}/orders`), 404);
    expectError(await admin.post(`/budget/${budget.id}/orders`, { term: 'x' }), 404);
  });
});
