import type { ContextEnricher } from '../../../contract/index.js';
import type { Executor } from '../../../lib/db.js';
import { unitTree, unitsOfEmployee, withAncestors } from './directory.js';
import { attachedUnitRules } from './repository.js';

/**
 * The rules an employee matches through their organisation units: those attached to any unit in
 * their unit scope (their units and every unit above). One indexed read of the company's attached
 * rules; the tree only when there are some.
 */
export async function unitRuleIdsOf(executor: Executor, customerId: string, employeeId: string): Promise<string[]> {
  const attached = await attachedUnitRules(executor, customerId);
  if (attached.length === 0) return [];
  const own = await unitsOfEmployee(executor, customerId, employeeId);
  if (own.length === 0) return [];
  const scope = new Set(withAncestors(await unitTree(executor, customerId), own));
  return [...new Set(attached.filter((row) => scope.has(row.unit_id)).map((row) => row.rule_id))];
}

/**
 * Adds the unit rules to an employee's context: `ctx.ruleIds()` answers the host's rules and those
 * of the employee's units, so everything keyed on the rule set (the visibility filter's caches, the
 * host's listing totals) sees them. Read once, on the first call of the request, like the host's own.
 */
export const unitRuleEnricher: ContextEnricher = (executor, ctx) => {
  const customerId = ctx.customer?.id;
  const employeeId = ctx.actor.type === 'employee' ? ctx.actor.id : null;
  if (!customerId || !employeeId) return Promise.resolve();
  const hostRules = ctx.ruleIds.bind(ctx);
  let merged: Promise<string[]> | null = null;
  ctx.ruleIds = () =>
    (merged ??= Promise.all([hostRules(), unitRuleIdsOf(executor, customerId, employeeId)]).then(([own, units]) =>
      units.length === 0 ? own : [...new Set([...own, ...units])],
    ));
  return Promise.resolve();
};
