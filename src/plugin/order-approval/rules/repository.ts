import { searchByCriteria, type Criteria, type CriteriaSpec } from '../../../lib/criteria.js';
import {
  isDuplicateKeyError,
  readBool,
  readInt,
  readJson,
  recoverable,
  selectRow,
  selectRows,
  writeJson,
  type Executor,
} from '../../../lib/db.js';
import { newId } from '../../../lib/ids.js';
import { nowDb } from '../../../lib/time.js';
import type { ApprovalMode } from '../repository.js';
import {
  DEFAULT_RULES,
  SETTINGS_LEVEL,
  type ApprovalRule,
  type AppliesTo,
  type RuleConditions,
  type RuleLevel,
  type RuleOrigin,
} from './model.js';

export const RULES = 'suite_approval_rules';
export const RULE_SETS = 'suite_approval_rule_sets';
export const APPROVAL_LEVELS = 'suite_order_approval_levels';

interface RuleDbRow {
  id: string;
  customer_id: string;
  name: string;
  description: string | null;
  priority: unknown;
  active: unknown;
  applies_to: AppliesTo;
  conditions: unknown;
  levels: unknown;
  origin: RuleOrigin | null;
  escalate_after_hours: unknown;
  created_at: string;
  updated_at: string | null;
}

function toRule(row: RuleDbRow): ApprovalRule {
  return {
    id: row.id,
    customerId: row.customer_id,
    name: row.name,
    description: row.description ?? null,
    priority: readInt(row.priority),
    active: readBool(row.active),
    appliesTo: row.applies_to,
    conditions: readJson<RuleConditions>(row.conditions, {}),
    levels: readJson<RuleLevel[]>(row.levels, []),
    origin: row.origin ?? null,
    escalateAfterHours:
      row.escalate_after_hours === null || row.escalate_after_hours === undefined
        ? null
        : readInt(row.escalate_after_hours),
    createdAt: row.created_at,
    updatedAt: row.updated_at ?? null,
  };
}

export const RULE_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: `${RULES}.id`, type: 'id' },
    name: { column: `${RULES}.name`, type: 'string' },
    priority: { column: `${RULES}.priority`, type: 'number' },
    active: { column: `${RULES}.active`, type: 'boolean' },
    appliesTo: { column: `${RULES}.applies_to`, type: 'string' },
    createdAt: { column: `${RULES}.created_at`, type: 'date' },
  },
  termColumns: [`${RULES}.name`],
  defaultSort: [
    { column: `${RULES}.priority`, order: 'asc' },
    { column: `${RULES}.created_at`, order: 'asc' },
    { column: `${RULES}.id`, order: 'asc' },
  ],
  idColumn: `${RULES}.id`,
};

async function hasRuleSet(executor: Executor, customerId: string): Promise<boolean> {
  return !!(await selectRow(executor(RULE_SETS).where({ customer_id: customerId }).first('customer_id')));
}

/** The default rules as a company that never changed its rules has them (not stored). */
function defaultRules(customerId: string): ApprovalRule[] {
  return DEFAULT_RULES.map((rule) => ({
    ...rule,
    id: `default-${rule.origin}`,
    customerId,
    description: null,
    active: true,
    levels: [SETTINGS_LEVEL],
    escalateAfterHours: null,
    createdAt: '',
    updatedAt: null,
  }));
}

/** The company's active rules by priority: its rows, or the default rules while it has none of its own. */
export async function activeRules(executor: Executor, customerId: string): Promise<ApprovalRule[]> {
  if (!(await hasRuleSet(executor, customerId))) return defaultRules(customerId);
  const rows = await selectRows<RuleDbRow>(
    executor(RULES)
      .where({ customer_id: customerId, active: true })
      .orderBy('priority')
      .orderBy('created_at')
      .orderBy('id'),
  );
  return rows.map(toRule);
}

/**
 * Writes the default rules as rows the first time a company's rules are read or changed through the
 * API (migration 021 did so for the companies that existed then); a concurrent first time writes once.
 */
