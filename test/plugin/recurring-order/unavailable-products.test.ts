import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { getShop } from '../../helpers/shop.js';
import { receiveMail } from '../employee/helpers.js';
import { fillCart, newCustomer, product, startShop } from '../order-approval/helpers.js';
import { companyAdmin, expectPage, textOf } from '../storefront-b2b/helpers.js';
import {
  addDays,
  as,
  createRecurring,
  dayFromToday,
  occurrenceRows,
  ordersOf,
  readRecurring,
  runOn,
} from './helpers.js';

/**
 * Before decision 0041 a recurring order whose product was gone placed a partial order. The buyer chooses
 * per recurring order: `hold` (the default for new ones: nothing is ordered, the buyer is asked) or
 * `leave-out` (the rest is ordered, the mail names what was left out).
 */
describe('recurring orders: a product that is gone holds the order or is left out, as the buyer chose', function () {
  before(startShop);
  this.timeout(120000);

  async function twoProducts(body: Record<string, unknown> = {}) {
    const customer = await newCustomer();
    const [coffee, sugar] = [await product({ priceNet: 1000 }), await product({ priceNet: 200 })];
    await fillCart(customer.token, [
      { productId: coffee.id, quantity: 2 },
      { productId: sugar.id, quantity: 1 },
    ]);
    const start = dayFromToday(12);
    const created = await createRecurring(customer.token, {
      name: `Kitchen ${newId().slice(0, 6)}`,
      source: 'cart',
      interval: { unit: 'week', count: 1 },
      startDate: start,
      ...body,
    });
    return { customer, coffee, sugar, start, created };
  }

  it('a new recurring order holds: nothing is ordered, the occurrence is held and the buyer is asked; switched to leave-out, the rest is ordered', async () => {
    const { customer, coffee, sugar, start, created } = await twoProducts();
    expect(created.unavailableProducts).to.equal('hold');
    const db = (await getShop()).db;
    await db('products').where({ id: sugar.id }).update({ active: false });

    const run = await runOn(start);
    expect(run.held).to.be.at.least(1);
    expect(await ordersOf(customer.customer.id, created.id)).to.have.length(0);
    const [held] = await occurrenceRows(created.id);
    expect(held).to.include({
      due_date: start,
      status: 'held',
      error_code: 'SUITE__RECURRING_ORDER_PRODUCT_UNAVAILABLE',
    });
    expect(held!.reason).to.include(sugar.name).and.include('nothing was ordered');
    const mail = await receiveMail(customer.email, `Recurring order ${created.name}: held`);
    expect(mail.text).to.include('is held, nothing was ordered').and.include(`${sugar.name} is no longer available.`);
    const read = await readRecurring(customer.token, created.id);
    expect(read.nextDate).to.equal(addDays(start, 7));
    expect(read.occurrences[0]).to.include({ status: 'held', errorCode: 'SUITE__RECURRING_ORDER_PRODUCT_UNAVAILABLE' });

    const patched = await (
      await as(customer.token)
    ).patch(`/b2b/recurring-order/${created.id}`, { unavailableProducts: 'leave-out' });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body.unavailableProducts).to.equal('leave-out');
    await runOn(addDays(start, 7));
    const orders = await ordersOf(customer.customer.id, created.id);
    expect(orders).to.have.length(1);
    const lines = await db('order_line_items').where({ order_id: orders[0]!.id });
    expect(lines.map((l) => [l.product_id, Number(l.quantity)])).to.deep.equal([[coffee.id, 2]]);
    const placedMail = await receiveMail(
      customer.email,
      `Recurring order ${created.name}: ordered for ${addDays(start, 7)}`,
    );
    expect(placedMail.text).to.include(`${sugar.name} is no longer available and was left out.`);
  });

  it('leave-out chosen when created: the rest is ordered; every product available: hold orders as usual', async () => {
    const left = await twoProducts({ unavailableProducts: 'leave-out' });
    expect(left.created.unavailableProducts).to.equal('leave-out');
    const held = await twoProducts();
    const db = (await getShop()).db;
    await db('products').where({ id: left.sugar.id }).update({ active: false });
    await runOn(left.start);
    expect(await ordersOf(left.customer.customer.id, left.created.id)).to.have.length(1);
    expect(await ordersOf(held.customer.customer.id, held.created.id)).to.have.length(1);
    expect((await occurrenceRows(held.created.id)).map((r) => r.status)).to.deep.equal(['placed']);
  });

  it('refuses an unknown choice (400); a recurring order that existed before keeps leaving products out', async () => {
    const customer = await newCustomer();
    const p = await product();
    await fillCart(customer.token, [{ productId: p.id, quantity: 1 }]);
    const refused = await (
      await as(customer.token)
    ).post('/b2b/recurring-order', {
      source: 'cart',
      interval: { unit: 'week', count: 1 },
      startDate: dayFromToday(5),
      unavailableProducts: 'ask-later',
    });
    expect(refused.status).to.equal(400);
    // A row as written before migration 033: the column's default.
    const created = await createRecurring(customer.token, {
      source: 'cart',
      interval: { unit: 'week', count: 1 },
      startDate: dayFromToday(5),
    });
    const db = (await getShop()).db;
    const row = await db('suite_recurring_orders').where({ id: created.id }).first();
    const id = newId();
    const { unavailable_products: _chosen, ...before } = row;
    await db('suite_recurring_orders').insert({ ...before, id, name: `Before ${id.slice(0, 6)}` });
    expect((await readRecurring(customer.token, id)).unavailableProducts).to.equal('leave-out');
  });

  it('storefront: the set-up form offers the choice (hold preselected), and each recurring order can switch it', async () => {
    const { customer, browser } = await companyAdmin();
    const p = await product();
    await fillCart(customer.token, [{ productId: p.id, quantity: 1 }]);
    const form = await browser.get('/account/recurring-orders?fromCart=1');
    expectPage(form);
    expect(form.text).to.match(/<option value="hold" selected>hold the whole order and ask me<\/option>/);
    const created = await browser.post('/account/recurring-orders', {
      source: 'cart',
      name: 'Weekly',
      count: '1',
      unit: 'week',
      startDate: dayFromToday(3),
      unavailableProducts: 'leave-out',
    });
    expect(created.status, textOf(created.text).slice(0, 300)).to.equal(303);
    const list = await (await as(customer.token)).post('/b2b/recurring-order/list', { limit: 5 });
    const id = list.body.elements[0].id as string;
    expect(list.body.elements[0].unavailableProducts).to.equal('leave-out');
    const page = await browser.get('/account/recurring-orders');
    expect(textOf(page.text)).to.contain('A product no longer available: leave them out and order the rest');
    const switched = await browser.post(`/account/recurring-orders/${id}/unavailable-products`, {
      unavailableProducts: 'hold',
    });
    expect(switched.status).to.equal(303);
    expect((await readRecurring(customer.token, id)).unavailableProducts).to.equal('hold');
  });
});
