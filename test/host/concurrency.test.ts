import { expect } from 'chai';
import { getShop, isServerDb, loginNewCustomer } from '../helpers/shop.js';
import { addToCart, insertProduct, productStock } from '../helpers/checkout.js';
import { appProcessesForSuite, raceCheckouts } from '../helpers/processes.js';

describe('host: checkout races across two app processes', function () {
  this.timeout(180000);
  const twoProcesses = appProcessesForSuite(2);

  it('turns one cart into exactly one order when 20 requests with the same token race', async function () {
    // Row locks across processes need a database server; SQLite serialises one process's writes and is not run scaled out.
    if (!isServerDb()) this.skip();
    const apps = await twoProcesses();
    const { token, customer } = await loginNewCustomer();
    const product = await insertProduct({ stock: 50 });
    const cart = await addToCart(token, [{ productId: product.id, quantity: 2 }]);
    expect(cart.status).to.equal(200);

    const results = await raceCheckouts(
      apps,
      Array.from({ length: 20 }, () => token),
    );
    const succeeded = results.filter((r) => r.status === 200);
    expect(succeeded, JSON.stringify(results.map((r) => r.status))).to.have.length(1);
    for (const failed of results.filter((r) => r.status !== 200)) {
      expect([400, 409]).to.include(failed.status);
      expect(['SUITE__CART_ALREADY_ORDERED', 'SUITE__CONFLICT']).to.include(failed.body.errors[0].code);
    }
    const db = (await getShop()).db;
    const orders = await db('orders').where({ customer_id: customer.id }).select('id', 'source_cart_token');
    expect(orders).to.deep.equal([{ id: succeeded[0]!.body.id, source_cart_token: cart.body.token }]);
    expect(await productStock(product.id)).to.equal(48);
    expect(await db('documents').where({ order_id: orders[0]!.id }).select('id')).to.have.length(1);
  });

  it('keeps every quantity exact when 20 adds of one session race on two processes', async function () {
    // Row locks across processes need a database server, as above.
    if (!isServerDb()) this.skip();
    const apps = await twoProcesses();
    const { token } = await loginNewCustomer();
    const shared = await insertProduct({ stock: 1000 });
    const own = await Promise.all(Array.from({ length: 5 }, () => insertProduct({ stock: 1000 })));
    // A first add on each process, so both remember the session's cart before the race.
    for (const app of apps)
      expect((await addOn(app.url, token, [{ productId: shared.id, quantity: 1 }])).status).to.equal(200);

    const bodies = Array.from({ length: 20 }, (_, i) => [
      { productId: shared.id, quantity: 1 + (i % 3) },
      ...(i < own.length ? [{ productId: own[i]!.id, quantity: 2 }] : []),
    ]);
    const results = await Promise.all(bodies.map((items, i) => addOn(apps[i % apps.length]!.url, token, items)));
    expect(
      results.map((r) => r.status),
      JSON.stringify(results.filter((r) => r.status !== 200).map((r) => r.body)),
    ).to.deep.equal(bodies.map(() => 200));

    const db = (await getShop()).db;
    const lines = await db('cart_line_items')
      .where({ cart_token: results[0]!.body.token })
      .select('product_id', 'quantity');
    const quantities = Object.fromEntries(
      lines.map((l: { product_id: string; quantity: number | string }) => [l.product_id, Number(l.quantity)]),
    );
    expect(lines).to.have.length(1 + own.length);
    expect(quantities[shared.id]).to.equal(2 + bodies.reduce((sum, items) => sum + items[0]!.quantity, 0));
    for (const product of own) expect(quantities[product.id]).to.equal(2);
    expect(new Set(results.map((r) => r.body.token)).size).to.equal(1);
  });

  it('sells at most the stock when 20 customers order the last 5 at once', async function () {
    // As above: the stock guard is a conditional write that only a database server exercises across processes.
    if (!isServerDb()) this.skip();
    const apps = await twoProcesses();
    const product = await insertProduct({ stock: 5 });
    const buyers: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { token } = await loginNewCustomer();
      expect((await addToCart(token, [{ productId: product.id, quantity: 1 }])).status).to.equal(200);
      buyers.push(token);
    }

    const results = await raceCheckouts(apps, buyers);
    const succeeded = results.filter((r) => r.status === 200);
    expect(succeeded, JSON.stringify(results.map((r) => r.status))).to.have.length(5);
    for (const failed of results.filter((r) => r.status !== 200)) {
      expect(failed.status).to.equal(400);
      expect(failed.body.errors[0].code).to.equal('SUITE__OUT_OF_STOCK');
    }
    expect(await productStock(product.id)).to.equal(0);
    const db = (await getShop()).db;
    const ordered = await db('order_line_items').where({ product_id: product.id }).select('order_id');
    expect(ordered.map((o) => o.order_id).sort()).to.deep.equal(succeeded.map((s) => s.body.id).sort());
  });
});

async function addOn(
  url: string,
  token: string,
  items: Array<{ productId: string; quantity: number }>,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/store-api/checkout/cart/line-item`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'suite-context-token': token },
    body: JSON.stringify({ items }),
  });
  return { status: res.status, body: await res.json() };
}
