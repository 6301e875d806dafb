import { fromMinor } from '../../lib/money.js';
import { now, zonedMidnight, zonedParts } from '../../lib/time.js';
import type { CustomerRef, HostRuntime, SalesChannel } from '../../contract/index.js';
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

/** Net revenue per month in integer minor units, summed by the host in one pass over the customer's orders. */
export async function salesStatistics(
  host: HostRuntime,
  salesChannel: SalesChannel,
  customerId: string,
  months: number,
) {
  const windows = monthWindows(now(), salesChannel.timeZone, months);
  const figuresPerMonth = await host.orders.figuresByPeriod(
    host.db,
    customerId,
    windows.map((w) => ({ from: w.from.toISOString(), to: w.to.toISOString() })),
  );
  const precision = salesChannel.currencyPrecision;
  let revenueTotal = 0;
  let countTotal = 0;
  const perMonth = windows.map((w, i) => {
    const { netTotal: revenue, orderCount: count } = figuresPerMonth[i]!;
    revenueTotal += revenue;
    countTotal += count;
    return {
      month: w.month,
      from: w.from.toISOString(),
      to: w.to.toISOString(),
      ...figures(revenue, count, precision),
    };
  });
  return {
    customerId,
    currency: salesChannel.currencyIso,
    revenueBasis: 'net' as const,
    months: perMonth,
    total: figures(revenueTotal, countTotal, precision),
  };
}

/**
 * The same figures over several customers (a representative's customers together; customerId null):
 * per month one host call over all of them (`figuresByCustomer`, both ends inclusive, so a month ends
 * a millisecond before the next begins).
 */
export async function salesStatisticsOfAll(
  host: HostRuntime,
  salesChannel: SalesChannel,
  customerIds: string[],
  months: number,
) {
  const windows = monthWindows(new Date(), salesChannel.timeZone, months);
  const precision = salesChannel.currencyPrecision;
  let revenueTotal = 0;
  let countTotal = 0;
  const perMonth = [];
  for (const w of windows) {
    const rows = customerIds.length
      ? await host.orders.figuresByCustomer(host.db, customerIds, {
          from: w.from.toISOString(),
          to: new Date(w.to.getTime() - 1).toISOString(),
        })
      : [];
    const revenue = rows.reduce((sum, row) => sum + row.netTotal, 0);
    const count = rows.reduce((sum, row) => sum + row.orderCount, 0);
    revenueTotal += revenue;
    countTotal += count;
    perMonth.push({
      month: w.month,
      from: w.from.toISOString(),
      to: w.to.toISOString(),
      ...figures(revenue, count, precision),
    });
  }
  return {
    customerId: null,
    currency: salesChannel.currencyIso,
    revenueBasis: 'net' as const,
    months: perMonth,
    total: figures(revenueTotal, countTotal, precision),
  };
}

/** The customers ranked by net revenue (optionally between from and to); equal revenue shares a rank (1, 2, 2, 4). */
export async function customerRanking(
  host: HostRuntime,
  salesChannel: SalesChannel,
  customers: CustomerRef[],
  from?: string,
  to?: string,
) {
  // Validated here so an unstorable date is a 400, as anywhere else.
  if (from) storableTime(from, '/from');
  if (to) storableTime(to, '/to');
  const figuresOf = new Map(
    (
      await host.orders.figuresByCustomer(
        host.db,
        customers.map((c) => c.id),
        { from, to },
      )
    ).map((f) => [f.customerId, f]),
  );
  const entries = customers
    .map((c) => ({
      customerId: c.id,
      customerNumber: c.customerNumber,
      company: c.company ?? null,
      revenueMinor: figuresOf.get(c.id)?.netTotal ?? 0,
      orderCount: figuresOf.get(c.id)?.orderCount ?? 0,
    }))
    .sort((a, b) => b.revenueMinor - a.revenueMinor || a.customerId.localeCompare(b.customerId));
  let rank = 0;
  return entries.map((entry, index) => {
    if (index === 0 || entries[index - 1]!.revenueMinor !== entry.revenueMinor) rank = index + 1;
    const { revenueMinor, ...rest } = entry;
    return { rank, ...rest, revenue: fromMinor(revenueMinor, salesChannel.currencyPrecision) };
  });
}
