import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { Errors } from '../../src/lib/errors.js';
import { expectError, getShop, http, login, loginNewCustomer } from '../helpers/shop.js';
import { addToCart, insertProduct } from '../helpers/checkout.js';

const hiddenIds = new Set<string>();
const limitedIds = new Set<string>();
let registered = false;

/** A visibility filter hiding `hiddenIds`, and a line-item processor for `limitedIds`; registered once, touching only these products. */
async function registerTestExtensions(): Promise<void> {
  if (registered) return;
  registered = true;
  const shop = await getShop();
  shop.runtime.catalog.addVisibilityFilter(async (_executor, _ctx, entity) =>
    entity === 'product' ? { kind: 'exclude', ids: [...hiddenIds] } : { kind: 'all' },
  );
  shop.runtime.cart.addLineItemProcessor({
    name: 'test-limited',
    async process(_executor, _ctx, item, phase) {
      if (!item.productId || !limitedIds.has(item.productId)) return item;
      if (item.quantity > 3) throw Errors.badRequest('SUITE__TEST_LIMIT', 'At most 3 per order.');
      return { ...item, label: `${item.label} (limited)`, payload: { ...item.payload, checkedIn: phase } };
    },
  });
}

async function getCart(token: string) {
  const res = await (await http()).get('/store-api/checkout/cart').set('suite-context-token', token);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

describe('host: cart', () => {
  before(registerTestExtensions);

  it('adds products, adds up the same product and keeps a line with another payload apart', async () => {
    const { token } = await loginNewCustomer();
    const a = await insertProduct({ priceNet: 1250 });
    const b = await insertProduct({ priceNet: 399, taxRateBp: 700 });
    const first = await addToCart(token, [
      { referencedId: a.id, quantity: 2 },
      { productId: b.id, quantity: 1 },
    ]);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    await addToCart(token, [{ productId: a.id, quantity: 3 }]);
    const withPayload = await addToCart(token, [{ productId: a.id, quantity: 1, payload: { note: 'engraving' } }]);
    expect(withPayload.status).to.equal(200);

    const cart = await getCart(token);
    expect(cart.token).to.equal(first.body.token);
    expect(cart.lineItems).to.have.length(3);
    const [lineA, lineB, lineNote] = cart.lineItems;
    expect(lineA).to.include({ productId: a.id, productNumber: a.number, label: a.name, quantity: 5, type: 'product' });
    expect(lineA.price).to.deep.equal({ unitPrice: 12.5, totalPrice: 62.5, taxRate: 19 });
    expect(lineB.price).to.deep.equal({ unitPrice: 3.99, totalPrice: 3.99, taxRate: 7 });
    expect(lineNote).to.deep.include({ productId: a.id, quantity: 1, payload: { note: 'engraving' } });
    // 62.50 + 3.99 + 12.50 net; tax 11.88 + 0.28 + 2.38
    expect(cart.price).to.deep.include({ netPrice: 78.99, taxAmount: 14.54, totalPrice: 93.53 });
    expect(cart.errors).to.deep.equal([]);
  });

  it('changes quantities and payloads, removes lines and deletes the cart', async () => {
    const { token } = await loginNewCustomer();
    const a = await insertProduct();
    const b = await insertProduct();
    const added = await addToCart(token, [
      { productId: a.id, quantity: 1 },
      { productId: b.id, quantity: 1 },
    ]);
    const [lineA, lineB] = added.body.lineItems;
    const agent = await http();

    const changed = await agent
      .patch('/store-api/checkout/cart/line-item')
      .set('suite-context-token', token)
      .send({ items: [{ id: lineA.id, quantity: 4, payload: { costCenter: 'K-1' } }] });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body.lineItems[0]).to.deep.include({ id: lineA.id, quantity: 4, payload: { costCenter: 'K-1' } });
    expect(changed.body.price.netPrice).to.equal(50);

    const removed = await agent
      .delete('/store-api/checkout/cart/line-item')
      .set('suite-context-token', token)
      .send({ ids: [lineA.id] });
    expect(removed.status).to.equal(200);
    expect(removed.body.lineItems.map((l: { id: string }) => l.id)).to.deep.equal([lineB.id]);

    const deleted = await agent.delete('/store-api/checkout/cart').set('suite-context-token', token);
    expect(deleted.status).to.equal(204);
    const empty = await getCart(token);
    expect(empty.lineItems).to.deep.equal([]);
    expect(empty.token).to.not.equal(added.body.token);
    expect(empty.price).to.deep.include({ netPrice: 0, totalPrice: 0, taxAmount: 0 });
  });

  it('prices by tier as the quantity changes', async () => {
    const { token } = await loginNewCustomer();
    const product = await insertProduct({
      priceNet: 1000,
      tiers: [
        [10, 800],
        [50, 650],
      ],
    });
    const five = await addToCart(token, [{ productId: product.id, quantity: 5 }]);
    expect(five.body.lineItems[0].price).to.deep.include({ unitPrice: 10, totalPrice: 50 });
    const ten = await addToCart(token, [{ productId: product.id, quantity: 5 }]);
    expect(ten.body.lineItems[0]).to.deep.include({ quantity: 10 });
    expect(ten.body.lineItems[0].price).to.deep.include({ unitPrice: 8, totalPrice: 80 });
    const patched = await (
      await http()
    )
      .patch('/store-api/checkout/cart/line-item')
      .set('suite-context-token', token)
      .send({ items: [{ id: ten.body.lineItems[0].id, quantity: 60 }] });
    expect(patched.body.lineItems[0].price).to.deep.include({ unitPrice: 6.5, totalPrice: 390 });
    expect(patched.body.price).to.deep.include({ netPrice: 390, taxAmount: 74.1, totalPrice: 464.1 });
  });

  it('refuses hidden, inactive and unknown products and flags a product hidden after it was added', async () => {
    const { token } = await loginNewCustomer();
    const hidden = await insertProduct();
    hiddenIds.add(hidden.id);
    const inactive = await insertProduct({ active: false });
    const later = await insertProduct();
    for (const productId of [hidden.id, inactive.id, newId()]) {
      const error = expectError(
        await addToCart(token, [{ productId, quantity: 1 }]),
        400,
        'SUITE__PRODUCT_NOT_AVAILABLE',
      );
      expect(error.source?.pointer).to.equal('/items/0');
    }
    expect((await getCart(token)).lineItems).to.deep.equal([]);

    const added = await addToCart(token, [{ productId: later.id, quantity: 2 }]);
    expect(added.status).to.equal(200);
    hiddenIds.add(later.id);
    const cart = await getCart(token);
    expect(cart.lineItems).to.deep.equal([]);
    expect(cart.errors).to.have.length(1);
    expect(cart.errors[0]).to.include({
      code: 'SUITE__PRODUCT_NOT_AVAILABLE',
      lineItemId: added.body.lineItems[0].id,
      productId: later.id,
    });
    const removed = await (
      await http()
    )
      .delete('/store-api/checkout/cart/line-item')
      .set('suite-context-token', token)
      .send({ ids: [cart.errors[0].lineItemId] });
    expect(removed.body.errors).to.deep.equal([]);
  });

  it('enforces stock and the quantity limit, also when lines add up', async () => {
    const { token } = await loginNewCustomer();
    const product = await insertProduct({ stock: 5 });
    expect((await addToCart(token, [{ productId: product.id, quantity: 3 }])).status).to.equal(200);
    const error = expectError(
      await addToCart(token, [{ productId: product.id, quantity: 3 }]),
      400,
      'SUITE__OUT_OF_STOCK',
    );
    expect(error.detail).to.contain('Only 5');
    expectError(
      await addToCart(token, [
        { productId: product.id, quantity: 1, payload: { other: true } },
        { productId: product.id, quantity: 2 },
      ]),
      400,
      'SUITE__OUT_OF_STOCK',
    );
    expect((await getCart(token)).lineItems[0].quantity).to.equal(3);
    const plenty = await insertProduct({ stock: 1_000_000 });
    expectError(await addToCart(token, [{ productId: plenty.id, quantity: 10001 }]), 400, 'SUITE__INVALID_INPUT');
    expect((await addToCart(token, [{ productId: plenty.id, quantity: 10000 }])).status).to.equal(200);
    expectError(await addToCart(token, [{ productId: plenty.id, quantity: 1 }]), 400, 'SUITE__QUANTITY_LIMIT_EXCEEDED');
  });

  it('runs line-item processors when items are added and changed', async () => {
    const { token } = await loginNewCustomer();
    const product = await insertProduct({ name: 'Seminar seat' });
    limitedIds.add(product.id);
    const added = await addToCart(token, [{ productId: product.id, quantity: 2 }]);
    expect(added.status).to.equal(200);
    expect(added.body.lineItems[0]).to.deep.include({ label: 'Seminar seat (limited)', payload: { checkedIn: 'add' } });
    expectError(await addToCart(token, [{ productId: product.id, quantity: 2 }]), 400, 'SUITE__TEST_LIMIT');
    const patched = await (
      await http()
    )
      .patch('/store-api/checkout/cart/line-item')
      .set('suite-context-token', token)
      .send({ items: [{ id: added.body.lineItems[0].id, quantity: 4 }] });
    expectError(patched, 400, 'SUITE__TEST_LIMIT');
    expect((await getCart(token)).lineItems[0].quantity).to.equal(2);
  });

  it("answers 400 for invalid bodies and 404 for lines that are not in the caller's cart", async () => {
    const { token } = await loginNewCustomer();
    const other = await loginNewCustomer();
    const product = await insertProduct();
    const otherLine = (await addToCart(other.token, [{ productId: product.id, quantity: 1 }])).body.lineItems[0].id;
    const agent = await http();
    const post = (body: unknown) =>
      agent
        .post('/store-api/checkout/cart/line-item')
        .set('suite-context-token', token)
        .send(body as object);
    expectError(await post({ items: [] }), 400, 'SUITE__INVALID_INPUT');
    expectError(await post({ items: [{ productId: product.id, quantity: 0 }] }), 400, 'SUITE__INVALID_INPUT');
    expectError(await post({ items: [{ productId: product.id, quantity: 1.5 }] }), 400, 'SUITE__INVALID_INPUT');
    expectError(await post({ items: [{ quantity: 1 }] }), 400, 'SUITE__INVALID_INPUT');
    expectError(await post({ items: [{ productId: 'not-an-id', quantity: 1 }] }), 400, 'SUITE__INVALID_INPUT');
    expectError(await post({ items: [{ productId: product.id, quantity: 1, price: 0 }] }), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await post({ items: [{ productId: product.id, referencedId: newId(), quantity: 1 }] }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await post({ items: [{ productId: product.id, quantity: 1, payload: { big: 'x'.repeat(20000) } }] }),
      400,
      'SUITE__PAYLOAD_TOO_LARGE',
    );
    expectError(
      await agent
        .patch('/store-api/checkout/cart/line-item')
        .set('suite-context-token', token)
        .send({ items: [{ id: otherLine }] }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await agent
        .patch('/store-api/checkout/cart/line-item')
        .set('suite-context-token', token)
        .send({ items: [{ id: otherLine, quantity: 2 }] }),
      404,
    );
    expectError(
      await agent
        .delete('/store-api/checkout/cart/line-item')
        .set('suite-context-token', token)
        .send({ ids: [otherLine] }),
      404,
    );
    expectError(
      await agent.delete('/store-api/checkout/cart/line-item').set('suite-context-token', token).send({ ids: [] }),
      400,
    );
    // the other customer's cart is untouched
    const theirs = await (await http()).get('/store-api/checkout/cart').set('suite-context-token', other.token);
    expect(theirs.body.lineItems.map((l: { id: string }) => l.id)).to.deep.equal([otherLine]);
  });

  it('requires a login and finds the cart again on the next login of the same customer', async () => {
    expectError(await (await http()).get('/store-api/checkout/cart'), 401);
    expectError(
      await (
        await http()
      )
        .post('/store-api/checkout/cart/line-item')
        .send({ items: [{ productId: newId(), quantity: 1 }] }),
      401,
    );
    const { token, email, password } = await loginNewCustomer();
    const product = await insertProduct();
    const added = await addToCart(token, [{ productId: product.id, quantity: 2 }]);
    const again = await getCart(await login(email, password));
    expect(again.token).to.equal(added.body.token);
    expect(again.lineItems[0]).to.include({ productId: product.id, quantity: 2 });
  });
});
