import { Errors } from '../../lib/errors.js';

/** Kinds of offer positions: a product, a free-text position (a service, a freight line), a heading. */
export const POSITION_KINDS = ['product', 'text', 'heading'] as const;
export type PositionKind = (typeof POSITION_KINDS)[number];

/** What decides whether a position is priced, counted and ordered. */
export interface Position {
  kind: string;
  optional: boolean;
  selected: boolean;
}

/** Headings only structure the offer; an optional position counts once the customer ticked it. */
export function isOrdered(line: Position): boolean {
  return line.kind !== 'heading' && (!line.optional || line.selected);
}

const BP = 10_000n;

/**
 * The unit price the customer pays: the offered price less the line's discount, then less the
 * whole-offer discount, rounded half up to the minor unit once (BigInt: no float, no overflow).
 */
export function discountedUnitNet(baseUnitNet: number, lineDiscountBp: number, offerDiscountBp: number): number {
  const numerator = BigInt(baseUnitNet) * (BP - BigInt(lineDiscountBp)) * (BP - BigInt(offerDiscountBp));
  const divisor = BP * BP;
  return Number((numerator + divisor / 2n) / divisor);
}

/** A percentage at the edge (0 … 100, two decimals at most) in basis points. */
export function basisPointsOf(percent: number, pointer: string): number {
  const bp = Math.round(percent * 100);
  if (percent < 0 || percent > 100 || Math.abs(bp - percent * 100) > 1e-6)
    throw Errors.badRequest(
      'SUITE__OFFER_INVALID_DISCOUNT',
      'A discount is a percentage from 0 to 100 with at most two decimals.',
      { pointer },
    );
  return bp;
}

export const percentOf = (bp: number) => bp / 100;
