import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { Errors } from '../../src/lib/errors.js';
import { nowDb } from '../../src/lib/time.js';
import {
  orderView,
  type CancellationContext,
  type CancelledOrder,
  type PlacedOrder,
} from '../../src/contract/index.js';
import { buildStoreContext } from '../../src/host/auth/store-context.js';
import { adminToken, deliverMail, expectError, getShop, http, loginNewCustomer, testMailbox } from '../helpers/shop.js';
import {
  addToCart,
  insertProduct,
  placeOrder,
  productStock,
  sessionWithPermissions,
  storeContextFor,
} from '../helpers/checkout.js';

const hiddenIds = new Set<string>();
const refusedCustomers = new Set<string>();
const hookedCustomers = new Set<string>();
const placedByHook: Array<{ order: PlacedOrder; orderRowSeen: boolean; cartOrdered: boolean }> = [];
const cancelledByHook: Array<{ ctx: CancellationContext; order: CancelledOrder; stateSeen: string }> = [];
let registered = false;

/** Test extensions, registered once and touching only the products and customers these tests name. */
async function registerTestExtensions(): Promise<void> {
  if (registered) return;
  registered = true;
  const shop = await getShop();
  shop.runtime.catalog.addVisibilityFilter(async (_executor, _ctx, entity) =>
    entity === 'product' ? { kind: 'exclude', ids: [...hiddenIds] } : { kind: 'all' },
  );
  shop.runtime.checkout.addInterceptor({
    name: 'test-refuser',
    async intercept(_trx, _ctx, draft) {
      if (refusedCustomers.has(draft.customerId))
        throw Errors.badRequest('SUITE__TEST_REFUSED', `Refused an order of ${draft.total} minor units.`);
    },
  });
  shop.runtime.checkout.onOrderPlaced(async (trx, _ctx, order) => {
    if (!hookedCustomers.has(order.customerId)) return;
    const orderRow = await trx('orders').where({ id: order.id }).first('id');
    const cart = await trx('carts').where({ order_id: order.id }).first('token');
    placedByHook.push({ order, orderRowSeen: !!orderRow, cartOrdered: !!cart });
  });
  shop.runtime.checkout.onOrderCancelled(async (trx, ctx, order) => {
    if (!hookedCustomers.has(order.customerId)) return;
    const row = await trx('orders').where({ id: order.id }).first('state');
    cancelledByHook.push({ ctx, order, stateSeen: row.state });
  });
}

