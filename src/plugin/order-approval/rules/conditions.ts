import type { RuleConditions } from './model.js';

/**
 * What a rule's conditions ask about an order and its buyer. The checkout reads each fact from the
 * database once and only when a condition asks (evaluate.ts); the unit tests give them directly.
 */
export interface RuleFacts {
  readonly currencyIso: string;
  /** the order's net total, in minor units */
  netTotal(): number;
  productIds(): string[];
  role(): Promise<{ roleId: string | null; requiresApproval: boolean }>;
  /** the buyer's units and every unit above them */
  units(): Promise<string[]>;
  categoryIds(): Promise<Set<string>>;
  costCenterId(): Promise<string | null>;
  /** the first budget that allows approval and that the order exceeds, or null */
  exceededBudget(): Promise<unknown>;
  firstOrder(): Promise<boolean>;
}

/** Whether every condition the rule gives holds (a rule with none matches every order). */
export async function conditionsHold(facts: RuleFacts, c: RuleConditions): Promise<boolean> {
  if (c.orderTotal) {
    if (c.orderTotal.currency !== facts.currencyIso) return false;
    const total = facts.netTotal();
    if (c.orderTotal.above !== undefined && !(total > c.orderTotal.above)) return false;
    if (c.orderTotal.below !== undefined && !(total < c.orderTotal.below)) return false;
  }
  if (c.productIds?.length && !facts.productIds().some((id) => c.productIds!.includes(id))) return false;
  if (c.roleIds?.length && !c.roleIds.includes((await facts.role()).roleId ?? '')) return false;
  if (c.roleRequiresApproval && !(await facts.role()).requiresApproval) return false;
  if (c.unitIds?.length) {
    const scope = await facts.units();
    if (!c.unitIds.some((id) => scope.includes(id))) return false;
  }
  if (c.categoryIds?.length) {
    const categories = await facts.categoryIds();
    if (!c.categoryIds.some((id) => categories.has(id))) return false;
  }
  if (c.costCenterIds?.length && !c.costCenterIds.includes((await facts.costCenterId()) ?? '')) return false;
  if (c.budgetExceeded && !(await facts.exceededBudget())) return false;
  if (c.firstOrder && !(await facts.firstOrder())) return false;
  return true;
}
