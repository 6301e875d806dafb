import { expect } from 'chai';
import { adminToken, expectError, getShop, http } from '../../helpers/shop.js';
import { fillCart, newCustomer, product, startShop } from '../order-approval/helpers.js';
import { addDays, createRecurring, dayFromToday, occurrenceRows, ordersOf, readRecurring } from './helpers.js';

const PATH = '/api/_action/suite-recurring-order/place-due';

async function placeDue(body: Record<string, unknown>, token: string | null = null) {
  const req = (await http()).post(PATH);
  return req.set('authorization', `Bearer ${token ?? (await adminToken())}`).send(body);
}

/**
 * Before decision 0041 the documented catch-up for missed occurrences ("queue the job with `now`") had no
 * way to be queued. An operator runs it through the Admin API (both hosts) or the CLI (reference host).
 */
describe('recurring orders: the operator catches up missed occurrences as of a time', function () {
  before(startShop);
  this.timeout(120000);

  it('POST /api/_action/suite-recurring-order/place-due places what is due as of `now`, once', async () => {
    const customer = await newCustomer();
    const p = await product({ priceNet: 1200 });
    await fillCart(customer.token, [{ productId: p.id, quantity: 1 }]);
    const start = dayFromToday(40);
    const created = await createRecurring(customer.token, {
      source: 'cart',
      interval: { unit: 'week', count: 1 },
      startDate: start,
    });
    // The shop was down for the first three dates; the operator catches up as of the third.
    const now = `${addDays(start, 15)}T09:00:00.000Z`;
    const res = await placeDue({ now, missedOccurrences: 'place-once' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ now, done: true });
    expect(res.body.data.placed).to.be.at.least(1);
    expect(res.body.data.skipped).to.be.at.least(2);
    expect(await ordersOf(customer.customer.id, created.id)).to.have.length(1);
    expect((await occurrenceRows(created.id)).map((r) => [r.due_date, r.status])).to.deep.equal([
      [start, 'skipped'],
      [addDays(start, 7), 'skipped'],
      [addDays(start, 14), 'placed'],
    ]);
    expect((await readRecurring(customer.token, created.id)).nextDate).to.equal(addDays(start, 21));

    // Again as of the same time: nothing is placed twice.
    const again = await placeDue({ now });
    expect(again.status).to.equal(200);
    expect(await ordersOf(customer.customer.id, created.id)).to.have.length(1);
  });

  it('refuses a `now` that is not a time and an unknown policy (400), and callers without the admin token (401)', async () => {
    expectError(await placeDue({ now: 'yesterday' }), 400);
    expectError(await placeDue({ missedOccurrences: 'later' }), 400);
    expectError(await placeDue({ extra: true }), 400);
    const anonymous = await (await http()).post(PATH).send({});
    expect(anonymous.status).to.equal(401);
  });

  it('is in the Admin API OpenAPI document', async () => {
    const doc = await (
      await http()
    )
      .get('/api/_info/openapi3.json')
      .set('authorization', `Bearer ${await adminToken()}`);
    expect(doc.status).to.equal(200);
    expect(doc.body.paths).to.have.property('/_action/suite-recurring-order/place-due');
  });

  it('the job queued with `now` (as the CLI queues it) catches up every due recurring order', async () => {
    const customer = await newCustomer();
    const p = await product({ priceNet: 800 });
    await fillCart(customer.token, [{ productId: p.id, quantity: 2 }]);
    const start = dayFromToday(60);
    const created = await createRecurring(customer.token, {
      source: 'cart',
      interval: { unit: 'week', count: 1 },
      startDate: start,
    });
    const shop = await getShop();
    // Two dates passed, none is today: with `skip` nothing is ordered (the setting, place-once, would order one).
    await shop.jobs.jobs.enqueue(shop.db, 'recurring-order.place-due', {
      now: `${addDays(start, 9)}T08:00:00.000Z`,
      missed: 'skip',
    });
    await shop.jobs.runDue({ schedules: 'due' });
    expect(await ordersOf(customer.customer.id, created.id)).to.have.length(0);
    expect((await occurrenceRows(created.id)).map((r) => r.status)).to.deep.equal(['skipped', 'skipped']);
    expect((await readRecurring(customer.token, created.id)).nextDate).to.equal(addDays(start, 14));
  });
});
