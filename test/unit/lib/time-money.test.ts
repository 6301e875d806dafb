import { expect } from 'chai';
import { fromMinor } from '../../../src/lib/money.js';
import { fromDbTime } from '../../../src/lib/time.js';

/** What fromDbTime and fromMinor returned before their fast paths: the answers must not change. */
const viaDate = (value: string) => {
  const normalised = value.includes('T') ? value : value.replace(' ', 'T');
  return new Date(normalised.endsWith('Z') ? normalised : `${normalised}Z`).toISOString();
};
const viaToFixed = (minor: number | string, precision: number) =>
  Number((Number(minor) / 10 ** precision).toFixed(precision));

describe('fromDbTime and fromMinor (fast paths)', () => {
  it('reads stored times as Date did, including the ones Date rolls over or refuses', () => {
    for (let i = 0; i < 20000; i++) {
      const stored = new Date(Math.floor(Math.random() * 253402300799999))
        .toISOString()
        .replace('T', ' ')
        .replace('Z', '');
      expect(fromDbTime(stored)).to.equal(viaDate(stored));
    }
    for (const value of [
      '2026-02-30 00:00:00.000',
      '2024-02-29 10:00:00.000',
      '2023-02-29 10:00:00.000',
      '2100-02-29 00:00:00.000',
      '2026-01-01 24:00:00.000',
      '2026-12-31 23:59:59.999',
      '2026-01-01T00:00:00.000Z',
      '2026-01-01 00:00:00',
      '0999-01-01 00:00:00.000',
    ])
      expect(fromDbTime(value), value).to.equal(viaDate(value));
    expect(() => fromDbTime('2026-13-01 00:00:00.000')).to.throw(RangeError);
    expect(fromDbTime(null)).to.equal(null);
  });

  it('converts minor units as rounding with toFixed did', () => {
    // Mismatches are collected and asserted once: an expect per value made this one test take seconds.
    const mismatches: string[] = [];
    for (let precision = 0; precision <= 6; precision++) {
      for (let minor = -20000; minor <= 20000; minor++)
        if (!Object.is(fromMinor(minor, precision), viaToFixed(minor, precision)) && minor !== 0)
          mismatches.push(`${minor}/${precision}`);
      for (let i = 0; i < 20000; i++) {
        const minor = Math.floor((Math.random() * 2 - 1) * 10 ** Math.floor(Math.random() * 14));
        if (fromMinor(minor, precision) !== viaToFixed(minor, precision)) mismatches.push(`${minor}/${precision}`);
      }
    }
    expect(mismatches.slice(0, 10)).to.deep.equal([]);
    expect(fromMinor('12345', 2)).to.equal(123.45);
    expect(fromMinor(12.5, 2)).to.equal(viaToFixed(12.5, 2));
    expect(fromMinor(null)).to.equal(0);
  });
});
