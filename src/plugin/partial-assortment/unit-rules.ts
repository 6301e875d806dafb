/**
 * The partial-assortment rules an operator attaches to organisation units (decision 0028): read and
 * replaced through the Admin API. Who matches them is the company core's (company/units/rule-scope.ts).
 */
import type { HostRuntime } from '../../contract/index.js';
import { inTransaction, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { replaceUnitRules, ruleIdsOfUnit, unitCompany } from '../company/index.js';
import { invalidReferences, problem, RULE_NOT_FOUND } from './service.js';

async function unitOrNotFound(executor: Executor, unitId: string): Promise<{ id: string; customerId: string }> {
  const unit = await unitCompany(executor, unitId);
  if (!unit) throw Errors.notFound('Organisation unit', unitId);
  return { id: unitId, customerId: unit.customerId };
}

function unitRulesView(unit: { id: string; customerId: string }, ruleIds: string[]) {
  return {
    data: {
      id: unit.id,
      type: 'b2b_unit_partial_assortment_rules' as const,
      attributes: { customerId: unit.customerId, ruleIds: [...ruleIds].sort() },
    },
  };
}

export async function readUnitRules(host: HostRuntime, unitId: string) {
  const unit = await unitOrNotFound(host.db, unitId);
  return unitRulesView(unit, await ruleIdsOfUnit(host.db, unitId));
}

/** Replaces a unit's rules; every rule must exist (a 400 per unknown one, nothing written). */
export async function setUnitRules(host: HostRuntime, unitId: string, ruleIds: string[]) {
  return inTransaction(host.db, async (trx) => {
    const unit = await unitOrNotFound(trx, unitId);
    const problems = [];
    for (const [index, ruleId] of ruleIds.entries())
      if (!(await host.rules.exists(trx, ruleId)))
        problems.push(problem(RULE_NOT_FOUND, `There is no rule with id "${ruleId}".`, `/ruleIds/${index}`));
    if (problems.length > 0) throw invalidReferences(problems);
    await replaceUnitRules(trx, unit.customerId, unitId, ruleIds);
    return unitRulesView(unit, ruleIds);
  });
}
