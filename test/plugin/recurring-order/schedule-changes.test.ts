import { expect } from 'chai';
import { placeDueOccurrences } from '../../../src/plugin/recurring-order/index.js';
import { getShop } from '../../helpers/shop.js';
import { sideApp } from '../../helpers/side-app.js';
import { fillCart, newCustomer, product, startShop } from '../order-approval/helpers.js';
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
 * Decision 0041: a schedule changed on a day it has ordered must not come back to that day (the
 * occurrence is unique per date: every later run hit the key, rolled back and said nothing).
 */
describe('recurring orders: a schedule changed on a day it has ordered moves past that day', function () {
  before(startShop);
  this.timeout(120000);

  async function weeklyPlacedToday() {
    const customer = await newCustomer();
    const p = await product({ priceNet: 700, stock: 10000 });
    await fillCart(customer.token, [{ productId: p.id, quantity: 2 }]);
    const today = dayFromToday(0);
    const created = await createRecurring(customer.token, {
      source: 'cart',
      interval: { unit: 'week', count: 1 },
      startDate: today,
    });
    expect(created.nextDate).to.equal(today);
    await runOn(today);
    expect(await ordersOf(customer.customer.id, created.id)).to.have.length(1);
    expect((await readRecurring(customer.token, created.id)).nextDate).to.equal(addDays(today, 7));
    return { customer, id: created.id as string, today };
  }

  it('PATCH to daily from today on the day it ordered: the next date is tomorrow, and tomorrow is ordered', async () => {
    const { customer, id, today } = await weeklyPlacedToday();
    const patched = await (
      await as(customer.token)
    ).patch(`/b2b/recurring-order/${id}`, { interval: { unit: 'day', count: 1 }, startDate: today });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body).to.include({ nextDate: addDays(today, 1), status: 'active' });

    await runOn(today);
    await runOn(addDays(today, 1));
    await runOn(addDays(today, 2));
    expect(await ordersOf(customer.customer.id, id)).to.have.length(3);
    const rows = await occurrenceRows(id);
    expect(rows.map((r) => [r.due_date, r.status])).to.deep.equal([
      [today, 'placed'],
      [addDays(today, 1), 'placed'],
      [addDays(today, 2), 'placed'],
    ]);
    expect((await readRecurring(customer.token, id)).nextDate).to.equal(addDays(today, 3));
    await (await as(customer.token)).post(`/b2b/recurring-order/${id}/cancel`);
  });

  it('a next date left on a day that has its occurrence (before the fix) moves on at the next run, without a second order, and the run says so', async () => {
    const { customer, id, today } = await weeklyPlacedToday();
    const db = (await getShop()).db;
    // What the schedule change left behind before the fix: a daily schedule whose next date is the ordered day.
    await db('suite_recurring_orders')
      .where({ id })
      .update({ interval_unit: 'day', interval_count: 1, start_date: today, next_date: today });

    // The run of an app whose log lines are kept: passing over the recorded day is a warning an operator sees.
    const side = await sideApp();
    const run = await placeDueOccurrences(side.shop.runtime, {
      now: new Date(`${addDays(today, 1)}T08:00:00.000Z`),
      missed: 'place-once',
    }).finally(() => side.shop.close());
    expect(run.placed).to.be.at.least(1);
    const warning = side.logLines.find((line) => line.recurringOrderId === id);
    expect(warning, 'a warn line for this recurring order').to.include({ level: 40 });
    expect(warning!.msg).to.match(/already recorded are passed over/);
    expect(warning!.dates).to.deep.equal([today]);
    expect(await ordersOf(customer.customer.id, id)).to.have.length(2);
    const rows = await occurrenceRows(id);
    expect(rows.map((r) => [r.due_date, r.status])).to.deep.equal([
      [today, 'placed'],
      [addDays(today, 1), 'placed'],
    ]);
    expect((await readRecurring(customer.token, id)).nextDate).to.equal(addDays(today, 2));

    // Skipping a next date that has its occurrence moves it on too (no duplicate-key 500).
    await db('suite_recurring_orders')
      .where({ id })
      .update({ next_date: addDays(today, 1) });
    const skipped = await (await as(customer.token)).post(`/b2b/recurring-order/${id}/skip`);
    expect(skipped.status, JSON.stringify(skipped.body)).to.equal(200);
    expect(skipped.body.nextDate).to.equal(addDays(today, 2));
    await (await as(customer.token)).post(`/b2b/recurring-order/${id}/cancel`);
  });

  it('resume on the day it ordered does not come back to that day', async () => {
    const { customer, id, today } = await weeklyPlacedToday();
    const store = await as(customer.token);
    expect(
      (await store.patch(`/b2b/recurring-order/${id}`, { interval: { unit: 'day', count: 1 }, startDate: today }))
        .status,
    ).to.equal(200);
    expect((await store.post(`/b2b/recurring-order/${id}/pause`)).status).to.equal(200);
    const resumed = await store.post(`/b2b/recurring-order/${id}/resume`);
    expect(resumed.status, JSON.stringify(resumed.body)).to.equal(200);
    expect(resumed.body).to.include({ status: 'active', nextDate: addDays(today, 1) });
    await store.post(`/b2b/recurring-order/${id}/cancel`);
  });
});
