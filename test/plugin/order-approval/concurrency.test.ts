import { expect } from 'chai';
import { getShop, isServerDb } from '../../helpers/shop.js';
import { startAppProcesses, stopAppProcesses, type AppProcess } from '../../helpers/processes.js';
import { as, company, outbox, product, requestApproval, setSettings, startShop } from './helpers.js';

async function post(
  app: AppProcess,
  path: string,
  token: string,
  body: unknown = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${app.url}/store-api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'suite-context-token': token },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

describe('order approval: races across two app processes (MariaDB)', function () {
  before(startShop);
  this.timeout(240000);
  let processes: AppProcess[] = [];
  const apps = async () => (processes.length ? processes : (processes = await startAppProcesses(2)));

  after(async () => {
    await stopAppProcesses(processes);
  });

  it('50 concurrent executes of one approval place exactly one order and all answer its result', async function () {
    // Row locks and conditional writes across processes need a database server; SQLite runs one process.
    if (!isServerDb()) this.skip();
    const [a, b] = await apps();
    const { customer, requester } = await company();
    const p = await product({ priceNet: 1200, stock: 100 });
    const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 2 }]);
    expect((await (await as(customer.token)).post(`/b2b/order-approval/${id}/approve`, {})).status).to.equal(200);

    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(i % 2 ? a! : b!, `/b2b/order-approval/${id}/execute`, requester.token, {}),
      ),
    );
    expect(
      results.map((r) => r.status),
      JSON.stringify(results.find((r) => r.status !== 200)),
    ).to.satisfy((s: number[]) => s.every((x) => x === 200));
    const orderIds = new Set(results.map((r) => r.body.executionResult.orderId));
    expect(orderIds.size).to.equal(1);
    const db = (await getShop()).db;
    const orders = await db('orders').where({ customer_id: customer.customer.id }).select('id');
    expect(orders.map((o) => o.id)).to.deep.equal([...orderIds]);
    const stock = await db('products').where({ id: p.id }).first('stock');
    expect(Number(stock.stock)).to.equal(98);
  });

  it('two approvers approving at once in n-of 2 approve it exactly once with one "approved" mail', async function () {
    // As above: only a database server exercises the row lock across processes.
    if (!isServerDb()) this.skip();
    const [a, b] = await apps();
    for (let round = 0; round < 5; round++) {
      const { customer, requester, approverA, approverB } = await company();
      await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 2 });
      const p = await product();
      const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
      const results = await Promise.all([
        post(a!, `/b2b/order-approval/${id}/approve`, approverA.token),
        post(b!, `/b2b/order-approval/${id}/approve`, approverB.token),
      ]);
      expect(results.map((r) => r.status)).to.deep.equal([200, 200]);
      const detail = (await (await as(requester.token)).get(`/b2b/order-approval/${id}`)).body;
      expect(detail.status).to.equal('approved');
      expect(await outbox('order-approval-approved', requester.email)).to.have.length(1);
      const decisions = await (await getShop()).db('suite_order_approval_decisions').where({ approval_id: id });
      expect(decisions).to.have.length(2);
    }
  });
});
