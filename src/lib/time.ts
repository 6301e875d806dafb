/**
 * One owner for time. The API speaks UTC ISO-8601; both databases store DATETIME(3)-style
 * strings 'YYYY-MM-DD HH:MM:SS.mmm' in UTC (mysql2 runs with dateStrings, so both read strings).
 */
/**
 * The one "now" of the plugin and both hosts: every instant a rule, a token, a schedule or a stored
 * row is compared with comes from here, so a test moves time (`moveClock`) instead of waiting for
 * it. Durations and timeouts (deadlines, pool waits, shutdown, caches) measure real time instead.
 */
let clockOffsetMs = 0;

export function nowMs(): number {
  return Date.now() + clockOffsetMs;
}

export function now(): Date {
  return new Date(nowMs());
}

/** Moves this process's "now" forward (or back) by `ms`; for tests (test/helpers/clock.ts). */
export function moveClock(ms: number): void {
  clockOffsetMs += ms;
}

/** Back to the machine's time. */
export function resetClock(): void {
  clockOffsetMs = 0;
}

export function toDbTime(date: Date | string | number = now()): string {
  const d = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(d.getTime())) throw new RangeError(`invalid date: ${String(date)}`);
  return d.toISOString().replace('T', ' ').replace('Z', '');
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Digits of `value` from `start` to `end` as a number, or -1 when one of them is not a digit. */
function digitsAt(value: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = value.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * The ISO string of a stored time 'YYYY-MM-DD HH:MM:SS.mmm' (what toDbTime writes) without
 * parsing a Date, or null when `value` is not exactly that with a valid calendar date and time
 * (then Date decides, as before: it rolls over days such as February 30th).
 */
function canonicalDbTime(value: string): string | null {
  if (
    value.length !== 23 ||
    value.charCodeAt(4) !== 45 ||
    value.charCodeAt(7) !== 45 ||
    value.charCodeAt(10) !== 32 ||
    value.charCodeAt(13) !== 58 ||
    value.charCodeAt(16) !== 58 ||
    value.charCodeAt(19) !== 46
  )
    return null;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 7);
  const day = digitsAt(value, 8, 10);
  if (year < 1000 || month < 1 || month > 12 || day < 1) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return null;
  const hour = digitsAt(value, 11, 13);
  const minute = digitsAt(value, 14, 16);
  const second = digitsAt(value, 17, 19);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || digitsAt(value, 20, 23) < 0)
    return null;
  return `${value.slice(0, 10)}T${value.slice(11)}Z`;
}

export function fromDbTime(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  // Lists map several times per row: the stored form needs no Date (the same string as below).
  const canonical = canonicalDbTime(value);
  if (canonical !== null) return canonical;
  const normalised = value.includes('T') ? value : value.replace(' ', 'T');
  return new Date(normalised.endsWith('Z') ? normalised : `${normalised}Z`).toISOString();
}

let lastNow = { ms: -1, text: '' };

/** The current time in the DB's form (remembered for the millisecond: a busy process asks many times in one). */
export function nowDb(): string {
  const ms = nowMs();
  if (ms !== lastNow.ms) lastNow = { ms, text: toDbTime(new Date(ms)) };
  return lastNow.text;
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

/** The wall-clock parts of an instant in a time zone (for calendar windows). */
export function zonedParts(
  instant: Date,
  timeZone: string,
): { year: number; month: number; day: number; weekday: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    weekday: 'short',
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekdays = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    weekday: weekdays.indexOf(get('weekday')) + 1,
  };
}

/** The UTC instant at which a wall-clock date (00:00) begins in a time zone. */
export function zonedMidnight(year: number, month: number, day: number, timeZone: string): Date {
  const guess = Date.UTC(year, month - 1, day);
  const offsetAt = (t: number) => {
    const local = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(new Date(t));
    const get = (type: string) => Number(local.find((p) => p.type === type)?.value);
    return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - t;
  };
  const first = guess - offsetAt(guess);
  return new Date(guess - offsetAt(first));
}

export const dateTimeSchema = { type: 'string', format: 'date-time' } as const;
