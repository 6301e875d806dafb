import type { Executor, Trx } from '../../../lib/db.js';
import { nowDb } from '../../../lib/time.js';
import {
  findEmployees,
  holds,
  managersOfUnit,
  unitTree,
  unitsOfEmployee,
  withAncestors,
  type DirectoryEmployee,
} from '../../company/index.js';
import { APPROVE_PERMISSION } from '../approvers.js';
import { addActivity, loadSettings, type ApprovalRow, type ApprovalSettings } from '../repository.js';
import type { ApprovalRule, RuleLevel } from './model.js';
import {
  approvalLevels,
  backToFirstLevel,
  employeeIdsWithRole,
  escalateToAdmins,
  moveToLevel,
  updateApprovalLevel,
  type ApprovalLevel,
} from './repository.js';

type ResolvedLevel = Omit<ApprovalLevel, 'approvedAt' | 'escalatedAt'>;
type Requester = { customerId: string; requesterType: string; requesterId: string };

/** Who may decide: active employees holding the approve permission, never the requester. */
function deciders(employees: DirectoryEmployee[], requester: Requester): string[] {
  return employees
    .filter(
      (e) =>
        e.active &&
        holds(e, APPROVE_PERMISSION) &&
        !(requester.requesterType === 'employee' && e.id === requester.requesterId),
    )
    .map((e) => e.id);
}

/**
 * The managers of the buyer's units: for each unit the buyer belongs to, the managers of the unit or,
 * where none of them may decide (none, or only the buyer), those of the nearest unit above.
 */
async function unitManagers(executor: Executor, requester: Requester): Promise<string[]> {
  if (requester.requesterType !== 'employee') return [];
  const tree = await unitTree(executor, requester.customerId);
  const found = new Set<string>();
  for (const unitId of await unitsOfEmployee(executor, requester.customerId, requester.requesterId))
    for (const candidate of withAncestors(tree, [unitId])) {
      const ids = deciders(
        await findEmployees(
          executor,
          requester.customerId,
          await managersOfUnit(executor, requester.customerId, candidate),
        ),
        requester,
      );
      if (ids.length === 0) continue;
      for (const id of ids) found.add(id);
      break;
    }
  return [...found].sort();
}

async function employeesWithRole(executor: Executor, customerId: string, roleId: string): Promise<DirectoryEmployee[]> {
  return findEmployees(executor, customerId, await employeeIdsWithRole(executor, customerId, roleId));
}

/** The approval mode, n and approvers of a level now; a level nobody can decide falls to the company admins. */
async function resolveLevel(
  executor: Executor,
  level: RuleLevel,
  requester: Requester,
  settings: ApprovalSettings,
): Promise<Pick<ResolvedLevel, 'mode' | 'nValue' | 'approverEmployeeIds'>> {
  let ids: string[];
  switch (level.type) {
    case 'approver-settings':
      return { mode: settings.mode, nValue: settings.nValue, approverEmployeeIds: settings.approverEmployeeIds };
    case 'company-admins':
      return { mode: 'only-admins', nValue: 1, approverEmployeeIds: [] };
    case 'employees':
      ids = deciders(await findEmployees(executor, requester.customerId, level.employeeIds ?? []), requester);
      break;
    case 'role':
      ids = deciders(await employeesWithRole(executor, requester.customerId, level.roleId ?? ''), requester);
      break;
    case 'unit-managers':
      ids = await unitManagers(executor, requester);
      break;
  }
  if (ids.length === 0) return { mode: 'only-admins', nValue: 1, approverEmployeeIds: [] };
  return { mode: 'n-of', nValue: Math.min(Math.max(1, level.required), ids.length), approverEmployeeIds: ids };
}

/** The chain of `rule` resolved for a new approval: level 1 starts now, the others when they are reached. */
export async function resolveChain(
  executor: Executor,
  rule: ApprovalRule,
  requester: Requester,
  settings: ApprovalSettings,
): Promise<ResolvedLevel[]> {
  const now = nowDb();
  const levels: ResolvedLevel[] = [];
  for (const [index, level] of rule.levels.entries())
    levels.push({
      level: index + 1,
      name: level.name,
      type: level.type,
      ...(await resolveLevel(executor, level, requester, settings)),
      startedAt: index === 0 ? now : null,
    });
  return levels;
}

