import { expect } from 'chai';
import { buildStoreContext } from '../../src/host/auth/store-context.js';
import type { StoreContext } from '../../src/contract/index.js';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { statementsDuring } from '../helpers/statements.js';
import { adminToken, expectError, getShop, isServerDb, loginNewCustomer } from '../helpers/shop.js';
import { appProcessesForSuite, type AppProcess } from '../helpers/processes.js';
import { addToCart, placeOrder } from '../helpers/checkout.js';
import { admin, as, hide, product, setPrice } from '../plugin/fast-order/helpers.js';
import { assign, createRule, KINDS } from '../plugin/partial-assortment/fixtures.js';

/** The statements of a warm request other than the plugin settings' read (SQLite re-reads them after any write). */
const rereadsBeyondSettings = (statements: string[]) =>
  isServerDb() ? statements : statements.filter((sql) => !/plugin_configs/.test(sql));

/**
 * Products read by id (`catalog.visibleProducts`: product price, cart, fast order, product page)
 * are kept per process while the products version (triggers of migrations/host/012) and the
 * visibility version stay as the request read them with its context: any write, whoever makes it,
 * shows on the next request.
 */
const PRODUCT_READ = /from [`"]?products[`"]? where [`"]?products[`"]?\.[`"]?id[`"]? in/i;

async function db() {
  return (await getShop()).db;
}

/** The context a Store API request with this token gets (what a handler sees). */
async function contextOf(token: string): Promise<StoreContext> {
  const shop = await getShop();
  return buildStoreContext(
    shop.internals,
    { header: () => undefined, ip: '127.0.0.1', requestId: newId() },
    token,
    true,
  );
}

async function readAsRequest(token: string, id: string) {
  const [record] = await (
    await getShop()
  ).runtime.catalog.visibleProducts((await getShop()).runtime.db, await contextOf(token), [id]);
  return record;
}