export async function materialiseRules(executor: Executor, customerId: string): Promise<void> {
  if (await hasRuleSet(executor, customerId)) return;
  try {
    await recoverable(executor, async (inner) => {
      const now = nowDb();
      await inner(RULE_SETS).insert({ customer_id: customerId, created_at: now });
      for (const rule of defaultRules(customerId)) await insertRuleRow(inner, customerId, { ...rule, createdAt: now });
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
}

export type RuleInput = Pick<
  ApprovalRule,
  'name' | 'description' | 'priority' | 'active' | 'appliesTo' | 'conditions' | 'levels' | 'escalateAfterHours'
> & { origin?: RuleOrigin | null; createdAt?: string };

async function insertRuleRow(executor: Executor, customerId: string, rule: RuleInput): Promise<string> {
  const id = newId();
  await executor(RULES).insert({
    id,
    customer_id: customerId,
    name: rule.name,
    description: rule.description,
    priority: rule.priority,
    active: rule.active,
    applies_to: rule.appliesTo,
    conditions: writeJson(rule.conditions),
    levels: writeJson(rule.levels),
    origin: rule.origin ?? null,
    escalate_after_hours: rule.escalateAfterHours,
    created_at: rule.createdAt || nowDb(),
    updated_at: null,
  });
  return id;
}

export const insertRule = (executor: Executor, customerId: string, rule: RuleInput) =>
  insertRuleRow(executor, customerId, rule);

export async function findRule(executor: Executor, customerId: string, id: string): Promise<ApprovalRule | null> {
  const row = await selectRow<RuleDbRow>(executor(RULES).where({ id, customer_id: customerId }).first());
  return row ? toRule(row) : null;
}

/** Answers the rows changed (0: not the company's rule). */
export async function updateRule(executor: Executor, customerId: string, id: string, rule: RuleInput): Promise<number> {
  return executor(RULES)
    .where({ id, customer_id: customerId })
    .update({
      name: rule.name,
      description: rule.description,
      priority: rule.priority,
      active: rule.active,
      applies_to: rule.appliesTo,
      conditions: writeJson(rule.conditions),
      levels: writeJson(rule.levels),
      escalate_after_hours: rule.escalateAfterHours,
      updated_at: nowDb(),
    });
}

export async function deleteRule(executor: Executor, customerId: string, id: string): Promise<number> {
  return executor(RULES).where({ id, customer_id: customerId }).delete();
}

export async function searchRules(
  executor: Executor,
  customerId: string,
  criteria: Criteria,
): Promise<{ total: number; rows: ApprovalRule[] }> {
  const page = await searchByCriteria<RuleDbRow>(
    executor(RULES).where(`${RULES}.customer_id`, customerId),
    criteria,
    RULE_CRITERIA,
    (qb) => qb.select(`${RULES}.*`),
  );
  return { total: page.total, rows: page.rows.map(toRule) };
}

export async function deleteCustomersRules(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(RULES).whereIn('customer_id', customerIds).delete();
  await executor(RULE_SETS).whereIn('customer_id', customerIds).delete();
}

// ---- an approval's chain ------------------------------------------------------------------------

/** One level of an approval's chain, resolved when the approval was created. */
export interface ApprovalLevel {
  level: number;
  name: string;
  type: string;
  mode: ApprovalMode;
  nValue: number;
  approverEmployeeIds: string[];
  startedAt: string | null;
  approvedAt: string | null;
  escalatedAt: string | null;
}

interface LevelDbRow {
  level: unknown;
  name: string;
  type: string;
  mode: ApprovalMode;
  n_value: unknown;
  approver_employee_ids: unknown;
  started_at: string | null;
  approved_at: string | null;
  escalated_at: string | null;
}

export async function approvalLevels(executor: Executor, approvalId: string): Promise<ApprovalLevel[]> {
  const rows = await selectRows<LevelDbRow>(
    executor(APPROVAL_LEVELS).where({ approval_id: approvalId }).orderBy('level'),
  );
  return rows.map((r) => ({
    level: readInt(r.level),
    name: r.name,
    type: r.type,
    mode: r.mode,
    nValue: readInt(r.n_value),
    approverEmployeeIds: readJson<string[]>(r.approver_employee_ids, []),
    startedAt: r.started_at ?? null,
    approvedAt: r.approved_at ?? null,
    escalatedAt: r.escalated_at ?? null,
  }));
}

export async function updateApprovalLevel(
  executor: Executor,
  approvalId: string,
  level: number,
  columns: Record<string, unknown>,
): Promise<number> {
  return executor(APPROVAL_LEVELS).where({ approval_id: approvalId, level }).update(columns);
}

/** Moves a pending approval from level `from` to level `to` (whose row says who decides it now); 1 when it moved. */
export async function moveToLevel(
  executor: Executor,
  approvalId: string,
  round: number,
  from: number,
  to: number,
): Promise<number> {
  return executor('suite_order_approvals')
    .where({ id: approvalId, status: 'pending', decision_round: round, current_level: from })
    .update({ current_level: to, updated_at: nowDb() });
}

/** The approval is at level 1 again (a new round). */
export async function backToFirstLevel(executor: Executor, approvalId: string): Promise<void> {
  await executor('suite_order_approvals').where({ id: approvalId }).update({ current_level: 1, updated_at: nowDb() });
}

/**
 * Hands a pending approval's current level to the company admins (`only-admins`, one decides): touches the
 * approval while it is pending at that level (its version moves), then claims the level's escalation (once
 * per level). True when escalated. Call it under the approval's row lock.
 */
export async function escalateToAdmins(executor: Executor, approvalId: string, level: number): Promise<boolean> {
  const now = nowDb();
  const touched = await executor('suite_order_approvals')
    .where({ id: approvalId, status: 'pending', current_level: level })
    .update({ updated_at: now });
  if (touched !== 1) return false;
  const claimed = await executor(APPROVAL_LEVELS)
    .where({ approval_id: approvalId, level })
    .whereNull('escalated_at')
    .update({ escalated_at: now, mode: 'only-admins', n_value: 1, approver_employee_ids: writeJson([]) });
  return claimed === 1;
}

/** Pending approvals at a level of a rule that escalates, whose level started before `cutoff` and is not escalated yet. */
export async function levelsToEscalate(
  executor: Executor,
  limit: number,
): Promise<
  Array<{ approvalId: string; customerId: string; level: number; startedAt: string; escalateAfterHours: number }>
> {
  const rows = await selectRows<{
    id: string;
    customer_id: string;
    level: unknown;
    started_at: string;
    escalate_after_hours: unknown;
  }>(
    executor('suite_order_approvals as a')
      .join(`${APPROVAL_LEVELS} as l`, (j) => j.on('l.approval_id', 'a.id').andOn('l.level', 'a.current_level'))
      .join(`${RULES} as r`, 'r.id', 'a.rule_id')
      .where('a.status', 'pending')
      .whereNull('l.escalated_at')
      .whereNotNull('l.started_at')
      .whereNotNull('r.escalate_after_hours')
      .orderBy('l.started_at')
      .limit(limit)
      .select('a.id', 'a.customer_id', 'l.level', 'l.started_at', 'r.escalate_after_hours'),
  );
  return rows.map((r) => ({
    approvalId: r.id,
    customerId: r.customer_id,
    level: readInt(r.level),
    startedAt: r.started_at,
    escalateAfterHours: readInt(r.escalate_after_hours),
  }));
}

/** The tables of other add-ons whose rows a rule may name (roles, cost centers), each with a customer_id. */
export type RuleReferenceTable = 'b2b_employee_roles' | 'suite_cost_centers';

/** Those of `ids` that are rows of the customer in `table`. */
export async function idsOfCustomer(
  executor: Executor,
  table: RuleReferenceTable,
  customerId: string,
  ids: string[],
): Promise<string[]> {
  return selectRows<string>(executor(table).where({ customer_id: customerId }).whereIn('id', ids).pluck('id'));
}

/** The name of the rule an approval was asked under (null: none, or no such approval). */
export async function ruleNameOfApproval(executor: Executor, approvalId: string): Promise<string | null> {
  const row = await selectRow<{ rule_name: string | null }>(
    executor('suite_order_approvals').where({ id: approvalId }).first('rule_name'),
  );
  return row?.rule_name ?? null;
}

/** The employees linked to the customer with the role (the employee add-on's links). */
export async function employeeIdsWithRole(executor: Executor, customerId: string, roleId: string): Promise<string[]> {
  return selectRows<string>(
    executor('b2b_employee_customers').where({ customer_id: customerId, role_id: roleId }).pluck('employee_id'),
  );
}

/** The employee's role for the customer and whether it requires approval (the employee add-on's links and roles). */
export async function roleOfEmployee(
  executor: Executor,
  customerId: string,
  employeeId: string,
): Promise<{ roleId: string | null; requiresApproval: boolean }> {
  const row = await selectRow<{ role_id: string | null; requires_approval: unknown }>(
    executor('b2b_employee_customers as ec')
      .leftJoin('b2b_employee_roles as r', 'r.id', 'ec.role_id')
      .where({ 'ec.customer_id': customerId, 'ec.employee_id': employeeId })
      .first('ec.role_id', 'r.requires_approval'),
  );
  return { roleId: row?.role_id ?? null, requiresApproval: readBool(row?.requires_approval) };
}

/** The id an approval keeps of its rule: none for a default rule that is not a row yet. */
export function storedRuleId(rule: Pick<ApprovalRule, 'id'>): string | null {
  return rule.id.startsWith('default-') ? null : rule.id;
}
