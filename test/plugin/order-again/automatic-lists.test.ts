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

  it('"frequently ordered" counts orders within the window, most often first; CSV export', async () => {
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
  });

  it('a product since ruled out for the customer leaves both lists (no row, no id, not counted)', async () => {
    const buyer = await newCustomer();
    const [kept, gone] = [await product(), await product()];
    await order(buyer.token, [
      [kept.id, 1],
      [gone.id, 2],
    ]);
    await order(buyer.token, [[gone.id, 1]]);
    await hide(gone.id);
    const client = await as(buyer.token);
    for (const path of ['/automatic-lists/assortment', '/automatic-lists/frequent']) {
      const res = await client.post(path, { limit: 100 });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.total, path).to.equal(1);
      expect(
        res.body.elements.map((i: Item) => i.productId),
        path,
      ).to.deep.equal([kept.id]);
      expect(JSON.stringify(res.body), `${path} leaks no id of the hidden product`).not.to.include(gone.id);
    }
    // A page of one: the hidden product takes no place on a page either.
    const first = await client.post('/automatic-lists/frequent', { limit: 1, page: 1 });
    expect(first.body.elements.map((i: Item) => i.productId)).to.deep.equal([kept.id]);
    expect((await client.post('/automatic-lists/frequent', { limit: 1, page: 2 })).body.elements).to.deep.equal([]);
  });

  it('a buyer with orders.create but not orders.read-all gets the lists of their own orders; without either 403', async () => {
    const company = await newCustomer();
    const buyer = await employeeWith(['orders.create'], company);
    const colleague = await employeeWith(['orders.create'], company);
    const [mine, both, theirs, admins] = [await product(), await product(), await product(), await product()];
    await order(buyer.token, [
      [mine.id, 2],
      [both.id, 1],
    ]);
    await order(buyer.token, [[mine.id, 3]]);
    await order(colleague.token, [
      [both.id, 5],
      [theirs.id, 1],
    ]);
    await order(company.token, [[admins.id, 1]]);

    const client = await as(buyer.token);
    const frequent = await client.post('/automatic-lists/frequent', {});
    expect(frequent.status, JSON.stringify(frequent.body)).to.equal(200);
    expect(frequent.body.total).to.equal(2);
    expect(frequent.body.elements.map((i: Item) => [i.productId, i.orderCount, i.totalQuantity])).to.deep.equal([
      [mine.id, 2, 5],
      [both.id, 1, 1],
    ]);
    const assortmentOfBuyer = await client.post('/automatic-lists/assortment', {});
    expect(assortmentOfBuyer.status, JSON.stringify(assortmentOfBuyer.body)).to.equal(200);
    expect(assortmentOfBuyer.body.total).to.equal(2);
    const byId = new Map(assortmentOfBuyer.body.elements.map((i: Item) => [i.productId, i]));
    expect(byId.get(mine.id)).to.deep.include({ orderCount: 2, totalQuantity: 5, lastQuantity: 3 });
    expect(byId.get(both.id)).to.deep.include({ orderCount: 1, totalQuantity: 1, lastQuantity: 1 });
    const csv = await client.post('/automatic-lists/export', { list: 'frequent' });
    expect(csv.status).to.equal(200);
    expect(csv.text).to.include(mine.number).and.not.include(theirs.number).and.not.include(admins.number);

    // The company admin (orders.read-all) still sees the company's.
    const company_ = await assortment(company.token);
    expect(company_.elements.map((i) => i.productId)).to.have.members([mine.id, both.id, theirs.id, admins.id]);
    expect(company_.elements.find((i) => i.productId === both.id)).to.deep.include({ orderCount: 2, totalQuantity: 6 });

    const reader = await employeeWith(['orders.read'], company);
    expect((await (await as(reader.token)).post('/automatic-lists/frequent', {})).status).to.equal(403);
    expect((await (await as(reader.token)).post('/automatic-lists/assortment', {})).status).to.equal(403);
  });
});
