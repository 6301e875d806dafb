import { expect } from 'chai';
import { getShop } from '../../helpers/shop.js';
import { loggedInVisitor } from '../../helpers/storefront.js';
import { as, employeeWith, hide, newCustomer, product } from '../fast-order/helpers.js';

async function order(token: string, lines: Array<[string, number]>): Promise<string> {
  const client = await as(token);
  await client.post('/checkout/cart/line-item', {
    items: lines.map(([productId, quantity]) => ({ type: 'product', referencedId: productId, quantity })),
  });
  const placed = await client.post('/checkout/order', {});
  expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
  return placed.body.id as string;
}

describe('order again and automatic lists: storefront pages', function () {
  this.timeout(60000);

  it('the order page links to order again; the form puts the order into the cart and shows line by line what changed', async () => {
    const buyer = await newCustomer();
    const kept = await product({ priceNet: 1000 });
    const dearer = await product({ priceNet: 2000 });
    const hidden = await product();
    const orderId = await order(buyer.token, [
      [kept.id, 1],
      [dearer.id, 2],
      [hidden.id, 1],
    ]);
    await (await getShop()).db('products').where({ id: dearer.id }).update({ price_net: 2200 });
    await hide(hidden.id);
    const visitor = await loggedInVisitor(buyer.email, buyer.password);
    const orderPage = await visitor.get(`/account/orders/${orderId}`);
    // Handlebars escapes the "=" of the query.
    expect(orderPage.text).to.contain(
      `href="/account/order-again?orderId&#x3D;${orderId}" data-test="order-again-link"`,
    );
    const form = await visitor.get(`/account/order-again?orderId=${orderId}`);
    expect(form.text).to.contain('data-test="order-again-form"');
    const done = await visitor.post('/account/order-again', { orderId });
    expect(done.status).to.equal(200);
    expect(done.text).to.contain('2 of 3 lines are in your cart');
    expect(done.text).to.match(
      new RegExp(`data-product-id="${dearer.id}" data-added="true" data-changes="price-changed `),
    );
    expect(done.text).to.match(
      new RegExp(`data-product-id="${hidden.id}" data-added="false" data-changes="not-visible `),
    );
  });

  it('"my assortment" lists the ordered products, puts chosen quantities into the cart and exports CSV', async () => {
    const buyer = await newCustomer();
    const a = await product();
    const b = await product();
    await order(buyer.token, [
      [a.id, 3],
      [b.id, 1],
    ]);
    const visitor = await loggedInVisitor(buyer.email, buyer.password);
    const page = await visitor.get('/account/assortment');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain(a.number).and.to.contain(b.number).and.to.contain('2 products');
    const toCart = await visitor.post('/account/assortment/to-cart', { [`quantity-${a.id}`]: '4' });
    expect(toCart.status).to.equal(303);
    const cart = (await (await as(buyer.token)).get('/checkout/cart')).body;
    expect(cart.lineItems.map((l: { quantity: number }) => l.quantity)).to.deep.equal([4]);
    const csv = await visitor.post('/account/assortment/export', {});
    expect(csv.status).to.equal(200);
    expect(csv.text).to.contain(a.number);
    const frequent = await visitor.get('/account/frequently-ordered?days=7');
    expect(frequent.text).to.contain(a.number);
  });

  it('a buyer without orders.read-all opens both lists with their own orders; a ruled-out product is not shown', async () => {
    const company = await newCustomer();
    const buyer = await employeeWith(['orders.create'], company);
    const [mine, gone, colleagues] = [await product(), await product(), await product()];
    await order(buyer.token, [
      [mine.id, 2],
      [gone.id, 1],
    ]);
    await order(company.token, [[colleagues.id, 1]]);
    await hide(gone.id);
    const visitor = await loggedInVisitor(buyer.employee.email, buyer.employee.password);
    for (const path of ['/account/assortment', '/account/frequently-ordered?days=7']) {
      const page = await visitor.get(path);
      expect(page.status, path).to.equal(200);
      expect(page.text, path)
        .to.contain(mine.number)
        .and.not.contain(gone.id)
        .and.not.contain(colleagues.number)
        .and.not.contain('No longer available');
    }
  });
});
