import { expect } from 'chai';
import { isServerDb } from '../../helpers/shop.js';
import { startAppProcesses, stopAppProcesses, type AppProcess } from '../../helpers/processes.js';
import { startShop } from '../order-approval/helpers.js';
import { employeeWith, newCustomer } from '../employee/helpers.js';
import { admin, fillCart, ORDER_TOTAL, setCreditLine, widget } from './helpers.js';

describe('payment on account: 10 concurrent orders against a line that fits 3 (MariaDB, two app processes)', function () {
  before(startShop);
  this.timeout(300000);
  let processes: AppProcess[] = [];

  after(async () => {
    await stopAppProcesses(processes);
  });

  it('places exactly 3; the other 7 are refused with SUITE__CREDIT_LINE_EXCEEDED and the balance never exceeds the limit', async function () {
    // The credit line's row lock across processes needs a database server; SQLite runs one process.
    if (!isServerDb()) this.skip();
    processes = await startAppProcesses(2);
    const company = await newCustomer();
    const product = await widget();
    // Room for 3 orders of 119.00 and not a 4th.
    const limit = 3.5 * ORDER_TOTAL;
    await setCreditLine(company.customer.id, limit);
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { token } = await employeeWith(['orders.create'], company);
      await fillCart(token, product.id);
      tokens.push(token);
    }
    const results = await Promise.all(
      tokens.map(async (token, i) => {
        const res = await fetch(`${processes[i % 2]!.url}/store-api/checkout/order`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'suite-context-token': token },
          body: JSON.stringify({ paymentMethod: 'on-account' }),
        });
        return { status: res.status, body: (await res.json()) as any };
      }),
    );
    expect(results.filter((r) => r.status === 200)).to.have.length(3);
    for (const refused of results.filter((r) => r.status !== 200)) {
      expect(refused.status, JSON.stringify(refused.body)).to.equal(400);
      expect(refused.body.errors[0].code).to.equal('SUITE__CREDIT_LINE_EXCEEDED');
    }
    const line = (await admin('get', `/b2b/credit-line/${company.customer.id}`)).body.data.attributes;
    expect(line.balance).to.equal(3 * ORDER_TOTAL);
    expect(line.remaining).to.equal(limit - 3 * ORDER_TOTAL);
  });
});
