import { Errors } from './errors.js';

/**
 * Money is stored and summed as integer minor units; the API edge speaks numbers with the
 * currency's precision. Floats only ever appear at that edge.
 */
export function toMinor(amount: number, precision = 2): number {
  return Math.round(amount * 10 ** precision);
}

/**
 * An amount from the API edge in minor units, refused (400 `SUITE__INVALID_AMOUNT` at `pointer`)
 * when it has more decimals than `precision`: money is never rounded away silently (budgets,
 * offers, credit lines, approval rules, customer prices; decision 0046).
 */
export function exactMinor(amount: number, precision: number, pointer: string): number {
  const minor = toMinor(amount, precision);
  if (Math.abs(minor - amount * 10 ** precision) > 1e-6)
    throw Errors.badRequest('SUITE__INVALID_AMOUNT', `Amounts have at most ${precision} decimal places.`, { pointer });
  return minor;
}

const POWERS_OF_TEN = [1, 10, 100, 1000, 10000];

export function fromMinor(minor: number | string | null | undefined, precision = 2): number {
  const value = Number(minor ?? 0);
  // An integer up to 10^12 minor units divided by 10^0…10^4 is the double nearest the decimal
  // already (its spacing is below 10^-precision), which is what rounding with toFixed returns.
  if (
    Number.isInteger(value) &&
    value !== 0 &&
    Math.abs(value) <= 1e12 &&
    precision >= 0 &&
    precision <= 4 &&
    Number.isInteger(precision)
  )
    return value / POWERS_OF_TEN[precision]!;
  return Number((value / 10 ** precision).toFixed(precision));
}

/** An amount as mails and documents print it: the currency's precision and its ISO code, "290.30 EUR". */
export function moneyText(amount: number, precision: number, currencyIso: string): string {
  return `${amount.toFixed(precision)} ${currencyIso}`;
}

export const moneySchema = { type: 'number', minimum: 0, maximum: 1e12 } as const;
