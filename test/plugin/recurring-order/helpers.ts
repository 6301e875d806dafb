import { expect } from 'chai';
import { placeDueOccurrences, type MissedPolicy } from '../../../src/plugin/recurring-order/index.js';
import { getShop } from '../../helpers/shop.js';
import { as } from '../employee/helpers.js';

export { as };

/** A calendar date `days` after today (UTC): schedules start in the future, so no real-time job run touches them. */
export function dayFromToday(days: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days))
    .toISOString()
    .slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  return new Date(d.getTime() + days * 86400000).toISOString().slice(0, 10);
}

/** The worker's run as if it were 08:00 UTC on `date` (the clock is an argument: no real waiting). */
export async function runOn(date: string, missed: MissedPolicy = 'place-once') {
  return placeDueOccurrences((await getShop()).runtime, { now: new Date(`${date}T08:00:00.000Z`), missed });
}

export async function createRecurring(token: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await (await as(token)).post('/b2b/recurring-order', body);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

export async function readRecurring(token: string, id: string): Promise<Record<string, any>> {
  const res = await (await as(token)).get(`/b2b/recurring-order/${id}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** The orders a recurring order placed (the host's orders table, by the custom field the placement sets). */
export async function ordersOf(customerId: string, recurringOrderId: string): Promise<Array<Record<string, any>>> {
  const rows = await (
    await getShop()
  )
    .db('orders')
    .where({ customer_id: customerId })
    .select('id', 'order_number', 'custom_fields', 'net_total');
  return rows.filter((row) => String(row.custom_fields ?? '').includes(recurringOrderId));
}

export async function occurrenceRows(recurringOrderId: string): Promise<Array<Record<string, any>>> {
  return (await getShop())
    .db('suite_recurring_order_occurrences')
    .where({ recurring_order_id: recurringOrderId })
    .orderBy('due_date');
}