/** The level the approval is at (every approval has its levels; migration 034 wrote those of approvals from before the rules). */
export async function currentLevel(
  executor: Executor,
  approval: Pick<ApprovalRow, 'id' | 'level'>,
): Promise<ApprovalLevel | null> {
  return (await approvalLevels(executor, approval.id)).find((l) => l.level === approval.level) ?? null;
}

/** A level of "the approver settings" takes the settings as they are when the level starts. */
async function startLevel(trx: Trx, approval: ApprovalRow, level: ApprovalLevel): Promise<ApprovalLevel> {
  const started = { ...level, startedAt: nowDb(), approvedAt: null, escalatedAt: null };
  if (level.type === 'approver-settings') {
    const settings = await loadSettings(trx, approval.customerId);
    Object.assign(started, {
      mode: settings.mode,
      nValue: settings.nValue,
      approverEmployeeIds: settings.approverEmployeeIds,
    });
  }
  await updateApprovalLevel(trx, approval.id, level.level, {
    mode: started.mode,
    n_value: started.nValue,
    approver_employee_ids: JSON.stringify(started.approverEmployeeIds),
    started_at: started.startedAt,
    approved_at: null,
    escalated_at: null,
  });
  return started;
}

/**
 * The current level has its approvals: records when, and moves the approval to the next level (its
 * approvers take over). Answers the approval at the next level, or null when this was the last one.
 * Runs under the approval's row lock; the conditional move makes a second caller a no-op.
 */
export async function passLevel(
  trx: Trx,
  approval: ApprovalRow,
  actor: { type: string; id: string | null; name: string },
): Promise<ApprovalRow | 'moved' | null> {
  const levels = await approvalLevels(trx, approval.id);
  const current = levels.find((l) => l.level === approval.level);
  const next = levels.find((l) => l.level === approval.level + 1);
  if (current) await updateApprovalLevel(trx, approval.id, current.level, { approved_at: nowDb() });
  if (!next) return null;
  const started = await startLevel(trx, approval, next);
  if ((await moveToLevel(trx, approval.id, approval.round, approval.level, started.level)) !== 1) return 'moved';
  await addActivity(trx, approval.id, actor, 'level-approved', null, {
    level: approval.level,
    name: current?.name ?? '',
    nextLevel: next.level,
  });
  return {
    ...approval,
    level: next.level,
    mode: started.mode,
    nValue: started.nValue,
    approverEmployeeIds: started.approverEmployeeIds,
  };
}

/** A new round (the total rose): the chain starts again at level 1. Answers the approval as it now is. */
export async function restartChain(trx: Trx, approval: ApprovalRow): Promise<ApprovalRow> {
  const levels = await approvalLevels(trx, approval.id);
  const first = levels.find((l) => l.level === 1);
  if (!first || (approval.level === 1 && levels.length === 1)) return approval;
  for (const l of levels)
    await updateApprovalLevel(trx, approval.id, l.level, { approved_at: null, escalated_at: null, started_at: null });
  const started = await startLevel(trx, approval, first);
  await backToFirstLevel(trx, approval.id);
  return {
    ...approval,
    level: 1,
    mode: started.mode,
    nValue: started.nValue,
    approverEmployeeIds: started.approverEmployeeIds,
  };
}

/** Hands a level that waited too long to the company admins (one of them decides it) and says so in the log. */
export async function escalateLevel(
  trx: Trx,
  approval: ApprovalRow,
  level: ApprovalLevel,
): Promise<ApprovalRow | null> {
  if (!(await escalateToAdmins(trx, approval.id, level.level))) return null;
  await addActivity(trx, approval.id, { type: 'system', id: null, name: 'System' }, 'escalated', null, {
    level: level.level,
    name: level.name,
    approverEmployeeIds: level.approverEmployeeIds,
  });
  return { ...approval, mode: 'only-admins', nValue: 1, approverEmployeeIds: [] };
}
