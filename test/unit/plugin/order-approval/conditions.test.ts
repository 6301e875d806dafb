import { expect } from 'chai';
import { conditionsHold, type RuleFacts } from '../../../../src/plugin/order-approval/rules/conditions.js';
import { DEFAULT_RULES, reasonOf } from '../../../../src/plugin/order-approval/rules/model.js';

/** An order's facts given directly; `asked` records which of the costly facts a rule read. */
function facts(
  over: Partial<{
    currencyIso: string;
    netTotal: number;
    productIds: string[];
    roleId: string | null;
    requiresApproval: boolean;
    units: string[];
    categoryIds: string[];
    costCenterId: string | null;
    exceededBudget: object | null;
    firstOrder: boolean;
  }> = {},
): RuleFacts & { asked: string[] } {
  const asked: string[] = [];
  const read = <T>(name: string, value: T) => {
    asked.push(name);
    return Promise.resolve(value);
  };
  return {
    asked,
    currencyIso: over.currencyIso ?? 'EUR',
    netTotal: () => over.netTotal ?? 10_000,
    productIds: () => over.productIds ?? ['p1'],
    role: () => read('role', { roleId: over.roleId ?? null, requiresApproval: over.requiresApproval ?? false }),
    units: () => read('units', over.units ?? []),
    categoryIds: () => read('categories', new Set(over.categoryIds ?? [])),
    costCenterId: () => read('costCenter', over.costCenterId ?? null),
    exceededBudget: () => read('budget', over.exceededBudget ?? null),
    firstOrder: () => read('firstOrder', over.firstOrder ?? false),
  };
}

describe('approval rules: conditions (no database)', () => {
  it('a rule without conditions matches every order and reads nothing', async () => {
    const order = facts();
    expect(await conditionsHold(order, {})).to.equal(true);
    expect(order.asked).to.deep.equal([]);
  });

  it('order total: strictly above and below, in the rule currency only (minor units)', async () => {
    const rule = { orderTotal: { currency: 'EUR', above: 50_000, below: 100_000 } };
    expect(await conditionsHold(facts({ netTotal: 50_000 }), rule)).to.equal(false);
    expect(await conditionsHold(facts({ netTotal: 50_001 }), rule)).to.equal(true);
    expect(await conditionsHold(facts({ netTotal: 99_999 }), rule)).to.equal(true);
    expect(await conditionsHold(facts({ netTotal: 100_000 }), rule)).to.equal(false);
    expect(await conditionsHold(facts({ netTotal: 60_000, currencyIso: 'CHF' }), rule)).to.equal(false);
  });

  it('all given conditions must hold; the first that fails stops the reading', async () => {
    const order = facts({ netTotal: 100, roleId: 'buyer' });
    const rule = { orderTotal: { currency: 'EUR', above: 1_000 }, roleIds: ['buyer'], firstOrder: true };
    expect(await conditionsHold(order, rule)).to.equal(false);
    expect(order.asked).to.deep.equal([]);
  });

  it('products, categories, units, cost centers: any one of the listed ones', async () => {
    expect(await conditionsHold(facts({ productIds: ['p1', 'p2'] }), { productIds: ['p2', 'p9'] })).to.equal(true);
    expect(await conditionsHold(facts({ productIds: ['p1'] }), { productIds: ['p9'] })).to.equal(false);
    expect(await conditionsHold(facts({ categoryIds: ['c1'] }), { categoryIds: ['c1'] })).to.equal(true);
    expect(await conditionsHold(facts({ units: ['u-top', 'u-sales'] }), { unitIds: ['u-sales'] })).to.equal(true);
    expect(await conditionsHold(facts({ units: [] }), { unitIds: ['u-sales'] })).to.equal(false);
    expect(await conditionsHold(facts({ costCenterId: null }), { costCenterIds: ['cc1'] })).to.equal(false);
    expect(await conditionsHold(facts({ costCenterId: 'cc1' }), { costCenterIds: ['cc1'] })).to.equal(true);
  });

  it('the role flag, an exceeded budget and the first order', async () => {
    expect(await conditionsHold(facts({ requiresApproval: true }), { roleRequiresApproval: true })).to.equal(true);
    expect(await conditionsHold(facts(), { roleRequiresApproval: true })).to.equal(false);
    expect(await conditionsHold(facts({ exceededBudget: { id: 'b' } }), { budgetExceeded: true })).to.equal(true);
    expect(await conditionsHold(facts(), { budgetExceeded: true })).to.equal(false);
    expect(await conditionsHold(facts({ firstOrder: true }), { firstOrder: true })).to.equal(true);
  });

  it('the three rules every company starts with keep the old triggers as their reasons', () => {
    expect(DEFAULT_RULES.map((r) => [r.appliesTo, reasonOf(r)])).to.deep.equal([
      ['orders', 'budget'],
      ['orders', 'role'],
      ['requests', 'requested'],
    ]);
    expect(reasonOf({ origin: null })).to.equal('rule');
  });
});