describe('host: checkout', () => {
  before(registerTestExtensions);

  it('orders the cart: order shape, invoice, stock decremented and a fresh cart afterwards', async () => {
    const { token, customer } = await loginNewCustomer();
    const a = await insertProduct({ priceNet: 1999, stock: 10 });
    const b = await insertProduct({ priceNet: 500, stock: 3, taxRateBp: 700 });
    const cart = await addToCart(token, [
      { productId: a.id, quantity: 2 },
      { productId: b.id, quantity: 3, payload: { costCenter: 'K-7' } },
    ]);
    const res = await placeOrder(token, { customerComment: 'Please deliver to gate 2.' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const order = res.body;
    expect(order.orderNumber).to.match(/^\d+$/);
    expect(order.stateMachineState).to.deep.equal({ technicalName: 'open', name: 'Open' });
    expect(order.currency).to.deep.equal({ isoCode: 'EUR' });
    // 39.98 + 15.00 net; tax 7.60 + 1.05
    expect(order).to.deep.include({
      amountNet: 54.98,
      taxAmount: 8.65,
      amountTotal: 63.63,
      customerComment: 'Please deliver to gate 2.',
    });
    expect(order.orderCustomer).to.deep.include({
      customerId: customer.id,
      email: customer.email,
      firstName: 'Test',
      lastName: 'Customer',
      company: customer.company,
    });
    expect(order.billingAddress).to.include({ street: 'Test Street 1', city: 'Testcity', countryCode: 'DE' });
    expect(order.deliveries).to.have.length(1);
    expect(order.deliveries[0].shippingOrderAddress).to.include({ street: 'Test Street 1' });
    expect(order.transactions).to.have.length(1);
    expect(order.transactions[0]).to.deep.include({
      amount: 63.63,
      paymentMethod: { technicalName: 'invoice', name: 'Invoice' },
    });
    expect(
      order.lineItems.map((l: Record<string, unknown>) => [
        l.productId,
        l.productNumber,
        l.quantity,
        l.unitPrice,
        l.totalPrice,
      ]),
    ).to.deep.equal([
      [a.id, a.number, 2, 19.99, 39.98],
      [b.id, b.number, 3, 5, 15],
    ]);
    expect(order.lineItems[1].payload).to.deep.equal({ costCenter: 'K-7' });
    expect(order.placedBy).to.deep.equal({ type: 'customer', id: customer.id });
    expect(order.documents).to.have.length(1);
    expect(order.documents[0]).to.include({ type: 'invoice' });
    expect(order.documents[0].fileName).to.match(/^invoice-.+\.pdf$/);

    expect(await productStock(a.id)).to.equal(8);
    expect(await productStock(b.id)).to.equal(0);
    const after = await (await http()).get('/store-api/checkout/cart').set('suite-context-token', token);
    expect(after.body.lineItems).to.deep.equal([]);
    expect(after.body.token).to.not.equal(cart.body.token);
    const db = (await getShop()).db;
    expect((await db('carts').where({ token: cart.body.token }).first('order_id')).order_id).to.equal(order.id);
  });

  it('refuses an empty cart with 400 and a cart ordered already', async () => {
    const { token } = await loginNewCustomer();
    expectError(await placeOrder(token), 400, 'SUITE__CART_EMPTY');
    const product = await insertProduct();
    await addToCart(token, [{ productId: product.id, quantity: 1 }]);
    expect((await placeOrder(token)).status).to.equal(200);
    expectError(await placeOrder(token), 400, 'SUITE__CART_ALREADY_ORDERED');
    const db = (await getShop()).db;
    expect(await productStock(product.id)).to.equal(99);
    expect(Number((await db('order_line_items').where({ product_id: product.id }).count({ n: '*' }))[0]!.n)).to.equal(
      1,
    );
  });

  it('does not order a product that became hidden or went out of stock after it was added', async () => {
    const { token } = await loginNewCustomer();
    const product = await insertProduct({ stock: 5 });
    await addToCart(token, [{ productId: product.id, quantity: 2 }]);
    hiddenIds.add(product.id);
    expectError(await placeOrder(token), 400, 'SUITE__PRODUCT_NOT_AVAILABLE');
    hiddenIds.delete(product.id);
    await (await getShop()).db('products').where({ id: product.id }).update({ stock: 1 });
    expectError(await placeOrder(token), 400, 'SUITE__OUT_OF_STOCK');
    const db = (await getShop()).db;
    expect(
      await db('orders')
        .whereIn('id', db('order_line_items').where({ product_id: product.id }).select('order_id'))
        .first(),
    ).to.equal(undefined);
    expect(await productStock(product.id)).to.equal(1);
  });

  it("uses the chosen own addresses and answers 404 for another customer's address", async () => {
    const { token, customer } = await loginNewCustomer();
    const other = await loginNewCustomer();
    const db = (await getShop()).db;
    const shippingId = newId();
    await db('customer_addresses').insert({
      id: shippingId,
      customer_id: customer.id,
      company: 'Warehouse',
      first_name: 'Wendy',
      last_name: 'Ware',
      street: 'Dock 9',
      zipcode: '20457',
      city: 'Hamburg',
      country_code: 'DE',
      created_at: nowDb(),
    });
    const otherAddress = (await db('customers').where({ id: other.customer.id }).first('default_billing_address_id'))
      .default_billing_address_id;
    const product = await insertProduct();
    await addToCart(token, [{ productId: product.id, quantity: 1 }]);
    expectError(await placeOrder(token, { billingAddressId: otherAddress }), 404);
    expectError(await placeOrder(token, { shippingAddressId: otherAddress }), 404);
    const res = await placeOrder(token, { shippingAddressId: shippingId });
    expect(res.status).to.equal(200);
    expect(res.body.billingAddress).to.include({ street: 'Test Street 1' });
    expect(res.body.shippingAddress).to.include({ street: 'Dock 9', city: 'Hamburg' });
    expect(res.body.deliveries[0].shippingOrderAddress).to.include({ street: 'Dock 9' });
  });

  it('answers 400 for invalid bodies, 401 without login and 403 without orders.create', async () => {
    const { token, customer } = await loginNewCustomer();
    const product = await insertProduct();
    await addToCart(token, [{ productId: product.id, quantity: 1 }]);
    expectError(await placeOrder(token, { billingAddressId: 'x' }), 400, 'SUITE__INVALID_INPUT');
    expectError(await placeOrder(token, { customerComment: 'x'.repeat(2001) }), 400, 'SUITE__INVALID_INPUT');
    // Methods are the host's and the plugins' (contract 3.5 checkout.addPaymentMethod): an unknown one is its own 400.
    expectError(await placeOrder(token, { paymentMethod: 'prepaid' }), 400, 'SUITE__PAYMENT_METHOD_UNKNOWN');
    expectError(await (await http()).post('/store-api/checkout/order').send({}), 401);
    const readOnly = await sessionWithPermissions(customer, ['orders.read']);
    expectError(await placeOrder(readOnly), 403, 'SUITE__PERMISSION_DENIED');
    const db = (await getShop()).db;
    expect(await db('orders').where({ customer_id: customer.id }).first()).to.equal(undefined);
  });

  it('replays the first answer for a repeated Idempotency-Key and answers 422 for another body', async () => {
    const { token, customer } = await loginNewCustomer();
    const product = await insertProduct();
    await addToCart(token, [{ productId: product.id, quantity: 1 }]);
    const key = `order-${newId()}`;
    const agent = await http();
    const first = await agent
      .post('/store-api/checkout/order')
      .set('suite-context-token', token)
      .set('Idempotency-Key', key)
      .send({ customerComment: 'once' });
    expect(first.status).to.equal(200);
    const again = await agent
      .post('/store-api/checkout/order')
      .set('suite-context-token', token)
      .set('Idempotency-Key', key)
      .send({ customerComment: 'once' });
    expect(again.status).to.equal(200);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body.id).to.equal(first.body.id);
    expect(again.body.orderNumber).to.equal(first.body.orderNumber);
    expectError(
      await agent
        .post('/store-api/checkout/order')
        .set('suite-context-token', token)
        .set('Idempotency-Key', key)
        .send({ customerComment: 'twice' }),
      422,
      'SUITE__IDEMPOTENCY_KEY_REUSED',
    );
    const db = (await getShop()).db;
    expect(await db('orders').where({ customer_id: customer.id }).select('id')).to.have.length(1);
  });

  it('lets a checkout interceptor refuse: no order, the cart and the stock stay as they were', async () => {
    const { token, customer } = await loginNewCustomer();
    const product = await insertProduct({ stock: 4 });
    const cart = await addToCart(token, [{ productId: product.id, quantity: 2 }]);
    refusedCustomers.add(customer.id);
    const error = expectError(await placeOrder(token), 400, 'SUITE__TEST_REFUSED');
    expect(error.detail).to.contain('2380');
    const db = (await getShop()).db;
    expect(await db('orders').where({ customer_id: customer.id }).first()).to.equal(undefined);
    expect(await productStock(product.id)).to.equal(4);
    const still = await (await http()).get('/store-api/checkout/cart').set('suite-context-token', token);
    expect(still.body.token).to.equal(cart.body.token);
    expect(still.body.lineItems[0]).to.include({ productId: product.id, quantity: 2 });
    refusedCustomers.delete(customer.id);
    expect((await placeOrder(token)).status).to.equal(200);
  });

  it('calls order-placed hooks inside the order transaction with the placed order', async () => {
    const { token, customer } = await loginNewCustomer();
    const product = await insertProduct({ priceNet: 250 });
    await addToCart(token, [{ productId: product.id, quantity: 4 }]);
    hookedCustomers.add(customer.id);
    const res = await placeOrder(token);
    expect(res.status).to.equal(200);
    const seen = placedByHook.find((entry) => entry.order.id === res.body.id);
    expect(seen, 'hook called').to.not.equal(undefined);
    expect(seen!.orderRowSeen).to.equal(true);
    expect(seen!.cartOrdered).to.equal(true);
    expect(seen!.order).to.deep.include({
      orderNumber: res.body.orderNumber,
      customerId: customer.id,
      netTotal: 1000,
      taxTotal: 190,
      total: 1190,
      origin: 'checkout',
    });
    expect(seen!.order.lines[0]).to.include({ productId: product.id, quantity: 4, unitNet: 250 });
  });

  it('calls order-cancelled hooks inside the cancelling transaction with the Admin API caller and the sales channel', async () => {
    await registerTestExtensions();
    const { token, customer } = await loginNewCustomer();
    hookedCustomers.add(customer.id);
    const product = await insertProduct({ stock: 5 });
    await addToCart(token, [{ productId: product.id, quantity: 1 }]);
    const placed = await placeOrder(token);
    const cancelled = await (
      await http()
    )
      .post(`/api/_action/order/${placed.body.id}/state/cancel`)
      .set({ authorization: `Bearer ${await adminToken()}` })
      .send({});
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const seen = cancelledByHook.filter((entry) => entry.order.id === placed.body.id);
    expect(seen).to.have.length(1);
    expect(seen[0]!.stateSeen).to.equal('cancelled');
    expect(seen[0]!.order).to.deep.equal({
      id: placed.body.id,
      orderNumber: placed.body.orderNumber,
      customerId: customer.id,
      salesChannelId: customer.salesChannelId,
    });
    expect(seen[0]!.ctx.canceller.type).to.equal('integration');
    expect(seen[0]!.ctx.canceller.id).to.be.a('string');
    expect(seen[0]!.ctx.requestId).to.be.a('string');
    expect(seen[0]!.ctx.salesChannel.id).to.equal(customer.salesChannelId);
  });

  it("refuses through the runtime to order another customer's cart (404) and leaves it intact", async () => {
    const mine = await loginNewCustomer();
    const theirs = await loginNewCustomer();
    const product = await insertProduct();
    const cart = await addToCart(theirs.token, [{ productId: product.id, quantity: 1 }]);
    const shop = await getShop();
    let refused: unknown = null;
    await shop.runtime.checkout
      .placeOrder(shop.runtime.db, await storeContextFor(mine.customer), { cartToken: cart.body.token })
      .catch((e: unknown) => (refused = e));
    expect(refused).to.have.property('status', 404);
    expect((await placeOrder(theirs.token)).status).to.equal(200);
  });

  it("adds lines through the runtime inside the caller's transaction (rolled back with it), else in its own", async () => {
    const { token } = await loginNewCustomer();
    const product = await insertProduct({ stock: 5 });
    const shop = await getShop();
    // The context the Store API builds from the login's token: the reference host keeps a cart per session.
    const ctx = await buildStoreContext(
      shop.internals,
      { header: () => undefined, ip: '127.0.0.1', requestId: '' },
      token,
      true,
    );
    await shop.db
      .transaction(async (trx) => {
        const inside = await shop.runtime.cart.addLineItems(trx, ctx, [{ productId: product.id, quantity: 2 }]);
        expect(inside.lineItems.map((l) => l.quantity)).to.deep.equal([2]);
        expect((await shop.runtime.cart.current(trx, ctx)).lineItems).to.have.length(1);
        throw new Error('rolled back');
      })
      .catch((error: Error) => expect(error.message).to.equal('rolled back'));
    expect((await shop.runtime.cart.current(shop.db, ctx)).lineItems).to.deep.equal([]);
    const own = await shop.runtime.cart.addLineItems(shop.db, ctx, [{ productId: product.id, quantity: 1 }]);
    expect(own.lineItems.map((l) => l.quantity)).to.deep.equal([1]);
    expect((await shop.runtime.cart.current(shop.db, ctx)).lineItems).to.have.length(1);
  });

  it('orders given lines at their given prices through the runtime (approval execute, offer accept)', async () => {
    const { token, customer } = await loginNewCustomer();
    const product = await insertProduct({ priceNet: 1000, stock: 3 });
    const shop = await getShop();
    const ctx = await storeContextFor(customer);
    const line = {
      lineItemId: newId(),
      productId: product.id,
      productNumber: product.number,
      label: 'Offered item',
      type: 'product',
      quantity: 3,
      unitNet: 700,
      totalNet: 2100,
      taxRateBp: 1900,
      payload: { offer: 'O-1' },
    };
    const placed = await shop.runtime.checkout.placeOrder(shop.runtime.db, ctx, {
      lines: [line],
      origin: 'offer',
      customFields: { offerId: 'O-1' },
    });
    expect(placed).to.deep.include({ netTotal: 2100, taxTotal: 399, total: 2499, origin: 'offer' });
    expect(await productStock(product.id)).to.equal(0);
    const order = (await shop.runtime.orders.get(shop.db, placed.id))!;
    expect(order).to.deep.include({ netTotal: 2100, total: 2499, customFields: { offerId: 'O-1' } });
    expect(orderView(order)).to.deep.include({ amountNet: 21, amountTotal: 24.99 });
    const read = await (await http()).get(`/store-api/order/${placed.id}`).set('suite-context-token', token);
    expect(read.body.lineItems[0]).to.deep.include({ label: 'Offered item', unitPrice: 7, payload: { offer: 'O-1' } });
    let refused: unknown = null;
    await shop.runtime.checkout
      .placeOrder(shop.runtime.db, ctx, { lines: [{ ...line, quantity: 1, totalNet: 700 }] })
      .catch((e: unknown) => (refused = e));
    expect(refused).to.have.property('code', 'SUITE__OUT_OF_STOCK');
    const [many] = await shop.runtime.orders.getMany(shop.db, [placed.id, newId()]).then((orders) => [orders]);
    expect(many!.map((o) => o.id)).to.deep.equal([placed.id]);
  });
});

describe('host: order confirmation mail', () => {
  it('mails whoever placed the order, listing every line', async () => {
    const buyer = await loginNewCustomer();
    const product = await insertProduct({ name: 'Confirmation widget', priceNet: 2500, stock: 5 });
    await addToCart(buyer.token, [{ productId: product.id, quantity: 2 }]);
    const order = await placeOrder(buyer.token);
    expect(order.status).to.equal(200);
    await deliverMail();
    const mail = await (
      await testMailbox()
    ).waitFor((m) => (m.subject ?? '').startsWith(`Your order ${order.body.orderNumber}`));
    expect(mail.envelopeTo).to.include(buyer.email);
    expect(mail.text).to.contain('2 x Confirmation widget');
    // Money as every other mail and document prints it: the currency's precision and ISO code.
    expect(mail.text).to.contain('(' + product.number + '): 50.00 EUR net');
    expect(mail.text).to.contain('Net: 50.00 EUR  Tax: 9.50 EUR  Total: 59.50 EUR');
    expect(mail.text).to.contain(`http://shop.test/account/orders/${order.body.id}`);
    expect(mail.html).to.contain('59.50 EUR').and.not.contain('59.5 ');
  });
});