describe('host: products read by id, kept per process at the products version', () => {
  it('product price: a warm request runs the versions read only (on SQLite not even that while the database is unchanged) (tier prices come with the kept product, customer price rows are kept at their version); a change to the product, its tier prices or its state shows on the next request', async () => {
    const buyer = await loginNewCustomer();
    const item = await product({ priceNet: 1000, tiers: [[10, 800]] });
    await setPrice({ customerId: buyer.customer.id, productId: item.id, minQuantity: 50, price: 6 });
    const client = await as(buyer.token);
    const unitAt = async (quantity: number) => {
      const res = await client.post(`/product-price/${item.id}/${quantity}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.calculatedPrice.unitPrice as number;
    };
    expect(await unitAt(60)).to.equal(6);
    // On SQLite the first request after a write reads the versions without keeping them, the next keeps them.
    expect(await unitAt(60)).to.equal(6);
    const warm = await statementsDuring(await db(), /./, () => unitAt(60));
    expect(warm.result).to.equal(6);
    expect(warm.statements.filter((sql) => PRODUCT_READ.test(sql))).to.deep.equal([]);
    // The versions read (on SQLite kept while the database is unchanged). A write of the shared test app's
    // own job worker in between may make SQLite read the kept settings again — never the product.
    expect(rereadsBeyondSettings(warm.statements), warm.statements.join('\n')).to.have.length(isServerDb() ? 1 : 0);
    // No customer price at 10: the tier prices came with the kept product, none are read.
    expect(await unitAt(10)).to.equal(8);
    const tier = await statementsDuring(await db(), /./, () => unitAt(10));
    expect(tier.result).to.equal(8);
    expect(rereadsBeyondSettings(tier.statements), tier.statements.join('\n')).to.have.length(isServerDb() ? 1 : 0);
    expect(tier.statements.filter((sql) => PRODUCT_READ.test(sql) || /product_tier_prices/.test(sql))).to.deep.equal(
      [],
    );

    // Plain SQL, as an import or an operator would write it.
    expect(await unitAt(1)).to.equal(10);
    await (await db())('products').where({ id: item.id }).update({ price_net: 1200 });
    expect(await unitAt(1)).to.equal(12);
    expect(await unitAt(10)).to.equal(8);
    await (await db())('product_tier_prices').where({ product_id: item.id }).update({ price_net: 700 });
    expect(await unitAt(10)).to.equal(7);
    await (
      await db()
    )('product_tier_prices').insert({ id: newId(), product_id: item.id, min_quantity: 5, price_net: 900 });
    expect(await unitAt(5)).to.equal(9);
    await (await db())('product_tier_prices').where({ product_id: item.id }).delete();
    expect(await unitAt(10)).to.equal(12);

    await (await db())('products').where({ id: item.id }).update({ active: false });
    expectError(await client.post(`/product-price/${item.id}/1`), 404);
    await (await db())('products').where({ id: item.id }).update({ active: true });
    expect(await unitAt(1)).to.equal(12);

    // Through the Admin API.
    const patched = await (
      await admin()
    ).patch(`/product/${item.id}`, { price: 15, tierPrices: [{ minQuantity: 10, price: 14 }] });
    expect(patched.status, JSON.stringify(patched.body)).to.be.oneOf([200, 204]);
    expect(await unitAt(1)).to.equal(15);
    expect(await unitAt(10)).to.equal(14);

    // Hidden by a partial assortment (the visibility version), then deleted.
    await hide(item.id);
    expectError(await client.post(`/product-price/${item.id}/1`), 404);
    const other = await product({ priceNet: 500 });
    expect((await client.post(`/product-price/${other.id}/1`)).body.calculatedPrice.unitPrice).to.equal(5);
    await (await db())('products').where({ id: other.id }).delete();
    expectError(await client.post(`/product-price/${other.id}/1`), 404);
  });

  it('contexts the visibility filters answer differently each get their own verdict', async () => {
    const seer = await loginNewCustomer();
    const blind = await loginNewCustomer();
    const item = await product();
    await assign(KINDS[2], item.id, await createRule({ type: 'customerId', operator: '=', value: [seer.customer.id] }));
    for (let i = 0; i < 2; i++) {
      expect((await (await as(seer.token)).post(`/product-price/${item.id}/1`)).status).to.equal(200);
      expectError(await (await as(blind.token)).post(`/product-price/${item.id}/1`), 404);
    }
  });

  it("stock, categories: an order's decrement, a category assigned or deleted show on the next read; a transaction reads its own writes", async () => {
    const buyer = await loginNewCustomer();
    const item = await product({ stock: 20 });
    expect((await readAsRequest(buyer.token, item.id))!.stock).to.equal(20);
    expect((await addToCart(buyer.token, [{ productId: item.id, quantity: 3 }])).status).to.equal(200);
    expect((await readAsRequest(buyer.token, item.id))!.stock).to.equal(20);
    const order = await placeOrder(buyer.token);
    expect(order.status, JSON.stringify(order.body)).to.equal(200);
    expect((await readAsRequest(buyer.token, item.id))!.stock).to.equal(17);

    const categoryId = newId();
    await (
      await db()
    )('categories').insert({
      id: categoryId,
      version_id: newId(),
      name: `Category ${categoryId.slice(0, 6)}`,
      active: true,
      created_at: nowDb(),
    });
    await (await db())('product_categories').insert({ product_id: item.id, category_id: categoryId });
    expect((await readAsRequest(buyer.token, item.id))!.categoryIds).to.deep.equal([categoryId]);
    await (await db())('categories').where({ id: categoryId }).delete();
    expect((await readAsRequest(buyer.token, item.id))!.categoryIds).to.deep.equal([]);

    // A kept record is shared by every request, so it is frozen: a caller that tries to change it
    // throws (contract: copy to change), and nothing kept changes.
    const record = (await readAsRequest(buyer.token, item.id))!;
    expect(() => {
      record.stock = -1;
    }).to.throw(TypeError);
    expect(() => record.categoryIds.push('changed')).to.throw(TypeError);
    expect(await readAsRequest(buyer.token, item.id)).to.deep.include({ stock: 17, categoryIds: [] });

    // Inside a transaction the kept record is not used: the transaction sees its own write.
    const shop = await getShop();
    const ctx = await contextOf(buyer.token);
    await shop.runtime.catalog.visibleProducts(shop.runtime.db, ctx, [item.id]);
    await shop.db
      .transaction(async (trx) => {
        await trx('products').where({ id: item.id }).update({ stock: 5 });
        const [inside] = await shop.runtime.catalog.visibleProducts(trx, ctx, [item.id]);
        expect(inside!.stock).to.equal(5);
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).to.equal('roll back'));
    expect((await readAsRequest(buyer.token, item.id))!.stock).to.equal(17);
  });
});

describe('host: products read by id across two app processes (MariaDB)', function () {
  this.timeout(180000);
  const twoProcesses = appProcessesForSuite(2);

  async function unitAt(app: AppProcess, token: string, id: string, quantity = 1): Promise<number | null> {
    const res = await fetch(`${app.url}/store-api/product-price/${id}/${quantity}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'suite-context-token': token },
      body: '{}',
    });
    const body = (await res.json()) as { calculatedPrice?: { unitPrice: number } };
    if (res.status === 404) return null;
    expect(res.status, JSON.stringify(body)).to.equal(200);
    return body.calculatedPrice!.unitPrice;
  }

  it('a price, tier price or state changed through one process, by plain SQL or by an order shows on the other on its next request', async function () {
    // Several processes on one database need a database server; SQLite runs one process.
    if (!isServerDb()) this.skip();
    const [a, b] = await twoProcesses();
    const { token } = await loginNewCustomer();
    const item = await product({ priceNet: 1000, tiers: [[10, 800]] });
    for (const app of [a!, b!, a!, b!]) expect(await unitAt(app, token, item.id)).to.equal(10);
    const patched = await fetch(`${a!.url}/api/product/${item.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await adminToken()}` },
      body: JSON.stringify({ price: 11, tierPrices: [{ minQuantity: 10, price: 9 }] }),
    });
    expect(patched.status).to.be.oneOf([200, 204]);
    expect(await unitAt(b!, token, item.id)).to.equal(11);
    expect(await unitAt(b!, token, item.id, 10)).to.equal(9);
    await (await db())('products').where({ id: item.id }).update({ active: false });
    expect(await unitAt(a!, token, item.id)).to.equal(null);
    expect(await unitAt(b!, token, item.id)).to.equal(null);
    await (await db())('products').where({ id: item.id }).update({ active: true });
    expect(await unitAt(b!, token, item.id)).to.equal(11);
    // An order placed through process a moves the stock (a products update): this test's own process reads it again.
    expect((await readAsRequest(token, item.id))!.stock).to.equal(100);
    const cart = await fetch(`${a!.url}/store-api/checkout/cart/line-item`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'suite-context-token': token },
      body: JSON.stringify({ items: [{ productId: item.id, quantity: 2 }] }),
    });
    expect(cart.status).to.equal(200);
    const ordered = await fetch(`${a!.url}/store-api/checkout/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'suite-context-token': token },
      body: '{}',
    });
    expect(ordered.status).to.equal(200);
    expect((await readAsRequest(token, item.id))!.stock).to.equal(98);
  });
});
