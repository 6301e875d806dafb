import { expect } from 'chai';
import { addToCart, insertProduct } from '../../helpers/checkout.js';
import { expectError } from '../../helpers/shop.js';
import { as as storeAs, newCustomer } from '../employee/helpers.js';
import { companyAdmin, expectPage, textOf } from '../storefront-b2b/helpers.js';
import { QUANTITY_NOT_ALLOWED, setRule, startShop } from './helpers.js';

/** The cart's lines as [productId, quantity]. */
async function cartLines(token: string): Promise<Array<[string, number]>> {
  const cart = await (await storeAs(token)).get('/checkout/cart');
  return cart.body.lineItems.map((line: { productId: string; quantity: number }) => [line.productId, line.quantity]);
}

/** Packs of 12, at least two packs, one pack more at a time (decision 0040). */
async function twoPacksMinimum() {
  const product = await insertProduct({ priceNet: 100, stock: 1000 });
  await setRule(product.id, { packSize: 12, minQuantity: 24, step: 12 });
  return product;
}

describe("quantity rules: the minimum and step apply to the line's new quantity, not to what is added", function () {
  this.timeout(60000);
  before(startShop);

  it('Store API cart: one more pack (12) onto a line of 24 is taken; 12 alone, or 6 more, are refused', async () => {
    const { token } = await newCustomer();
    const pack = await twoPacksMinimum();
    const alone = expectError(
      await addToCart(token, [{ productId: pack.id, quantity: 12 }]),
      400,
      QUANTITY_NOT_ALLOWED,
    );
    expect((alone as { meta?: Record<string, unknown> }).meta).to.deep.include({ asked: 12, allowed: [24] });
    expect((await addToCart(token, [{ productId: pack.id, quantity: 24 }])).status).to.equal(200);
    const more = await addToCart(token, [{ productId: pack.id, quantity: 12 }]);
    expect(more.status, JSON.stringify(more.body)).to.equal(200);
    expect(await cartLines(token)).to.deep.equal([[pack.id, 36]]);
    // 6 more would make 42: off the step, refused with the line's quantity as the asked one.
    const off = expectError(await addToCart(token, [{ productId: pack.id, quantity: 6 }]), 400, QUANTITY_NOT_ALLOWED);
    expect((off as { meta?: Record<string, unknown> }).meta).to.deep.include({ asked: 42, allowed: [36, 48] });
    expect(await cartLines(token)).to.deep.equal([[pack.id, 36]]);
  });

  it('Store API cart: two items of 12 of the product in one request make one line of 24', async () => {
    const { token } = await newCustomer();
    const pack = await twoPacksMinimum();
    const res = await addToCart(token, [
      { productId: pack.id, quantity: 12 },
      { productId: pack.id, quantity: 12 },
    ]);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(await cartLines(token)).to.deep.equal([[pack.id, 24]]);
  });

  it('fast order (Store API): one more pack onto the line is added, and two lines of 12 are added together', async () => {
    const { token } = await newCustomer();
    const pack = await twoPacksMinimum();
    expect((await addToCart(token, [{ productId: pack.id, quantity: 24 }])).status).to.equal(200);
    const store = await storeAs(token);
    const onePack = await store.post('/b2b/add-to-cart', { items: [{ productNumber: pack.number, quantity: 12 }] });
    expect(onePack.status, JSON.stringify(onePack.body)).to.equal(200);
    expect(onePack.body).to.include({ success: true, added: 1, failed: 0 });
    expect(await cartLines(token)).to.deep.equal([[pack.id, 36]]);

    const { token: fresh } = await newCustomer();
    const twoLines = await (
      await storeAs(fresh)
    ).post('/b2b/add-to-cart', {
      items: [
        { productNumber: pack.number, quantity: 12 },
        { productNumber: pack.number, quantity: 12 },
      ],
    });
    expect(twoLines.status, JSON.stringify(twoLines.body)).to.equal(200);
    expect(twoLines.body).to.include({ success: true, added: 2, failed: 0 });
    expect(await cartLines(fresh)).to.deep.equal([[pack.id, 24]]);
  });

  it('product list to cart (storefront): a list item of 12 joins the cart line of 24', async () => {
    const { customer, browser } = await companyAdmin();
    const pack = await twoPacksMinimum();
    expect((await addToCart(customer.token, [{ productId: pack.id, quantity: 24 }])).status).to.equal(200);
    const list = await (
      await storeAs(customer.token)
    ).post('/product-lists/create', { name: 'One more pack', items: [{ productId: pack.id, quantity: 12 }] });
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    expectPage(await browser.get(`/account/product-lists/${list.body.id}`));
    const res = await browser.post(`/account/product-lists/${list.body.id}/to-cart`);
    expect(res.status, textOf(res.text).slice(0, 400)).to.equal(303);
    expect(await cartLines(customer.token)).to.deep.equal([[pack.id, 36]]);
  });
});
