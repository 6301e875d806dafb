import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { getShop } from '../../helpers/shop.js';
import { as, employeeWith, hide, newCustomer, product, type Customer } from '../fast-order/helpers.js';
import { setRule } from '../quantity-rule/helpers.js';

/** Orders the products at the quantities through the Store API cart and checkout; answers the order id. */
async function order(token: string, lines: Array<[string, number]>): Promise<string> {
  const client = await as(token);
  const added = await client.post('/checkout/cart/line-item', {
    items: lines.map(([productId, quantity]) => ({ type: 'product', referencedId: productId, quantity })),
  });
  expect(added.status, JSON.stringify(added.body)).to.equal(200);
  const placed = await client.post('/checkout/order', {});
  expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
  return placed.body.id as string;
}

const cartLines = async (token: string) =>
  (
    (await (await as(token)).get('/checkout/cart')).body.lineItems as Array<{
      referencedId?: string;
      productId?: string;
      quantity: number;
    }>
  ).map((l) => [l.productId ?? l.referencedId, l.quantity]);

describe('order again', () => {
  let buyer: Customer;
  before(async () => {
    buyer = await newCustomer();
  });

  it('puts an order back into the cart and reports a product no longer visible and a changed price line by line', async () => {
    const kept = await product({ priceNet: 1000 });
    const dearer = await product({ priceNet: 2000 });
    const hidden = await product({ priceNet: 500 });
    const orderId = await order(buyer.token, [
      [kept.id, 2],
      [dearer.id, 3],
      [hidden.id, 1],
    ]);
    const db = (await getShop()).db;
    await db('products').where({ id: dearer.id }).update({ price_net: 2500 });
    await hide(hidden.id);

    const res = await (await as(buyer.token)).post(`/order-again/${orderId}`, { target: 'cart' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const byProduct = new Map(res.body.lines.map((l: { productId: string }) => [l.productId, l]));
    expect(byProduct.get(kept.id)).to.deep.include({ added: true, quantity: 2, changes: [], unitPrice: 10 });
    expect(byProduct.get(dearer.id)).to.deep.include({
      added: true,
      quantity: 3,
      orderedUnitPrice: 20,
      unitPrice: 25,
      changes: ['price-changed'],
    });
    expect(byProduct.get(hidden.id)).to.deep.include({ added: false, quantity: 0, changes: ['not-visible'] });
    expect(res.body).to.deep.include({ success: false, added: 2, target: 'cart' });
    const lines = await cartLines(buyer.token);
    expect(lines).to.deep.include.members([
      [kept.id, 2],
      [dearer.id, 3],
    ]);
    expect(lines.map((l) => l[0])).not.to.include(hidden.id);
  });

  it('adjusts a quantity to the quantity rule and says so; an empty stock is reported and not added', async () => {
    const other = await newCustomer();
    const packed = await product();
    const gone = await product();
    const orderId = await order(other.token, [
      [packed.id, 5],
      [gone.id, 1],
    ]);
    await setRule(packed.id, { minQuantity: 6, step: 6 });
    await (await getShop()).db('products').where({ id: gone.id }).update({ stock: 0 });
    const res = await (await as(other.token)).post(`/order-again/${orderId}`, {});
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const byProduct = new Map(res.body.lines.map((l: { productId: string }) => [l.productId, l]));
    expect(byProduct.get(packed.id)).to.deep.include({
      added: true,
      orderedQuantity: 5,
      quantity: 6,
      changes: ['quantity-adjusted'],
    });
    expect(byProduct.get(gone.id)).to.deep.include({ added: false, changes: ['out-of-stock'] });
  });

  it('adds to a product list of the customer', async () => {
    const lister = await newCustomer();
    const item = await product();
    const orderId = await order(lister.token, [[item.id, 4]]);
    const client = await as(lister.token);
    const list = await client.post('/product-lists/create', { name: 'Again' });
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    const res = await client.post(`/order-again/${orderId}`, { target: 'product-list', productListId: list.body.id });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ success: true, added: 1, target: 'product-list' });
    const read = await client.get(`/product-lists/${list.body.id}`);
    expect(
      read.body.items.map((i: { productId: string; quantity: number }) => [i.productId, i.quantity]),
    ).to.deep.equal([[item.id, 4]]);
  });

  it("answers 404 for another customer's order, and for a colleague's order without orders.read-all; 400 for bad input", async () => {
    const item = await product();
    const orderId = await order(buyer.token, [[item.id, 1]]);
    const stranger = await newCustomer();
    expect((await (await as(stranger.token)).post(`/order-again/${orderId}`, {})).status).to.equal(404);
    const own = await employeeWith(['orders.create'], buyer);
    expect((await (await as(own.token)).post(`/order-again/${orderId}`, {})).status).to.equal(404);
    const all = await employeeWith(['orders.create', 'orders.read-all'], buyer);
    expect((await (await as(all.token)).post(`/order-again/${orderId}`, {})).status).to.equal(200);
    const bad = await (await as(buyer.token)).post(`/order-again/${orderId}`, { target: 'nowhere' });
    expect(bad.status).to.equal(400);
    expect((await (await as(buyer.token)).post(`/order-again/${newId()}`, {})).status).to.equal(404);
  });
});
