import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import type { Criteria } from '../../../lib/criteria.js';
import { inTransaction, type Executor } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { exactMinor, fromMinor } from '../../../lib/money.js';
import { criteriaList } from '../../../lib/store-list.js';
import { fromDbTime } from '../../../lib/time.js';
import { findEmployees, unitTree } from '../../company/index.js';
import { declaredCustomer } from '../../declared.js';
import { decisionsOf, type ApprovalRow } from '../repository.js';
import type { ApprovalRule, AppliesTo, RuleConditions, RuleLevel } from './model.js';
import {
  approvalLevels,
  deleteRule,
  findRule,
  idsOfCustomer,
  insertRule,
  materialiseRules,
  searchRules,
  ruleNameOfApproval,
  updateRule,
  type RuleInput,
  type RuleReferenceTable,
} from './repository.js';

/** A rule as the API writes it: amounts as numbers with the currency's precision. */
export interface RuleBody {
  name?: string;
  description?: string | null;
  priority?: number;
  active?: boolean;
  appliesTo?: AppliesTo;
  conditions?: Omit<RuleConditions, 'orderTotal'> & {
    orderTotal?: { currency: string; above?: number; below?: number };
  };
  levels?: Array<Omit<RuleLevel, 'name' | 'required'> & { name?: string; required?: number }>;
  escalateAfterHours?: number | null;
}

export function ruleView(rule: ApprovalRule, precision: number) {
  const { orderTotal, ...rest } = rule.conditions;
  const conditions: Record<string, unknown> = { ...rest };
  if (orderTotal)
    conditions.orderTotal = {
      currency: orderTotal.currency,
      ...(orderTotal.above !== undefined ? { above: fromMinor(orderTotal.above, precision) } : {}),
      ...(orderTotal.below !== undefined ? { below: fromMinor(orderTotal.below, precision) } : {}),
    };
  return {
    id: rule.id,
    name: rule.name,
    description: rule.description,
    priority: rule.priority,
    active: rule.active,
    appliesTo: rule.appliesTo,
    conditions,
    levels: rule.levels,
    origin: rule.origin,
    escalateAfterHours: rule.escalateAfterHours,
    createdAt: fromDbTime(rule.createdAt)!,
    updatedAt: fromDbTime(rule.updatedAt),
  };
}

const invalid = (pointer: string, detail: string) =>
  Errors.badRequest('SUITE__APPROVAL_RULE_INVALID', detail, { pointer });
const unknown = (pointer: string, what: string) =>
  Errors.badRequest('SUITE__APPROVAL_RULE_UNKNOWN_REFERENCE', `The ${what} does not belong to your company.`, {
    pointer,
  });

async function assertOwned(
  executor: Executor,
  table: RuleReferenceTable,
  customerId: string,
  ids: string[] | undefined,
  pointer: string,
  what: string,
): Promise<void> {
  if (!ids?.length) return;
  const found = new Set(await idsOfCustomer(executor, table, customerId, ids));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) throw unknown(`${pointer}/${missing}`, what);
}

/** The stored form of a rule body (amounts in minor units), after checking what the schema cannot: references and limits. */
async function toRuleInput(
  executor: Executor,
  customerId: string,
  body: Required<RuleBody>,
  precision: number,
): Promise<RuleInput> {
  const { orderTotal, ...rest } = body.conditions;
  const conditions: RuleConditions = { ...rest };
  if (orderTotal) {
    const pointer = '/conditions/orderTotal';
    const above =
      orderTotal.above === undefined ? undefined : exactMinor(orderTotal.above, precision, `${pointer}/above`);
    const below =
      orderTotal.below === undefined ? undefined : exactMinor(orderTotal.below, precision, `${pointer}/below`);
    if (above !== undefined && below !== undefined && above >= below)
      throw invalid('/conditions/orderTotal', 'The lower limit ("above") must be less than the upper one ("below").');
    conditions.orderTotal = {
      currency: orderTotal.currency,
      ...(above !== undefined ? { above } : {}),
      ...(below !== undefined ? { below } : {}),
    };
  }
  await assertOwned(executor, 'b2b_employee_roles', customerId, conditions.roleIds, '/conditions/roleIds', 'role');
  await assertOwned(
    executor,
    'suite_cost_centers',
    customerId,
    conditions.costCenterIds,
    '/conditions/costCenterIds',
    'cost center',
  );
  if (conditions.unitIds?.length) {
    const units = new Set((await unitTree(executor, customerId)).map((u) => u.id));
    const missing = conditions.unitIds.findIndex((id) => !units.has(id));
    if (missing >= 0) throw unknown(`/conditions/unitIds/${missing}`, 'organisation unit');
  }
  const levels: RuleLevel[] = [];
  for (const [i, level] of body.levels.entries()) {
    const pointer = `/levels/${i}`;
    const required = level.required ?? 1;
    const stored: RuleLevel = { name: level.name?.trim() || `Level ${i + 1}`, type: level.type, required };
    if (level.type === 'employees') {
      if (!level.employeeIds?.length)
        throw invalid(`${pointer}/employeeIds`, 'A level of named employees needs employeeIds.');
      const found = new Set((await findEmployees(executor, customerId, level.employeeIds)).map((e) => e.id));
      const missing = level.employeeIds.findIndex((id) => !found.has(id));
      if (missing >= 0) throw unknown(`${pointer}/employeeIds/${missing}`, 'employee');
      if (required > level.employeeIds.length)
        throw invalid(
          `${pointer}/required`,
          `The level names ${level.employeeIds.length} employees; ${required} of them cannot approve.`,
        );
      stored.employeeIds = level.employeeIds;
    } else if (level.employeeIds !== undefined)
      throw invalid(`${pointer}/employeeIds`, 'Only a level of type employees names employees.');
    if (level.type === 'role') {
      if (!level.roleId) throw invalid(`${pointer}/roleId`, 'A level of a role needs roleId.');
      await assertOwned(executor, 'b2b_employee_roles', customerId, [level.roleId], `${pointer}/roleId`, 'role');
      stored.roleId = level.roleId;
    } else if (level.roleId !== undefined)
      throw invalid(`${pointer}/roleId`, 'Only a level of type role names a role.');
    if ((level.type === 'company-admins' || level.type === 'approver-settings') && required !== 1)
      throw invalid(
        `${pointer}/required`,
        `A level of type ${level.type} is decided as its type says; required must be 1.`,
      );
    levels.push(stored);
  }
  return {
    name: body.name.trim(),
    description: body.description,
    priority: body.priority,
    active: body.active,
    appliesTo: body.appliesTo,
    conditions,
    levels,
    escalateAfterHours: body.escalateAfterHours,
  };
}

