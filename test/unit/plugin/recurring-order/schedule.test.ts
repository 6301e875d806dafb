import { expect } from 'chai';
import {
  datesBetween,
  firstDateFrom,
  isCalendarDate,
  nthDate,
  type Schedule,
} from '../../../../src/plugin/recurring-order/schedule.js';

const schedule = (over: Partial<Schedule>): Schedule => ({
  unit: 'week',
  count: 1,
  startDate: '2026-01-05',
  endDate: null,
  ...over,
});

describe('recurring orders: the schedule (no database)', () => {
  it('a monthly order from the 31st falls on the last day of shorter months and back on the 31st', () => {
    const monthly = schedule({ unit: 'month', startDate: '2026-01-31' });
    expect([0, 1, 2, 3].map((n) => nthDate(monthly, n))).to.deep.equal([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
    expect(nthDate(schedule({ unit: 'month', startDate: '2028-01-31' }), 1)).to.equal('2028-02-29');
  });

  it('every N weeks and days, across the turn of the year', () => {
    expect(nthDate(schedule({ unit: 'week', count: 2, startDate: '2026-12-21' }), 1)).to.equal('2027-01-04');
    expect(nthDate(schedule({ unit: 'day', count: 3, startDate: '2026-12-30' }), 1)).to.equal('2027-01-02');
  });

  it('the first date on or after a day, or strictly after it', () => {
    const weekly = schedule({});
    expect(firstDateFrom(weekly, '2026-01-05')).to.equal('2026-01-05');
    expect(firstDateFrom(weekly, '2026-01-05', true)).to.equal('2026-01-12');
    expect(firstDateFrom(weekly, '2026-01-06')).to.equal('2026-01-12');
    expect(firstDateFrom(weekly, '2025-12-01')).to.equal('2026-01-05');
  });

  it('no date past the end date', () => {
    const ending = schedule({ endDate: '2026-01-20' });
    expect(firstDateFrom(ending, '2026-01-13')).to.equal('2026-01-19');
    expect(firstDateFrom(ending, '2026-01-20')).to.equal(null);
    expect(datesBetween(ending, '2026-01-05', '2026-12-31')).to.deep.equal(['2026-01-05', '2026-01-12', '2026-01-19']);
  });

  it('missed dates between two days, inclusive, and a year of daily dates in one step', () => {
    const daily = schedule({ unit: 'day', startDate: '2026-01-01' });
    expect(datesBetween(daily, '2026-01-01', '2026-01-03')).to.deep.equal(['2026-01-01', '2026-01-02', '2026-01-03']);
    expect(datesBetween(daily, '2026-01-01', '2026-12-31')).to.have.length(365);
  });

  it('calendar dates only', () => {
    expect(isCalendarDate('2026-02-28')).to.equal(true);
    expect(isCalendarDate('2026-02-29')).to.equal(false);
    expect(isCalendarDate('2026-2-28')).to.equal(false);
  });
});
