import { expect } from 'chai';
import { getShop, isServerDb } from '../../helpers/shop.js';
import { startAppProcesses, stopAppProcesses, type AppProcess } from '../../helpers/processes.js';
import {
  APPROVER_PERMISSIONS,
  REQUESTER_PERMISSIONS,
  as,
  employee,
  newCustomer,
  outbox,
  product,
  requestApproval,
  startShop,
  type LoggedInEmployee,
} from './helpers.js';

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

describe('approval rules: concurrent decisions on one level across two app processes (MariaDB)', function () {
  before(startShop);
  this.timeout(240000);
  let processes: AppProcess[] = [];

  after(async () => {
    await stopAppProcesses(processes);
  });

  it('20 concurrent approvals of level 1 (any of five) count once: one decision, one move to level 2, one mail to its approver', async function () {
    // The approval's row lock across processes needs a database server; SQLite runs one process.
    if (!isServerDb()) this.skip();
    const [a, b] = (processes = await startAppProcesses(2));
    const customer = await newCustomer();
    const buyer = await employee(customer, REQUESTER_PERMISSIONS);
    const approvers: LoggedInEmployee[] = [];
    for (let i = 0; i < 5; i++) approvers.push(await employee(customer, APPROVER_PERMISSIONS));
    const rule = await (
      await as(customer.token)
    ).post('/approval-rule', {
      name: 'Two levels',
      priority: 1,
      levels: [
        { name: 'Team', type: 'employees', employeeIds: approvers.map((e) => e.id), required: 1 },
        { name: 'Admin', type: 'company-admins' },
      ],
    });
    expect(rule.status, JSON.stringify(rule.body)).to.equal(200);
    const p = await product();
    const id = await requestApproval(buyer.token, [{ productId: p.id, quantity: 1 }]);

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(i % 2 ? a! : b!, `/b2b/order-approval/${id}/approve`, approvers[i % 5]!.token, { level: 1 }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(results),
    ).to.have.length(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status, JSON.stringify(r.body)).to.equal(400);
      expect(r.body.errors[0].code).to.be.oneOf([
        'SUITE__ORDER_APPROVAL_LEVEL_DECIDED',
        'SUITE__ORDER_APPROVAL_ALREADY_DECIDED',
      ]);
    }
    const db = (await getShop()).db;
    const decisions = await db('suite_order_approval_decisions').where({ approval_id: id });
    expect(decisions).to.have.length(1);
    expect(Number(decisions[0].level)).to.equal(1);
    const row = await db('suite_order_approvals').where({ id }).first('status', 'current_level');
    expect(row.status).to.equal('pending');
    expect(Number(row.current_level)).to.equal(2);
    const moves = await db('suite_order_approval_activities').where({ approval_id: id, action: 'level-approved' });
    expect(moves).to.have.length(1);
    expect(await outbox('order-approval-requested', customer.email)).to.have.length(1);

    expect((await (await as(customer.token)).post(`/b2b/order-approval/${id}/approve`, { level: 2 })).status).to.equal(
      200,
    );
    expect((await db('suite_order_approvals').where({ id }).first('status')).status).to.equal('approved');
  });
});