/** The body of an existing rule (amounts back at the API's precision), so a change can be merged onto it. */
function bodyOf(rule: ApprovalRule, precision: number): Required<RuleBody> {
  const view = ruleView(rule, precision);
  return {
    name: view.name,
    description: view.description,
    priority: view.priority,
    active: view.active,
    appliesTo: view.appliesTo,
    conditions: view.conditions,
    levels: view.levels,
    escalateAfterHours: view.escalateAfterHours,
  };
}

export async function listRules(host: HostRuntime, ctx: StoreContext, criteria: Criteria) {
  const customer = declaredCustomer(ctx);
  await inTransaction(host.db, (trx) => materialiseRules(trx, customer.id));
  const page = await searchRules(host.db, customer.id, criteria);
  return criteriaList(
    { total: page.total, data: page.rows.map((r) => ruleView(r, ctx.salesChannel.currencyPrecision)) },
    criteria,
  );
}

export async function readRule(host: HostRuntime, ctx: StoreContext, id: string) {
  const customer = declaredCustomer(ctx);
  await inTransaction(host.db, (trx) => materialiseRules(trx, customer.id));
  const rule = await findRule(host.db, customer.id, id);
  if (!rule) throw Errors.notFound('Approval rule', id);
  return { success: true as const, rule: ruleView(rule, ctx.salesChannel.currencyPrecision) };
}

export async function createRule(
  host: HostRuntime,
  ctx: StoreContext,
  body: RuleBody & Pick<Required<RuleBody>, 'name' | 'priority' | 'levels'>,
) {
  const customer = declaredCustomer(ctx);
  const precision = ctx.salesChannel.currencyPrecision;
  const full: Required<RuleBody> = {
    description: null,
    active: true,
    appliesTo: 'orders',
    conditions: {},
    escalateAfterHours: null,
    ...body,
  };
  const id = await inTransaction(host.db, async (trx) => {
    await materialiseRules(trx, customer.id);
    return insertRule(trx, customer.id, await toRuleInput(trx, customer.id, full, precision));
  });
  return readRule(host, ctx, id);
}

export async function changeRule(host: HostRuntime, ctx: StoreContext, id: string, body: RuleBody) {
  const customer = declaredCustomer(ctx);
  const precision = ctx.salesChannel.currencyPrecision;
  await inTransaction(host.db, async (trx) => {
    await materialiseRules(trx, customer.id);
    const rule = await findRule(trx, customer.id, id);
    if (!rule) throw Errors.notFound('Approval rule', id);
    await updateRule(
      trx,
      customer.id,
      id,
      await toRuleInput(trx, customer.id, { ...bodyOf(rule, precision), ...body }, precision),
    );
  });
  return readRule(host, ctx, id);
}

/** Deletes a rule; approvals it chose keep their chain. */
export async function removeRule(host: HostRuntime, ctx: StoreContext, id: string): Promise<void> {
  const customer = declaredCustomer(ctx);
  const deleted = await inTransaction(host.db, async (trx) => {
    await materialiseRules(trx, customer.id);
    return deleteRule(trx, customer.id, id);
  });
  if (deleted === 0) throw Errors.notFound('Approval rule', id);
}

/** The chain of an approval: each level with its approvers and, for the current round, who decided and when. */
export async function approvalChain(host: HostRuntime, approval: ApprovalRow) {
  const levels = await approvalLevels(host.db, approval.id);
  const decisions = await decisionsOf(host.db, approval.id, approval.round);
  const ruleName = await ruleNameOfApproval(host.db, approval.id);
  const finished = approval.status === 'approved' || approval.status === 'ordered' || approval.status === 'ordering';
  return {
    ruleId: approval.ruleId,
    ruleName,
    currentLevel: approval.level,
    levels: levels.map((l) => {
      const own = decisions.filter((d) => d.level === l.level);
      let status: 'waiting' | 'pending' | 'approved' | 'declined' =
        l.level < approval.level || finished ? 'approved' : l.level === approval.level ? 'pending' : 'waiting';
      if (approval.status === 'declined' && l.level === approval.level) status = 'declined';
      return {
        level: l.level,
        name: l.name,
        type: l.type,
        status,
        mode: l.mode,
        nValue: l.nValue,
        approverEmployeeIds: l.approverEmployeeIds,
        startedAt: fromDbTime(l.startedAt),
        approvedAt: fromDbTime(l.approvedAt),
        escalatedAt: fromDbTime(l.escalatedAt),
        decisions: own.map((d) => ({
          approverType: d.approverType as 'employee' | 'customer',
          approverId: d.approverId,
          approverName: d.approverName,
          decision: d.decision,
          comment: d.comment,
          decidedAt: fromDbTime(d.createdAt)!,
        })),
      };
    }),
  };
}
