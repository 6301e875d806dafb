import { expect } from 'chai';
import { periodWindow, zonedToday } from '../../../../src/plugin/budget/periods.js';

const BERLIN = 'Europe/Berlin';
const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

describe("budget periods: calendar windows in the sales channel's time zone", () => {
  it('monthly: the calendar month in Berlin, not in UTC', () => {
    // 31 Jan 23:30 UTC is already 1 Feb in Berlin.
    const window = periodWindow('monthly', '2024-01-01', new Date('2024-01-31T23:30:00Z'), BERLIN)!;
    expect(iso(window.start)).to.equal('2024-01-31T23:00:00.000Z');
    expect(iso(window.end)).to.equal('2024-02-29T23:00:00.000Z');
  });

  it('daily across the switch to summer time has 23 hours', () => {
    const window = periodWindow('daily', '2024-01-01', new Date('2024-03-31T12:00:00Z'), BERLIN)!;
    expect(iso(window.start)).to.equal('2024-03-30T23:00:00.000Z');
    expect(iso(window.end)).to.equal('2024-03-31T22:00:00.000Z');
  });

  it('weekly starts on Monday; quarterly and yearly follow the calendar', () => {
    const wednesday = new Date('2024-05-15T10:00:00Z');
    const week = periodWindow('weekly', '2024-01-01', wednesday, BERLIN)!;
    expect(iso(week.start)).to.equal('2024-05-12T22:00:00.000Z');
    expect(iso(week.end)).to.equal('2024-05-19T22:00:00.000Z');
    const quarter = periodWindow('quarterly', '2024-01-01', wednesday, BERLIN)!;
    expect(iso(quarter.start)).to.equal('2024-03-31T22:00:00.000Z');
    expect(iso(quarter.end)).to.equal('2024-06-30T22:00:00.000Z');
    const year = periodWindow('yearly', '2023-01-01', wednesday, 'UTC')!;
    expect(iso(year.start)).to.equal('2024-01-01T00:00:00.000Z');
    expect(iso(year.end)).to.equal('2025-01-01T00:00:00.000Z');
  });

  it('never starts before the start date; once is open-ended; per order has no window', () => {
    const month = periodWindow('monthly', '2024-05-10', new Date('2024-05-20T10:00:00Z'), 'UTC')!;
    expect(iso(month.start)).to.equal('2024-05-10T00:00:00.000Z');
    const once = periodWindow('once', '2024-02-01', new Date('2025-05-20T10:00:00Z'), 'UTC')!;
    expect(iso(once.start)).to.equal('2024-02-01T00:00:00.000Z');
    expect(once.end).to.equal(null);
    expect(periodWindow('per-order', '2024-02-01', new Date(), 'UTC')).to.equal(null);
  });

  it('today is the wall-clock date of the zone', () => {
    expect(zonedToday(new Date('2024-12-31T23:30:00Z'), BERLIN)).to.equal('2025-01-01');
    expect(zonedToday(new Date('2024-12-31T23:30:00Z'), 'America/New_York')).to.equal('2024-12-31');
  });
});
