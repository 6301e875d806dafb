import { expect } from 'chai';
import { getShop, isServerDb } from '../../helpers/shop.js';
import { startAppProcesses, stopAppProcesses, type AppProcess } from '../../helpers/processes.js';
import { company, openOffer, ordersOfOffer, product, putOnProcess as put } from './helpers.js';

describe('offers: concurrent accepts across two app processes (MariaDB)', function () {
  this.timeout(240000);
  let processes: AppProcess[] = [];

  after(async () => {
    await stopAppProcesses(processes);
  });

  it('20 concurrent accepts of one offer place exactly one order, and every caller gets it', async function () {
    // Row locks and conditional writes across processes need a database server; SQLite runs one process.
    if (!isServerDb()) this.skip();
    processes = await startAppProcesses(2);
    const [a, b] = processes;
    const c = await company();
    const p = await product(1000, 100);
    const offer = await openOffer(c, [{ productId: p.id, quantity: 4 }], [9]);

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        put(i % 2 ? a! : b!, `/offer/${offer.id}`, c.customer.token, { action: 'accept' }),
      ),
    );
    expect(
      results.map((r) => r.status),
      JSON.stringify(results.find((r) => r.status !== 200)),
    ).to.satisfy((s: number[]) => s.every((x) => x === 200));
    const orderIds = new Set(results.map((r) => r.body.orderId));
    expect(orderIds.size).to.equal(1);
    const orders = await ordersOfOffer(offer.id);
    expect(orders.map((o) => o.id)).to.deep.equal([...orderIds]);
    const db = (await getShop()).db;
    expect(Number((await db('products').where({ id: p.id }).first('stock')).stock)).to.equal(96);
    expect(
      Number((await db('order_line_items').where({ order_id: orders[0]!.id }).first('unit_net')).unit_net),
    ).to.equal(900);
  });
});
