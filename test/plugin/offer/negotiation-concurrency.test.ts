import { expect } from 'chai';
import { getShop, isServerDb } from '../../helpers/shop.js';
import { startAppProcesses, stopAppProcesses, type AppProcess } from '../../helpers/processes.js';
import { as, company, openOffer, ordersOfOffer, product, putOnProcess as put } from './helpers.js';

describe('negotiated quotes: concurrent accepts of one version across two app processes (MariaDB)', function () {
  this.timeout(240000);
  let processes: AppProcess[] = [];

  after(async () => {
    await stopAppProcesses(processes);
  });

  it('20 concurrent accepts of version 2 place one order; accepts naming version 1 are 409', async function () {
    // Row locks and conditional writes across processes need a database server; SQLite runs one process.
    if (!isServerDb()) this.skip();
    processes = await startAppProcesses(2);
    const [a, b] = processes;
    const c = await company();
    const p = await product(1000, 100);
    const v1 = await openOffer(c, [{ productId: p.id, quantity: 4 }], [9]);
    expect(
      (await (await as(c.rep.token)).put(`/offer/${v1.id}`, { lineItems: [{ id: v1.lineItems[0].id, unitPrice: 8 }] }))
        .body.version,
    ).to.equal(2);
    expect((await (await as(c.rep.token)).post(`/offer-mail/${v1.id}`, {})).status).to.equal(200);

    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        put(i % 2 ? a! : b!, `/offer/${v1.id}`, c.customer.token, { action: 'accept', version: i % 6 === 5 ? 1 : 2 }),
      ),
    );
    const current = results.filter((_, i) => i % 6 !== 5);
    const stale = results.filter((_, i) => i % 6 === 5);
    expect(
      current.map((r) => r.status),
      JSON.stringify(current.find((r) => r.status !== 200)),
    ).to.satisfy((s: number[]) => s.every((x) => x === 200));
    expect(stale.map((r) => [r.status, r.body?.errors?.[0]?.code])).to.deep.equal(
      stale.map(() => [409, 'SUITE__OFFER_VERSION_STALE']),
    );
    const orderIds = new Set(current.map((r) => r.body.orderId));
    expect(orderIds.size).to.equal(1);
    const orders = await ordersOfOffer(v1.id);
    expect(orders.map((o) => o.id)).to.deep.equal([...orderIds]);
    const db = (await getShop()).db;
    expect(Number((await db('products').where({ id: p.id }).first('stock')).stock)).to.equal(96);
    expect(
      Number((await db('order_line_items').where({ order_id: orders[0]!.id }).first('unit_net')).unit_net),
    ).to.equal(800);
  });
});
