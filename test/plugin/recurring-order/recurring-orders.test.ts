import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { PLACE_DUE_JOB } from '../../../src/plugin/recurring-order/index.js';
import { adminToken, expectError, getShop, http } from '../../helpers/shop.js';
import { receiveMail } from '../employee/helpers.js';
import {
  approval,
  employee,
  fillCart,
  newCustomer,
  product,
  REQUESTER_PERMISSIONS,
  startShop,
} from '../order-approval/helpers.js';
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

const MANAGE = 'recurring-orders.manage';

async function setMissedPolicy(value: 'place-once' | 'skip'): Promise<void> {
  const res = await (
    await http()
  )
    .patch('/api/_action/plugin-config/suite-b2b')
    .set('authorization', `Bearer ${await adminToken()}`)
    .send({ recurringOrderMissedOccurrences: value });
  expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 204]);
}

/** The job as the worker runs it (the plugin's runtime and settings), as if it ran at 08:00 UTC on `date`. */
async function runJobOn(date: string): Promise<void> {
  const shop = await getShop();
  await shop.jobs.jobs.enqueue(shop.db, PLACE_DUE_JOB, { now: `${date}T08:00:00.000Z` });
  await shop.jobs.runDue({ schedules: 'due' });
}

describe('recurring orders', function () {
  before(startShop);
  this.timeout(120000);

  it('a weekly recurring order is placed once per week over a simulated quarter, however often the worker runs', async () => {
    const customer = await newCustomer();
    const p = await product({ priceNet: 1500, stock: 10000 });
    await fillCart(customer.token, [{ productId: p.id, quantity: 3 }]);
    const start = dayFromToday(7);
    const created = await createRecurring(customer.token, {
      name: 'Weekly coffee',
      source: 'cart',
      interval: { unit: 'week', count: 1 },
      startDate: start,
    });
    expect(created).to.include({ name: 'Weekly coffee', status: 'active', nextDate: start });
    expect(created.items).to.have.length(1);
    expect(created.items[0]).to.include({ productId: p.id, quantity: 3 });

    // Every day of the quarter, twice at once (a job run that overlaps the next).
    for (let day = 0; day < 91; day++) await Promise.all([runOn(addDays(start, day)), runOn(addDays(start, day))]);

    const orders = await ordersOf(customer.customer.id, created.id);
    expect(orders).to.have.length(13);
    const occurrences = await occurrenceRows(created.id);
    expect(occurrences.map((o) => o.due_date)).to.deep.equal(
      Array.from({ length: 13 }, (_, week) => addDays(start, 7 * week)),
    );
    expect(occurrences.every((o) => o.status === 'placed')).to.equal(true);
    expect(new Set(occurrences.map((o) => o.order_id)).size).to.equal(13);
    const after = await readRecurring(customer.token, created.id);
    expect(after).to.include({ nextDate: addDays(start, 91), occurrenceCount: 13, status: 'active' });
    expect(after.occurrences[0]).to.include({ dueDate: addDays(start, 84), status: 'placed' });
  });

  it('each occurrence is mailed with what changed: a price, a product no longer available, a quantity a rule adjusted', async () => {
    const customer = await newCustomer();
    const [coffee, sugar, cups] = [
      await product({ priceNet: 1000 }),
      await product({ priceNet: 200 }),
      await product(),
    ];
    await fillCart(customer.token, [
      { productId: coffee.id, quantity: 2 },
      { productId: sugar.id, quantity: 1 },
      { productId: cups.id, quantity: 5 },
    ]);
    const start = dayFromToday(10);
    const created = await createRecurring(customer.token, {
      name: `Office supplies ${newId().slice(0, 6)}`,
      source: 'cart',
      interval: { unit: 'week', count: 2 },
      startDate: start,
      unavailableProducts: 'leave-out',
    });
    await runOn(start);
    const first = await receiveMail(customer.email, `Recurring order ${created.name}: ordered for ${start}`);
    expect(first.text).to.include('was ordered: order');
    expect(first.text).not.to.include('What changed');

    const db = (await getShop()).db;
    await db('products').where({ id: coffee.id }).update({ price_net: 1250 });
    await db('products').where({ id: sugar.id }).update({ active: false });
    await db('suite_quantity_rules').insert({
      product_id: cups.id,
      min_quantity: 6,
      max_quantity: null,
      step: 6,
      pack_size: 1,
      price_unit: 'piece',
      created_at: '2026-01-01 00:00:00.000',
    });
    const second = addDays(start, 14);
    await runOn(second);
    const mail = await receiveMail(customer.email, `Recurring order ${created.name}: ordered for ${second}`);
    expect(mail.text).to.include('What changed since the last order');
    expect(mail.text).to.include(`${coffee.name}: the price changed from 10.00 EUR to 12.50 EUR.`);
    expect(mail.text).to.include(`${sugar.name} is no longer available and was left out.`);
    expect(mail.text).to.include(`${cups.name}: the quantity was adjusted from 5 to 6 (quantity rule).`);
    const orders = await ordersOf(customer.customer.id, created.id);
    expect(orders).to.have.length(2);
    const lines = await db('order_line_items').where({ order_id: (await occurrenceRows(created.id))[1]!.order_id });
    expect(lines.map((l) => [l.product_id, Number(l.quantity)]).sort()).to.deep.equal(
      [
        [coffee.id, 2],
        [cups.id, 6],
      ].sort(),
    );
    await db('suite_quantity_rules').where({ product_id: cups.id }).delete();
  });

  it('an occurrence that needs approval becomes an approval (no order), mailed to the buyer', async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, [...REQUESTER_PERMISSIONS, MANAGE], { requiresApproval: true });
    const p = await product({ priceNet: 4000 });
    await fillCart(buyer.token, [{ productId: p.id, quantity: 2 }]);
    const start = dayFromToday(5);
    const created = await createRecurring(buyer.token, {
      name: `Toner ${newId().slice(0, 6)}`,
      source: 'cart',
      interval: { unit: 'month', count: 1 },
      startDate: start,
    });
    expect(created.owner).to.include({ type: 'employee', id: buyer.id });
    await runOn(start);
    const [occurrence] = await occurrenceRows(created.id);
    expect(occurrence).to.include({ status: 'approval', error_code: 'SUITE__ORDER_APPROVAL_REQUIRED' });
    expect(await ordersOf(customer.customer.id, created.id)).to.have.length(0);
    const asked = await approval(customer.token, occurrence!.approval_id);
    expect(asked.status).to.equal('pending');
    expect(asked.lineItems ?? asked.lines).to.have.length(1);
    const mail = await receiveMail(buyer.email, `Recurring order ${created.name}: waiting for approval for ${start}`);
    expect(mail.text).to.include(`order approval ${asked.approvalNumber ?? ''}`);
    const next = (await readRecurring(buyer.token, created.id)).nextDate as string;
    expect(next > start).to.equal(true);
    expect(mail.text).to.include(`Next date: ${next}.`);
  });

  it('an occurrence that cannot be placed is recorded with its reason and mailed; the schedule goes on', async () => {
    const customer = await newCustomer();
    const p = await product({ priceNet: 900 });
    await fillCart(customer.token, [{ productId: p.id, quantity: 1 }]);
    const start = dayFromToday(3);
    const created = await createRecurring(customer.token, {
      name: `Paper ${newId().slice(0, 6)}`,
      source: 'cart',
      interval: { unit: 'day', count: 7 },
      startDate: start,
    });
    const db = (await getShop()).db;
    await db('products').where({ id: p.id }).update({ active: false });
    await runOn(start);
    const [failed] = await occurrenceRows(created.id);
    expect(failed).to.include({ status: 'failed', due_date: start });
    expect(failed!.reason).to.include('None of the products');
    const mail = await receiveMail(customer.email, `Recurring order ${created.name}: not ordered for ${start}`);
    expect(mail.text).to.include('could not be ordered');
    await db('products').where({ id: p.id }).update({ active: true });
    await runOn(addDays(start, 7));
    const rows = await occurrenceRows(created.id);
    expect(rows.map((r) => r.status)).to.deep.equal(['failed', 'placed']);
  });

  describe('a missed occurrence (the shop was down), per the setting recurringOrderMissedOccurrences', () => {
    after(() => setMissedPolicy('place-once'));

    async function missedThreeWeeks(): Promise<{
      customer: Awaited<ReturnType<typeof newCustomer>>;
      id: string;
      start: string;
    }> {
      const customer = await newCustomer();
      const p = await product();
      await fillCart(customer.token, [{ productId: p.id, quantity: 1 }]);
      const start = dayFromToday(20);
      const created = await createRecurring(customer.token, {
        source: 'cart',
        interval: { unit: 'week', count: 1 },
        startDate: start,
      });
      // The worker comes back on the 16th day: three dates passed (start, +7, +14).
      await runJobOn(addDays(start, 16));
      await runJobOn(addDays(start, 16));
      return { customer, id: created.id, start };
    }

    it('place-once: one order for the missed dates, the others recorded as skipped', async () => {
      await setMissedPolicy('place-once');
      const { customer, id, start } = await missedThreeWeeks();
      expect(await ordersOf(customer.customer.id, id)).to.have.length(1);
      const rows = await occurrenceRows(id);
      expect(rows.map((r) => [r.due_date, r.status, r.reason])).to.deep.equal([
        [start, 'skipped', 'missed'],
        [addDays(start, 7), 'skipped', 'missed'],
        [addDays(start, 14), 'placed', null],
      ]);
      expect((await readRecurring(customer.token, id)).nextDate).to.equal(addDays(start, 21));
    });

    it('skip: nothing is ordered, every missed date is recorded as skipped and the buyer is told', async () => {
      await setMissedPolicy('skip');
      const { customer, id, start } = await missedThreeWeeks();
      expect(await ordersOf(customer.customer.id, id)).to.have.length(0);
      const rows = await occurrenceRows(id);
      expect(rows.map((r) => r.status)).to.deep.equal(['skipped', 'skipped', 'skipped']);
      expect((await readRecurring(customer.token, id)).nextDate).to.equal(addDays(start, 21));
      const mail = await receiveMail(customer.email, 'missed dates skipped');
      expect(mail.text).to.include(
        `Skipped (the shop was unavailable): ${start}, ${addDays(start, 7)}, ${addDays(start, 14)}`,
      );
      // The next date on time is ordered as usual.
      await runJobOn(addDays(start, 21));
      expect(await ordersOf(customer.customer.id, id)).to.have.length(1);
    });
  });

  describe('Store API', () => {
    it('creates from a product list, lists by criteria, pauses, resumes, skips the next date and cancels', async () => {
      const customer = await newCustomer();
      const [a, b] = [await product(), await product()];
      const client = await as(customer.token);
      const list = await client.post('/product-lists/create', {
        name: 'Kitchen',
        items: [
          { productId: a.id, quantity: 4 },
          { productId: b.id, quantity: 1 },
        ],
      });
      expect(list.status, JSON.stringify(list.body)).to.equal(200);
      const start = dayFromToday(30);
      const created = await createRecurring(customer.token, {
        name: 'Kitchen monthly',
        source: 'product-list',
        productListId: list.body.id,
        interval: { unit: 'month', count: 1 },
        startDate: start,
        endDate: addDays(start, 100),
      });
      expect(
        created.items.map((i: { productId: string; quantity: number }) => [i.productId, i.quantity]),
      ).to.deep.equal([
        [a.id, 4],
        [b.id, 1],
      ]);
      const found = await client.post('/b2b/recurring-order/list', {
        filter: [{ type: 'equals', field: 'status', value: 'active' }],
        limit: 10,
      });
      expect(found.status).to.equal(200);
      expect(found.body.elements.map((e: { id: string }) => e.id)).to.deep.equal([created.id]);

      const paused = await client.post(`/b2b/recurring-order/${created.id}/pause`, {});
      expect(paused.body.status).to.equal('paused');
      await runOn(start);
      expect(await occurrenceRows(created.id)).to.have.length(0);
      expect((await client.post(`/b2b/recurring-order/${created.id}/resume`, {})).body).to.include({
        status: 'active',
        nextDate: start,
      });
      const skipped = await client.post(`/b2b/recurring-order/${created.id}/skip`, {});
      expect(skipped.status).to.equal(200);
      expect(skipped.body.nextDate).to.not.equal(start);
      expect(skipped.body.occurrences[0]).to.include({ dueDate: start, status: 'skipped', reason: 'skipped-by-buyer' });
      const changed = await client.patch(`/b2b/recurring-order/${created.id}`, {
        interval: { unit: 'week', count: 2 },
      });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      expect(changed.body.interval).to.deep.equal({ unit: 'week', count: 2 });
      // The start date was skipped (it has its occurrence): the new schedule does not come back to it (decision 0041).
      expect(changed.body.nextDate).to.equal(addDays(start, 14));
      const cancelled = await client.post(`/b2b/recurring-order/${created.id}/cancel`, {});
      expect(cancelled.body).to.include({ status: 'cancelled', nextDate: null });
      await runOn(addDays(start, 30));
      expect(await ordersOf(customer.customer.id, created.id)).to.have.length(0);
      expectError(
        await client.post(`/b2b/recurring-order/${created.id}/pause`, {}),
        400,
        'SUITE__RECURRING_ORDER_NOT_ACTIVE',
      );
    });

    it('refuses bad input with a 400 and changes nothing', async () => {
      const customer = await newCustomer();
      const p = await product();
      await fillCart(customer.token, [{ productId: p.id, quantity: 1 }]);
      const client = await as(customer.token);
      const base = { source: 'cart', interval: { unit: 'week', count: 1 } };
      expectError(
        await client.post('/b2b/recurring-order', { ...base, startDate: dayFromToday(-1) }),
        400,
        'SUITE__RECURRING_ORDER_START_IN_PAST',
      );
      expectError(
        await client.post('/b2b/recurring-order', { ...base, startDate: '2031-02-30' }),
        400,
        'SUITE__INVALID_DATE',
      );
      expectError(
        await client.post('/b2b/recurring-order', { ...base, startDate: dayFromToday(5), endDate: dayFromToday(4) }),
        400,
        'SUITE__INVALID_DATE_RANGE',
      );
      expectError(
        await client.post('/b2b/recurring-order', {
          ...base,
          interval: { unit: 'year', count: 1 },
          startDate: dayFromToday(1),
        }),
        400,
      );
      expectError(
        await client.post('/b2b/recurring-order', { ...base, startDate: dayFromToday(1), source: 'product-list' }),
        400,
        'SUITE__PRODUCT_LIST_REQUIRED',
      );
      expectError(
        await client.post('/b2b/recurring-order', {
          ...base,
          startDate: dayFromToday(1),
          source: 'product-list',
          productListId: newId(),
        }),
        404,
      );
      const list = await client.post('/b2b/recurring-order/list', {});
      expect(list.body.total).to.equal(0);
    });

    it('employees need recurring-orders.manage and see their own; the company admin sees the company’s; other customers get 404', async () => {
      const customer = await newCustomer();
      const buyer = await employee(customer, ['orders.create', MANAGE]);
      const colleague = await employee(customer, ['orders.create', MANAGE]);
      const without = await employee(customer, ['orders.create']);
      const p = await product();
      await fillCart(buyer.token, [{ productId: p.id, quantity: 1 }]);
      const created = await createRecurring(buyer.token, {
        source: 'cart',
        interval: { unit: 'day', count: 1 },
        startDate: dayFromToday(2),
      });
      expectError(await (await as(without.token)).post('/b2b/recurring-order/list', {}), 403);
      expectError(await (await as(colleague.token)).get(`/b2b/recurring-order/${created.id}`), 404);
      expect((await (await as(colleague.token)).post('/b2b/recurring-order/list', {})).body.total).to.equal(0);
      const admin = await (await as(customer.token)).post('/b2b/recurring-order/list', {});
      expect(admin.body.elements.map((e: { id: string }) => e.id)).to.deep.equal([created.id]);
      expect(
        (await (await as(customer.token)).post(`/b2b/recurring-order/${created.id}/pause`, {})).body.status,
      ).to.equal('paused');
      const stranger = await newCustomer();
      expectError(await (await as(stranger.token)).get(`/b2b/recurring-order/${created.id}`), 404);
      expectError(await (await as(stranger.token)).post(`/b2b/recurring-order/${created.id}/cancel`, {}), 404);
      expect((await readRecurring(buyer.token, created.id)).status).to.equal('paused');
    });

    it('every route is in the Store API OpenAPI document', async () => {
      const doc = (await (await http()).get('/store-api/_info/openapi3.json')).body;
      for (const path of [
        '/b2b/recurring-order',
        '/b2b/recurring-order/list',
        '/b2b/recurring-order/{id}',
        '/b2b/recurring-order/{id}/pause',
        '/b2b/recurring-order/{id}/resume',
        '/b2b/recurring-order/{id}/skip',
        '/b2b/recurring-order/{id}/cancel',
      ])
        expect(doc.paths, path).to.have.property(path);
      expect(Object.keys(doc.paths['/b2b/recurring-order/{id}'])).to.include.members(['get', 'patch']);
    });
  });
});
