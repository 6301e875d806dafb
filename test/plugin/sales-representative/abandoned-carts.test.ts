import { expect } from 'chai';
import { toDbTime } from '../../../src/lib/time.js';
import { addToCart, insertProduct } from '../../helpers/checkout.js';
import { expectError, getShop } from '../../helpers/shop.js';
import { loggedInVisitor } from '../../helpers/storefront.js';
import { as, newCustomer, orderAs, representativeWith, type Customer } from './helpers.js';

/** Moves a customer's carts' last change back by `hours`, as if the buyer had left them then. */
async function leaveCartsFor(customerId: string, hours: number): Promise<void> {
  const { db } = await getShop();
  await db('carts')
    .where({ customer_id: customerId })
    .update({ updated_at: toDbTime(new Date(Date.now() - hours * 3_600_000)) });
}

describe('sales representatives: abandoned carts of their customers', () => {
  it('lists the filled carts left longer than asked, newest first, and none that were ordered, empty or of other customers', async () => {
    const { rep: representative, token, customers } = await representativeWith(3);
    const [left, recent, ordered] = customers as [Customer, Customer, Customer];
    const stranger = await newCustomer();
    const [screws, nuts] = [await insertProduct({ priceNet: 150 }), await insertProduct({ priceNet: 90 })];

    expect((await addToCart(left.token, [{ productId: screws.id, quantity: 12 }])).status).to.be.oneOf([200, 201]);
    expect((await addToCart(left.token, [{ productId: nuts.id, quantity: 3 }])).status).to.be.oneOf([200, 201]);
    await leaveCartsFor(left.customer.id, 50);
    expect((await addToCart(recent.token, [{ productId: nuts.id, quantity: 1 }])).status).to.be.oneOf([200, 201]);
    await leaveCartsFor(recent.customer.id, 30);
    await orderAs(ordered.token);
    await leaveCartsFor(ordered.customer.id, 60);
    expect((await addToCart(stranger.token, [{ productId: screws.id, quantity: 1 }])).status).to.be.oneOf([200, 201]);
    await leaveCartsFor(stranger.customer.id, 70);

    const rep = await as(token);
    const day = await rep.post('/sales-representative/abandoned-carts', {});
    expect(day.status, JSON.stringify(day.body)).to.equal(200);
    expect(day.body.elements.map((c: { customerId: string }) => c.customerId)).to.deep.equal([
      recent.customer.id,
      left.customer.id,
    ]);
    const leftCart = day.body.elements[1];
    expect(leftCart).to.include({ customerNumber: left.customer.customerNumber, quantity: 15 });
    expect(
      leftCart.lineItems.map((l: { productId: string; quantity: number }) => [l.productId, l.quantity]),
    ).to.deep.equal([
      [screws.id, 12],
      [nuts.id, 3],
    ]);
    expect(Date.now() - Date.parse(leftCart.updatedAt)).to.be.greaterThan(49 * 3_600_000);

    const twoDays = await rep.post('/sales-representative/abandoned-carts', { idleHours: 48 });
    expect(twoDays.body.elements.map((c: { customerId: string }) => c.customerId)).to.deep.equal([left.customer.id]);

    // The storefront page shows the same carts; a malformed hours value is the default 24.
    const visitor = await loggedInVisitor(representative.email, representative.password);
    const page = await visitor.get('/account/sales-representative/abandoned-carts?hours=48');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain(`data-customer="${left.customer.id}"`);
    expect(page.text).not.to.contain(`data-customer="${recent.customer.id}"`);
    expect(page.text).to.match(/data-test="abandoned-quantity">15</);
    const fallback = await visitor.get('/account/sales-representative/abandoned-carts?hours=abc');
    expect(fallback.status).to.equal(200);
    expect(fallback.text).to.contain(`data-customer="${recent.customer.id}"`);
  });

  it('refuses bad input with 400 and callers who are not representatives with 403', async () => {
    const { token } = await representativeWith(1);
    const rep = await as(token);
    expectError(await rep.post('/sales-representative/abandoned-carts', { idleHours: 0 }), 400);
    expectError(await rep.post('/sales-representative/abandoned-carts', { limit: 'many' }), 400);
    const buyer = await newCustomer();
    expectError(await (await as(buyer.token)).post('/sales-representative/abandoned-carts', {}), 403);
  });
});
