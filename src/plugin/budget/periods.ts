import { zonedMidnight, zonedParts } from '../../lib/time.js';

export const PERIOD_TYPES = ['per-order', 'daily', 'weekly', 'monthly', 'quarterly', 'yearly', 'once'] as const;
export type PeriodType = (typeof PERIOD_TYPES)[number];

export const PERIOD_LABELS: Record<PeriodType, string> = {
  'per-order': 'Per order',
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
  once: 'Once',
};

/** A calendar window [start, end) in UTC; end null = open. Per-order budgets have no window. */
export interface PeriodWindow {
  start: Date;
  end: Date | null;
}

/** Today's date (YYYY-MM-DD) in a time zone. */
export function zonedToday(now: Date, timeZone: string): string {
  const p = zonedParts(now, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

function dateParts(date: string): { year: number; month: number; day: number } {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

/** The instant a budget's start date begins in the sales channel's time zone. */
export function startInstant(startDate: string, timeZone: string): Date {
  const { year, month, day } = dateParts(startDate);
  return zonedMidnight(year, month, day, timeZone);
}

/**
 * The calendar window containing `now` in the sales channel's time zone (weeks start on Monday),
 * never starting before the budget's start date. Null for per-order budgets.
 */
export function periodWindow(type: PeriodType, startDate: string, now: Date, timeZone: string): PeriodWindow | null {
  if (type === 'per-order') return null;
  const begin = startInstant(startDate, timeZone);
  if (type === 'once') return { start: begin, end: null };
  const p = zonedParts(now, timeZone);
  let start: Date;
  let end: Date;
  switch (type) {
    case 'daily':
      start = zonedMidnight(p.year, p.month, p.day, timeZone);
      end = zonedMidnight(p.year, p.month, p.day + 1, timeZone);
      break;
    case 'weekly':
      start = zonedMidnight(p.year, p.month, p.day - (p.weekday - 1), timeZone);
      end = zonedMidnight(p.year, p.month, p.day - (p.weekday - 1) + 7, timeZone);
      break;
    case 'monthly':
      start = zonedMidnight(p.year, p.month, 1, timeZone);
      end = zonedMidnight(p.year, p.month + 1, 1, timeZone);
      break;
    case 'quarterly': {
      const first = Math.floor((p.month - 1) / 3) * 3 + 1;
      start = zonedMidnight(p.year, first, 1, timeZone);
      end = zonedMidnight(p.year, first + 3, 1, timeZone);
      break;
    }
    case 'yearly':
      start = zonedMidnight(p.year, 1, 1, timeZone);
      end = zonedMidnight(p.year + 1, 1, 1, timeZone);
      break;
  }
  return { start: start.getTime() < begin.getTime() ? begin : start, end };
}
