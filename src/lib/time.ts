/**
 * One owner for time. The API speaks UTC ISO-8601; both databases store DATETIME(3)-style
 * strings 'YYYY-MM-DD HH:MM:SS.mmm' in UTC (mysql2 runs with dateStrings, so both read strings).
 */
export function toDbTime(date: Date | string | number = new Date()): string {
  const d = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(d.getTime())) throw new RangeError(`invalid date: ${String(date)}`);
  return d.toISOString().replace('T', ' ').replace('Z', '');
}

export function fromDbTime(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const normalised = value.includes('T') ? value : value.replace(' ', 'T');
  return new Date(normalised.endsWith('Z') ? normalised : `${normalised}Z`).toISOString();
}

export function nowDb(): string {
  return toDbTime(new Date());
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

/** The wall-clock parts of an instant in a time zone (for calendar windows). */
export function zonedParts(instant: Date, timeZone: string): { year: number; month: number; day: number; weekday: number } {
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
