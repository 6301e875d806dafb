import { expect } from 'chai';
import {
  defaultRule,
  isAllowed,
  nearestAllowed,
  quantityRefusal,
  type QuantityRule,
} from '../../../../src/plugin/quantity-rule/rules.js';

const packs: QuantityRule = { ...defaultRule('p'), packSize: 12, minQuantity: 24, step: 12, maxQuantity: 120 };

describe('quantity rules (no database)', () => {
  it('a product without a rule takes any whole quantity from 1', () => {
    const rule = defaultRule('p');
    expect([1, 2, 999].every((q) => isAllowed(rule, q))).to.equal(true);
    expect([0, -1, 1.5, Number.NaN].some((q) => isAllowed(rule, q))).to.equal(false);
  });

  it('packs: from the minimum, in steps, up to the maximum', () => {
    expect([24, 36, 48, 120].every((q) => isAllowed(packs, q))).to.equal(true);
    expect([12, 30, 132].some((q) => isAllowed(packs, q))).to.equal(false);
  });

  it('names the allowed quantities next to a refused one', () => {
    expect(nearestAllowed(packs, 12)).to.deep.equal([24]);
    expect(nearestAllowed(packs, 30)).to.deep.equal([24, 36]);
    expect(nearestAllowed(packs, 500)).to.deep.equal([120]);
    expect(nearestAllowed({ ...packs, maxQuantity: 12 }, 12)).to.deep.equal([]);
  });

  it('the refusal says why in words and carries the rule for a quantity picker', () => {
    const error = quantityRefusal(packs, 30, 'Screws', '/items/0/quantity');
    expect(error.status).to.equal(400);
    expect(error.code).to.equal('SUITE__QUANTITY_NOT_ALLOWED');
    expect(error.message).to.contain('packs of 12').and.contain('allowed next to it: 24 or 36');
    expect(error.options.meta).to.include({ asked: 30, packSize: 12, minQuantity: 24, step: 12 });
  });
});
