import { expect } from 'chai';
import { seedOrderApprovalBench } from '../../bench/scenarios/order-approval.js';
import { ID_PATTERN } from '../../src/lib/ids.js';
import { fromDbTime } from '../../src/lib/time.js';
import { getShop, isPostgres } from '../helpers/shop.js';

/** The bench seed generates its rows in the database (insert … select over numbers); what it writes. */
describe('bench: order approval seed', () => {
  it('writes the approvals, budget orders and their counters, in slices, and tops up to a larger size', async function () {
    // The bench's bulk generator writes SQLite and MySQL/MariaDB SQL (recursive CTEs, 0/1 booleans, session settings); `npm run bench` does not run on PostgreSQL yet.
    if (isPostgres()) this.skip();
    const { db } = await getShop();
    // Slices of 4 rows: 7 and 5 rows take two slices each; the top-up resumes from the counters.
    await seedOrderApprovalBench(db, { approvals: 7, budgetOrders: 5 }, 4);
    const { customerId, budgetId } = await seedOrderApprovalBench(db, { approvals: 9, budgetOrders: 6 }, 4);

    const approvals = await db('suite_order_approvals').where({ customer_id: customerId }).orderBy('approval_number');
    expect(approvals.map((a) => a.approval_number)).to.deep.equal(
      [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => `BENCH-OA-000000${i}`),
    );
    expect((await db('suite_order_approval_counts').where({ customer_id: customerId }).first()).approvals).to.equal(9);
    expect(new Set(approvals.map((a) => a.id)).size).to.equal(9);
    approvals.forEach((a, i) => {
      expect(a.id).to.match(new RegExp(ID_PATTERN));
      expect(a).to.deep.include({
        customer_id: customerId,
        requester_type: 'customer',
        requester_id: customerId,
        requester_name: 'Bench Approvals',
        requester_email: 'bench-oa-admin@bench.test',
        status: ['pending', 'approved', 'declined', 'ordered'][i % 4],
        decision_round: 1,
        reasons: '["requested"]',
        cart_token: null,
        open_cart_token: null,
        currency_iso: 'EUR',
        tax_total: 1900,
        block_reasons: '[]',
      });
      expect(Number(a.net_total)).to.equal(10000 + i);
      expect(Number(a.total)).to.equal(11900 + i);
      expect(Boolean(a.is_blocked)).to.equal(false);
    });
    // Each approval's one level: the company admins decide it.
    const levels = await db('suite_order_approval_levels').whereIn(
      'approval_id',
      approvals.map((a) => a.id),
    );
    expect(levels).to.have.length(9);
    for (const level of levels)
      expect(level).to.deep.include({ level: 1, mode: 'only-admins', n_value: 1, approver_employee_ids: '[]' });
    // One minute apart, newest first (within a slice; the top-up's slice starts from its own "now").
    const created = approvals.slice(0, 7).map((a) => Date.parse(fromDbTime(a.created_at)!));
    for (let i = 1; i < 7; i++) expect(created[i - 1]! - created[i]!).to.equal(60_000);
    const lines = await db('suite_order_approval_line_items').whereIn(
      'approval_id',
      approvals.map((a) => a.id),
    );
    expect(lines).to.have.length(9);
    approvals.forEach((a, i) => {
      const line = lines.find((l) => l.approval_id === a.id);
      expect(line.id).to.match(new RegExp(ID_PATTERN));
      expect(line).to.deep.include({
        type: 'product',
        product_id: null,
        product_number: `BENCH-${i}`,
        label: `Bench item ${i}`,
        quantity: 1,
        tax_rate_bp: 1900,
        payload: '{}',
        position: 0,
      });
      expect(Number(line.unit_net)).to.equal(10000 + i);
      expect(Number(line.total_net)).to.equal(10000 + i);
    });

    expect(Number((await db('suite_budgets').where({ id: budgetId }).first()).order_count)).to.equal(6);
    const usage = await db('suite_budget_orders').where({ budget_id: budgetId }).orderBy('order_number');
    expect(usage.map((u) => u.order_number)).to.deep.equal([0, 1, 2, 3, 4, 5].map((i) => `BOA-0000000${i}`));
    const orders = await db('orders').whereIn(
      'id',
      usage.map((u) => u.order_id),
    );
    const orderLines = await db('order_line_items').whereIn(
      'order_id',
      usage.map((u) => u.order_id),
    );
    expect(orders).to.have.length(6);
    expect(orderLines).to.have.length(6);
    usage.forEach((u, i) => {
      const order = orders.find((o) => o.id === u.order_id);
      const line = orderLines.find((l) => l.order_id === u.order_id);
      expect(order).to.deep.include({
        order_number: u.order_number,
        customer_id: customerId,
        placed_by_type: 'customer',
        placed_by_id: customerId,
        state: 'open',
        currency_iso: 'EUR',
        billing_address: 'null',
        shipping_address: 'null',
        custom_fields: '{}',
      });
      expect(JSON.parse(order.order_customer)).to.deep.equal({ customerId, email: 'bench-oa-admin@bench.test' });
      expect([Number(order.net_total), Number(order.tax_total), Number(order.total)]).to.deep.equal([2000, 380, 2380]);
      expect(fromDbTime(order.created_at)).to.equal(fromDbTime(order.order_date));
      expect(fromDbTime(u.placed_at)).to.equal(fromDbTime(order.order_date));
      expect(line).to.deep.include({
        type: 'product',
        product_id: null,
        product_number: `BENCH-${i}`,
        label: 'Bench item',
        quantity: 2,
        tax_rate_bp: 1900,
        payload: '{}',
        position: 0,
      });
      expect([Number(line.unit_net), Number(line.total_net), Number(u.amount)]).to.deep.equal([1000, 2000, 2000]);
      expect(u.customer_id).to.equal(customerId);
      // Exactly what writeJson of the usage object gives (the order the app writes its keys in).
      expect(u.budget_data).to.equal(
        JSON.stringify({
          budgetId,
          budgetLineItems: [
            {
              id: line.id,
              productId: null,
              productNumber: `BENCH-${i}`,
              label: 'Bench item',
              quantity: 2,
              unitPrice: 10,
              totalPrice: 20,
            },
          ],
          budgetProductCount: 0,
          totalProductCount: 0,
          budgetValue: 20,
          totalOrderValue: 20,
          budgetUsagePercentage: 0,
          budgetProductRatio: '0/0',
        }),
      );
    });
  });
});
