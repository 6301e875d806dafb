/**
 * Money is stored and summed as integer minor units; the API edge speaks numbers with the
 * currency's precision. Floats only ever appear at that edge.
 */
export function toMinor(amount: number, precision = 2): number {
  return Math.round(amount * 10 ** precision);
}

export function fromMinor(minor: number | string | null | undefined, precision = 2): number {
  const value = Number(minor ?? 0);
  return Number((value / 10 ** precision).toFixed(precision));
}

/** An amount as mails and documents print it: the currency's precision and its ISO code, "290.30 EUR". */
export function moneyText(amount: number, precision: number, currencyIso: string): string {
  return `${amount.toFixed(precision)} ${currencyIso}`;
}

export const moneySchema = { type: 'number', minimum: 0, maximum: 1e12 } as const;
