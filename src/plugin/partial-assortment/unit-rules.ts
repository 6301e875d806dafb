/**
 * The partial-assortment rules an operator attaches to organisation units (decision 0028): read and
 * replaced through the Admin API. Who matches them is the company core's (company/units/rule-scope.ts).
 */
import type { HostRuntime } from '../../host/contract.js';
import { inTransaction, selectRows, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { nowDb } from '../../lib/time.js';
import { unitCompany } from '../company/units/directory.js';
import { UNIT_RULES } from '../company/units/repository.js';
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
  const rows = await selectRows<{ rule_id: string }>(host.db(UNIT_RULES).where({ unit_id: unitId }).select('rule_id'));
  return unitRulesView(
    unit,
    rows.map((row) => row.rule_id),
  );
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
    await trx(UNIT_RULES).where({ unit_id: unitId }).delete();
    if (ruleIds.length > 0)
      await trx(UNIT_RULES).insert(
        ruleIds.map((ruleId) => ({
          unit_id: unitId,
          rule_id: ruleId,
          customer_id: unit.customerId,
          created_at: nowDb(),
        })),
      );
    return unitRulesView(unit, ruleIds);
  });
}
