import type { Knex } from 'knex';
import { readInt } from '../../lib/db.js';
import { fromMinor } from '../../lib/money.js';
import { toDbTime, zonedMidnight, zonedParts } from '../../lib/time.js';
import type { HostRuntime, SalesChannel } from '../../host/contract.js';
import { storableTime } from './dates.js';

interface MonthWindow {
  month: string;
  from: Date;
  to: Date;
}

/** The last `count` calendar months in the time zone, oldest first; the last one is the current month. */
export function monthWindows(now: Date, timeZone: string, count: number): MonthWindow[] {
  const today = zonedParts(now, timeZone);
  const windows: MonthWindow[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const index = today.year * 12 + (today.month - 1) - back;
    const year = Math.floor(index / 12);
    const month = (index % 12) + 1;
    const next = index + 1;
    windows.push({
      month: `${year}-${String(month).padStart(2, '0')}`,
      from: zonedMidnight(year, month, 1, timeZone),
      to: zonedMidnight(Math.floor(next / 12), (next % 12) + 1, 1, timeZone),
    });
  }
  return windows;
}

function figures(revenueMinor: number, orderCount: number, precision: number) {
  return {
    revenue: fromMinor(revenueMinor, precision),
    orderCount,
    averageOrderValue: orderCount ? fromMinor(Math.round(revenueMinor / orderCount), precision) : 0,
  };
}

/** Net revenue per month in integer minor units, summed by the database in one pass over the customer's orders. */
export async function salesStatistics(host: HostRuntime, salesChannel: SalesChannel, customerId: string, months: number) {
  const windows = monthWindows(new Date(), salesChannel.timeZone, months);
  const columns: Knex.Raw[] = [];
  windows.forEach((w, i) => {
    const range = [toDbTime(w.from), toDbTime(w.to)];
    columns.push(host.db.raw(`SUM(CASE WHEN order_date >= ? AND order_date < ? THEN net_total ELSE 0 END) as r${i}`, range));
    columns.push(host.db.raw(`SUM(CASE WHEN order_date >= ? AND order_date < ? THEN 1 ELSE 0 END) as c${i}`, range));
  });
  const [row = {}]: Array<Record<string, unknown>> = await host.db('orders')
    .where('customer_id', customerId)
    .whereNot('state', 'cancelled')
    .where('order_date', '>=', toDbTime(windows[0]!.from))
    .where('order_date', '<', toDbTime(windows.at(-1)!.to))
    .select(columns);
  const precision = salesChannel.currencyPrecision;
  let revenueTotal = 0;
  let countTotal = 0;
  const perMonth = windows.map((w, i) => {
    const revenue = readInt(row[`r${i}`]);
    const count = readInt(row[`c${i}`]);
    revenueTotal += revenue;
    countTotal += count;
    return { month: w.month, from: w.from.toISOString(), to: w.to.toISOString(), ...figures(revenue, count, precision) };
  });
  return { customerId, currency: salesChannel.currencyIso, revenueBasis: 'net' as const, months: perMonth, total: figures(revenueTotal, countTotal, precision) };
}

/** Customers of `customers` (aliased c) ranked by net revenue; equal revenue shares a rank (1, 2, 2, 4). */
export async function customerRanking(host: HostRuntime, salesChannel: SalesChannel, customers: Knex.QueryBuilder, from?: string, to?: string) {
  const fromDb = from ? storableTime(from, '/from') : null;
  const toDb = to ? storableTime(to, '/to') : null;
  const rows: Array<Record<string, any>> = await customers
    .leftJoin('orders as o', function (this: Knex.JoinClause) {
      this.on('o.customer_id', '=', 'c.id').andOnVal('o.state', '<>', 'cancelled');
      if (fromDb) this.andOnVal('o.order_date', '>=', fromDb);
      if (toDb) this.andOnVal('o.order_date', '<=', toDb);
    })
    .groupBy('c.id', 'c.customer_number', 'c.company')
    .select('c.id', 'c.customer_number', 'c.company', host.db.raw('COUNT(o.id) as order_count'), host.db.raw('COALESCE(SUM(o.net_total), 0) as revenue'));
  const entries = rows
    .map((r) => ({ customerId: r.id as string, customerNumber: r.customer_number as string, company: (r.company as string | null) ?? null, revenueMinor: readInt(r.revenue), orderCount: readInt(r.order_count) }))
    .sort((a, b) => b.revenueMinor - a.revenueMinor || a.customerId.localeCompare(b.customerId));
  let rank = 0;
  return entries.map((entry, index) => {
    if (index === 0 || entries[index - 1]!.revenueMinor !== entry.revenueMinor) rank = index + 1;
    const { revenueMinor, ...rest } = entry;
    return { rank, ...rest, revenue: fromMinor(revenueMinor, salesChannel.currencyPrecision) };
  });
}
