import { expect } from 'chai';
import { adminToken, getShop, http, isServerDb } from '../../helpers/shop.js';
import { appProcessesForSuite, raceCheckouts } from '../../helpers/processes.js';
import {
  as,
  company,
  createBudget,
  employee,
  fillCart,
  newCustomer,
  product,
  REQUESTER_PERMISSIONS,
  requestApproval,
  setSettings,
  startShop,
} from './helpers.js';

/**
 * The approval list's and budget orders' totals are maintained counters (migration 014), not a
 * count over the rows: they must stay exactly the number of rows a client can page through.
 */
async function listTotal(token: string, body: Record<string, unknown> = {}): Promise<{ total: number; ids: string[] }> {
  const res = await (await as(token)).post('/order-approval/list', { limit: 500, ...body });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { total: res.body.total, ids: res.body.data.map((a: { id: string }) => a.id) };
}

describe('order approval list and budget orders: totals', function () {
  before(startShop);
  this.timeout(300000);
  const apps = appProcessesForSuite(2);

  it('the company list total is the number of approvals, after creates and declines, and filtered totals stay exact', async function () {
    const { customer, requester, approverA } = await company();
    await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id], nValue: 1 });
    expect(await listTotal(customer.token)).to.deep.equal({ total: 0, ids: [] });
    const p = await product();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push(await requestApproval(requester.token, [{ productId: p.id, quantity: 1 + i }]));
    // A decline keeps the approval in the list: the total does not move.
    expect(
      (await (await as(approverA.token)).post(`/b2b/order-approval/${ids[0]}/decline`, { comment: 'Not now' })).status,
    ).to.equal(200);
    const all = await listTotal(customer.token);
    expect(all.total).to.equal(4);
    expect([...all.ids].sort()).to.deep.equal([...ids].sort());
    // Page by page the same total, and the pages hold every approval once.
    const first = await (await as(customer.token)).post('/order-approval/list', { limit: 3, page: 1 });
    const second = await (await as(customer.token)).post('/order-approval/list', { limit: 3, page: 2 });
    expect([first.body.total, second.body.total]).to.deep.equal([4, 4]);
    expect([...first.body.data, ...second.body.data].map((a: { id: string }) => a.id).sort()).to.deep.equal(
      [...ids].sort(),
    );
    // Filters, a term and ids narrow the rows: their totals are counted over what matches.
    expect(
      (await listTotal(customer.token, { filter: [{ type: 'equals', field: 'status', value: 'declined' }] })).total,
    ).to.equal(1);
    expect((await listTotal(customer.token, { ids: ids.slice(0, 2) })).total).to.equal(2);
    expect((await listTotal(customer.token, { 'total-count-mode': 'none', limit: 1 })).total).to.equal(1);
    // An employee sees only their own requests (and those naming them): counted, not the company's count.
    const other = await employee(customer, REQUESTER_PERMISSIONS, { requiresApproval: true });
    await requestApproval(other.token, [{ productId: p.id, quantity: 1 }]);
    expect((await listTotal(other.token)).total).to.equal(1);
    expect((await listTotal(customer.token)).total).to.equal(5);
    // Another company's approvals never count.
    expect((await listTotal((await newCustomer()).token)).total).to.equal(0);
  });

  it('the counter goes with the customer when the host deletes it', async function () {
    const { customer, requester } = await company();
    const p = await product();
    await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
    const db = (await getShop()).db;
    expect(
      Number(
        (await db('suite_order_approval_counts').where({ customer_id: customer.customer.id }).first('approvals'))
          ?.approvals,
      ),
    ).to.equal(1);
    // An order-less customer can be deleted through the Admin API; the plugin's cleanup runs in that transaction.
    const res = await (
      await http()
    )
      .delete(`/api/customer/${customer.customer.id}`)
      .set('authorization', `Bearer ${await adminToken()}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(204);
    expect(await db('suite_order_approvals').where({ customer_id: customer.customer.id })).to.have.length(0);
    expect(await db('suite_order_approval_counts').where({ customer_id: customer.customer.id })).to.have.length(0);
  });

  it('30 approvals requested at once across two processes: the total is exactly 30 (MariaDB)', async function () {
    // Concurrent writers of one counter row across processes need a database server; SQLite runs one process.
    if (!isServerDb()) this.skip();
    const [a, b] = await apps();
    const customer = await newCustomer();
    const p = await product({ stock: 10000 });
    const carts: Array<{ token: string; cartToken: string }> = [];
    for (let i = 0; i < 30; i++) {
      const requester = await employee(customer, REQUESTER_PERMISSIONS, { requiresApproval: true });
      carts.push({
        token: requester.token,
        cartToken: await fillCart(requester.token, [{ productId: p.id, quantity: 1 }]),
      });
    }
    const results = await Promise.all(
      carts.map(async ({ token, cartToken }, i) => {
        const res = await fetch(`${(i % 2 ? a : b)!.url}/store-api/order-approval/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'suite-context-token': token },
          body: JSON.stringify({ cartToken }),
        });
        return { status: res.status, body: await res.text() };
      }),
    );
    expect(
      results.filter((r) => r.status !== 200),
      JSON.stringify(results.find((r) => r.status !== 200)),
    ).to.deep.equal([]);
    const listed = await listTotal(customer.token);
    expect(listed.total).to.equal(30);
    expect(new Set(listed.ids).size).to.equal(30);
  });

  it('orders placed at once across two processes: the budget orders total is exactly the orders charged (MariaDB)', async function () {
    if (!isServerDb()) this.skip();
    const processes = await apps();
    const customer = await newCustomer();
    const budget = await createBudget(customer.token, { amount: 1_000_000, allowApproval: false });
    const p = await product({ priceNet: 500, stock: 10000 });
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) {
      const buyer = await employee(customer, ['orders.create']);
      await fillCart(buyer.token, [{ productId: p.id, quantity: 1 }]);
      tokens.push(buyer.token);
    }
    const results = await raceCheckouts(processes, tokens);
    expect(results.filter((r) => r.status !== 200)).to.deep.equal([]);
    const orders = (await (await as(customer.token)).get(`/budget/${budget.id}/orders?limit=100`)).body;
    expect(orders.total).to.equal(20);
    expect(orders.orders).to.have.length(20);
    const filtered = (
      await (
        await as(customer.token)
      ).post(`/budget/${budget.id}/orders`, {
        limit: 5,
        filter: [{ type: 'range', field: 'orderDate', parameters: { gte: '2000-01-01T00:00:00Z' } }],
      })
    ).body;
    expect(filtered.total).to.equal(20);
  });
});
