/**
 * The calendar of a recurring order: dates 'YYYY-MM-DD' (UTC) from the start date every N days,
 * weeks or months. The n-th date is computed from the start (never from the previous date), so a
 * monthly order starting on the 31st falls on the last day of shorter months and back on the 31st.
 */
export type IntervalUnit = 'day' | 'week' | 'month';

export interface Schedule {
  unit: IntervalUnit;
  count: number;
  startDate: string;
  endDate: string | null;
}

/** At most this many dates are looked at in one step (a schedule every day, missed for a year and more). */
const MAX_STEPS = 5000;

function parse(date: string): { y: number; m: number; d: number } {
  return { y: Number(date.slice(0, 4)), m: Number(date.slice(5, 7)), d: Number(date.slice(8, 10)) };
}

function format(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const { y, m, d } = parse(value);
  return format(Date.UTC(y, m - 1, d)) === value;
}

/** The UTC calendar date of an instant. */
export function dateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The n-th date of the schedule (n = 0: the start date). */
export function nthDate(schedule: Schedule, n: number): string {
  const { y, m, d } = parse(schedule.startDate);
  if (schedule.unit === 'month') {
    const months = m - 1 + n * schedule.count;
    const year = y + Math.floor(months / 12);
    const month = months % 12;
    const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    return format(Date.UTC(year, month, Math.min(d, last)));
  }
  const days = schedule.unit === 'week' ? 7 * schedule.count : schedule.count;
  return format(Date.UTC(y, m - 1, d + n * days));
}

/** The first date of the schedule on or after `date` (strictly after with `after`), or null past the end date. */
export function firstDateFrom(schedule: Schedule, date: string, after = false): string | null {
  let n = 0;
  if (schedule.unit !== 'month') {
    // Days and weeks: jump close, then step.
    const days = schedule.unit === 'week' ? 7 * schedule.count : schedule.count;
    const start = parse(schedule.startDate);
    const target = parse(date);
    const diff = (Date.UTC(target.y, target.m - 1, target.d) - Date.UTC(start.y, start.m - 1, start.d)) / 86400000;
    n = Math.max(0, Math.floor(diff / days) - 1);
  }
  for (let steps = 0; steps < MAX_STEPS + 24; steps++, n++) {
    const candidate = nthDate(schedule, n);
    if (after ? candidate > date : candidate >= date) return withinEnd(schedule, candidate);
  }
  return null;
}

function withinEnd(schedule: Schedule, date: string): string | null {
  return schedule.endDate !== null && date > schedule.endDate ? null : date;
}

/** The schedule's dates from `from` (a date of it) up to and including `until`, at most MAX_STEPS. */
export function datesBetween(schedule: Schedule, from: string, until: string): string[] {
  const dates: string[] = [];
  let date: string | null = from;
  while (date !== null && date <= until && dates.length < MAX_STEPS) {
    if (schedule.endDate !== null && date > schedule.endDate) break;
    dates.push(date);
    date = firstDateFrom(schedule, date, true);
  }
  return dates;
}

/**
 * The first date of the schedule on or after `from` that has no occurrence yet (`recorded`: the
 * dates from `from` on that have one), or null past the end date. A schedule changed on a day it
 * has ordered (or skipped) must not come back to that day: its occurrence is unique per date.
 */
export function firstOpenDate(schedule: Schedule, from: string, recorded: ReadonlySet<string>): string | null {
  let date = firstDateFrom(schedule, from);
  while (date !== null && recorded.has(date)) date = firstDateFrom(schedule, date, true);
  return date;
}
