import { expect } from 'chai';
import { admin, as, employeeWith, hide, newCustomer, product } from '../fast-order/helpers.js';

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

async function cancel(orderId: string): Promise<void> {
  const res = await (await admin()).post(`/_action/order/${orderId}/state/cancel`, {});
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}

type Item = { productId: string; lastQuantity: number; orderCount: number; totalQuantity: number; visible: boolean };
const assortment = async (token: string) => {
  const res = await (await as(token)).post('/automatic-lists/assortment', { limit: 100 });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as { total: number; elements: Item[] };
};

describe('automatic lists', () => {
  it('"my assortment" holds every product the company ordered, with the last quantity; a cancelled order\'s products leave it unless another order has them', async () => {
    const buyer = await newCustomer();
    const [a, b, c] = [await product(), await product(), await product()];
    const first = await order(buyer.token, [
      [a.id, 2],
      [b.id, 1],
    ]);
    const second = await order(buyer.token, [
      [a.id, 5],
      [c.id, 3],
    ]);
    let list = await assortment(buyer.token);
    expect(list.total).to.equal(3);
    // The most recently ordered first; a's last quantity is the second order's.
    expect(list.elements.map((i) => i.productId).slice(0, 2)).to.have.members([a.id, c.id]);
    const byId = () => new Map(list.elements.map((i) => [i.productId, i]));
    expect(byId().get(a.id)).to.deep.include({ lastQuantity: 5, orderCount: 2, totalQuantity: 7, visible: true });

    await cancel(second);
    list = await assortment(buyer.token);
    expect(list.elements.map((i) => i.productId)).to.have.members([a.id, b.id]);
    expect(byId().get(a.id)).to.deep.include({ lastQuantity: 2, orderCount: 1, totalQuantity: 2 });

    await cancel(first);
    expect((await assortment(buyer.token)).total).to.equal(0);
  });

  it('"frequently ordered" counts orders within the window, most often first; a hidden product is marked; CSV export; 403 without orders.read-all', async () => {
    const buyer = await newCustomer();
    const [often, once, hidden] = [await product(), await product(), await product()];
    await order(buyer.token, [
      [often.id, 1],
      [hidden.id, 1],
    ]);
    await order(buyer.token, [[often.id, 4]]);
    await order(buyer.token, [[once.id, 1]]);
    await hide(hidden.id);
    const client = await as(buyer.token);
    const res = await client.post('/automatic-lists/frequent', {});
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.elements[0]).to.deep.include({ productId: often.id, orderCount: 2, totalQuantity: 5 });
    expect(res.body.elements.find((i: Item) => i.productId === hidden.id)).to.deep.include({ visible: false });
    const past = await client.post('/automatic-lists/frequent', { to: '2020-01-01T00:00:00.000Z' });
    expect(past.body.total).to.equal(0);
    const bad = await client.post('/automatic-lists/frequent', { from: 'yesterday' });
    expect(bad.status).to.equal(400);

    const csv = await client.post('/automatic-lists/export', { list: 'assortment' });
    expect(csv.status).to.equal(200);
    expect(csv.headers['content-type']).to.match(/text\/csv/);
    expect(csv.text.split(/\r?\n/)[0]).to.equal(
      'product_number,name,order_count,total_quantity,last_quantity,last_order_date',
    );
    expect(csv.text).to.include(often.number).and.include(once.number).and.not.include(hidden.number);

    const own = await employeeWith(['orders.create'], buyer);
    expect((await (await as(own.token)).post('/automatic-lists/assortment', {})).status).to.equal(403);
  });
});
