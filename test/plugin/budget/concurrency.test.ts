import { expect } from 'chai';
import { isServerDb } from '../../helpers/shop.js';
import { raceCheckouts, startAppProcesses, stopAppProcesses, type AppProcess } from '../../helpers/processes.js';
import { as, createBudget, employee, fillCart, newCustomer, product, startShop } from '../order-approval/helpers.js';

describe('budgets: 40 concurrent orders across two app processes (MariaDB)', function () {
  before(startShop);
  this.timeout(300000);
  let processes: AppProcess[] = [];

  after(async () => {
    await stopAppProcesses(processes);
  });

  for (const allowApproval of [false, true]) {
    it(`accepts at most the 10 orders that fit; the rest are ${allowApproval ? 'sent to approval' : 'refused'}, and used + reserved never exceeds the amount`, async function () {
      // The budget row lock (FOR UPDATE) across processes needs a database server; SQLite runs one process.
      if (!isServerDb()) this.skip();
      if (processes.length === 0) processes = await startAppProcesses(2);
      const customer = await newCustomer();
      // A company-wide budget (no assigned employees) governs every employee's orders: 10 orders of 25.00.
      const budget = await createBudget(customer.token, { amount: 250, allowApproval });
      const p = await product({ priceNet: 2500, stock: 1000 });
      const tokens: string[] = [];
      for (let i = 0; i < 40; i++) {
        const buyer = await employee(customer, ['orders.create']);
        await fillCart(buyer.token, [{ productId: p.id, quantity: 1 }]);
        tokens.push(buyer.token);
      }
      const results = await raceCheckouts(processes, tokens);
      const accepted = results.filter((r) => r.status === 200);
      // Never more than fit; and since every check sees the committed usage, exactly as many as fit.
      // Counted by answer, so a failure shows what the others got (a refusal, or a transient one left).
      const answers: Record<string, number> = {};
      for (const r of results) {
        const answer =
          r.status === 200 ? 'placed' : `${r.status} ${r.body?.errors?.[0]?.code ?? JSON.stringify(r.body)}`;
        answers[answer] = (answers[answer] ?? 0) + 1;
      }
      const refusal = allowApproval ? 'SUITE__ORDER_APPROVAL_REQUIRED' : 'SUITE__BUDGET_EXCEEDED';
      expect(answers).to.deep.equal({ placed: 10, [`400 ${refusal}`]: 30 });
      const state = (await (await as(customer.token)).get(`/budget/${budget.id}`)).body;
      expect(state.used).to.equal(accepted.length * 25);
      expect(state.used + state.reserved).to.be.at.most(250);
      const orders = (await (await as(customer.token)).get(`/budget/${budget.id}/orders?limit=100`)).body;
      expect(orders.total).to.equal(accepted.length);
    });
  }
});
