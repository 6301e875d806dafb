import { CART_LIMITS } from '../../contract/index.js';
import { AppError, Errors } from '../../lib/errors.js';

/**
 * A product's quantity rule. Quantities count pieces (the unit stock and prices count); a product
 * sold in packs of `packSize` takes multiples of it, so `minQuantity`, `step` and `maxQuantity` are
 * multiples of the pack size (checked when an operator sets the rule).
 */
export interface QuantityRule {
  productId: string;
  minQuantity: number;
  maxQuantity: number | null;
  step: number;
  packSize: number;
  /** 'pack': the price is quoted per pack (packSize × the piece price); the line's unit price stays per piece. */
  priceUnit: 'piece' | 'pack';
}

export const QUANTITY_NOT_ALLOWED = 'SUITE__QUANTITY_NOT_ALLOWED';

/** The rule of a product without one of its own: any quantity from 1. */
export function defaultRule(productId: string): QuantityRule {
  return { productId, minQuantity: 1, maxQuantity: null, step: 1, packSize: 1, priceUnit: 'piece' };
}

/** The highest quantity the rule admits (its maximum, else the cart's line limit), on the rule's grid. */
function highestAllowed(rule: QuantityRule): number | null {
  const cap = Math.min(rule.maxQuantity ?? CART_LIMITS.maxLineQuantity, CART_LIMITS.maxLineQuantity);
  if (cap < rule.minQuantity) return null;
  return rule.minQuantity + Math.floor((cap - rule.minQuantity) / rule.step) * rule.step;
}

export function isAllowed(rule: QuantityRule, quantity: number): boolean {
  const highest = highestAllowed(rule);
  return (
    Number.isSafeInteger(quantity) &&
    highest !== null &&
    quantity >= rule.minQuantity &&
    quantity <= highest &&
    (quantity - rule.minQuantity) % rule.step === 0
  );
}

/** The allowed quantities next to `quantity`: the nearest below and the nearest above (either may be missing). */
export function nearestAllowed(rule: QuantityRule, quantity: number): number[] {
  const highest = highestAllowed(rule);
  if (highest === null) return [];
  if (quantity < rule.minQuantity) return [rule.minQuantity];
  if (quantity > highest) return [highest];
  const below = rule.minQuantity + Math.floor((quantity - rule.minQuantity) / rule.step) * rule.step;
  const above = below + rule.step;
  return above <= highest ? [below, above] : [below];
}

function ruleText(rule: QuantityRule): string {
  const parts = [];
  if (rule.packSize > 1) parts.push(`is sold in packs of ${rule.packSize}`);
  parts.push(`takes ${rule.minQuantity}${rule.maxQuantity !== null ? ` to ${rule.maxQuantity}` : ' or more'}`);
  if (rule.step > 1) parts.push(`in steps of ${rule.step}`);
  return parts.join(', ');
}

/**
 * The refusal of a quantity the rule does not admit: 400 SUITE__QUANTITY_NOT_ALLOWED with the asked
 * quantity and the allowed ones next to it in `meta` (and the rule, so a client can build its picker).
 */
export function quantityRefusal(rule: QuantityRule, quantity: number, label: string, pointer?: string): AppError {
  const allowed = nearestAllowed(rule, quantity);
  const suggestion = allowed.length ? `; allowed next to it: ${allowed.join(' or ')}` : '';
  return Errors.badRequest(
    QUANTITY_NOT_ALLOWED,
    `"${label}" ${ruleText(rule)}: ${quantity} is not allowed${suggestion}.`,
    {
      ...(pointer ? { pointer } : {}),
      meta: {
        productId: rule.productId,
        asked: quantity,
        allowed,
        minQuantity: rule.minQuantity,
        maxQuantity: rule.maxQuantity,
        step: rule.step,
        packSize: rule.packSize,
      },
    },
  );
}
