import type { HostRuntime, StoreContext } from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { findEmployees, holds, isAdmin, listEmployees } from '../company/index.js';
import type { ApprovalRow, DecisionRow } from './repository.js';

export const APPROVE_PERMISSION = 'order-approval.approve';

/** One person who may decide an approval: an employee, or the customer login (the company admin). */
export interface ApproverEntry {
  key: string;
  type: 'employee' | 'customer';
  id: string;
  name: string;
  email: string | null;
  /** active and, for employees, holding the permission their mode needs */
  eligible: boolean;
}

export const keyOf = (type: string, id: string | null) => `${type}:${id ?? ''}`;
export const requesterKey = (approval: Pick<ApprovalRow, 'requesterType' | 'requesterId'>) =>
  keyOf(approval.requesterType, approval.requesterId);

export function isRequester(ctx: StoreContext, approval: ApprovalRow): boolean {
  return keyOf(ctx.actor.type, ctx.actor.id) === requesterKey(approval);
}

/** The company admin: the customer login, or an employee holding the admin permission. */
export function isCompanyAdmin(ctx: StoreContext): boolean {
  return ctx.permissions === 'all' && (ctx.actor.type === 'customer' || ctx.actor.type === 'employee');
}

/** May see every approval of the company (not just their own requests). */
export function seesAll(ctx: StoreContext): boolean {
  return isCompanyAdmin(ctx) || ctx.can(APPROVE_PERMISSION);
}

export function canView(ctx: StoreContext, approval: ApprovalRow): boolean {
  if (isRequester(ctx, approval) || seesAll(ctx)) return true;
  return approval.mode === 'n-of' && !!ctx.employee && approval.approverEmployeeIds.includes(ctx.employee.id);
}

/**
 * `any-approver`: the customer login, employees with the admin permission and employees whose role
 * holds the approve permission. `only-admins`: the customer login and employees with the admin
 * permission. `n-of`: the listed employees who hold the approve permission. Never the requester.
 */
export function isApprover(
  ctx: StoreContext,
  approval: Pick<ApprovalRow, 'mode' | 'approverEmployeeIds' | 'requesterType' | 'requesterId'>,
): boolean {
  if (keyOf(ctx.actor.type, ctx.actor.id) === requesterKey(approval)) return false;
  if (approval.mode === 'n-of')
    return (
      ctx.actor.type === 'employee' &&
      !!ctx.employee &&
      approval.approverEmployeeIds.includes(ctx.employee.id) &&
      ctx.can(APPROVE_PERMISSION)
    );
  if (
    approval.mode === 'any-approver' &&
    ctx.actor.type === 'employee' &&
    !!ctx.employee &&
    ctx.can(APPROVE_PERMISSION)
  )
    return true;
  return isCompanyAdmin(ctx);
}

export async function approverEntries(
  host: HostRuntime,
  executor: Executor,
  approval: Pick<ApprovalRow, 'customerId' | 'mode' | 'approverEmployeeIds'>,
): Promise<ApproverEntry[]> {
  if (approval.mode === 'n-of') {
    const byId = new Map(
      (await findEmployees(executor, approval.customerId, approval.approverEmployeeIds)).map((e) => [e.id, e]),
    );
    return approval.approverEmployeeIds
      .map((id) => byId.get(id))
      .filter((e) => e !== undefined)
      .map((e) => ({
        key: keyOf('employee', e.id),
        type: 'employee' as const,
        id: e.id,
        name: e.name,
        email: e.email,
        eligible: e.active && holds(e, APPROVE_PERMISSION),
      }));
  }
  const entries: ApproverEntry[] = [];
  const customer = await host.customers.get(executor, approval.customerId);
  if (customer)
    entries.push({
      key: keyOf('customer', customer.id),
      type: 'customer',
      id: customer.id,
      name: `${customer.firstName} ${customer.lastName}`.trim(),
      email: customer.email,
      eligible: customer.active,
    });
  const byPermission = approval.mode === 'any-approver';
  for (const e of await listEmployees(executor, approval.customerId))
    if (isAdmin(e) || (byPermission && holds(e, APPROVE_PERMISSION)))
      entries.push({
        key: keyOf('employee', e.id),
        type: 'employee',
        id: e.id,
        name: e.name,
        email: e.email,
        eligible: e.active,
      });
  return entries;
}

/** Distinct approvals that count: in `n-of` only those of the listed employees. */
export function approvalCount(
  approval: Pick<ApprovalRow, 'mode' | 'approverEmployeeIds'>,
  decisions: DecisionRow[],
): number {
  const counted = new Set<string>();
  for (const d of decisions) {
    if (d.decision !== 'approved') continue;
    if (
      approval.mode === 'n-of' &&
      !(d.approverType === 'employee' && approval.approverEmployeeIds.includes(d.approverId))
    )
      continue;
    counted.add(d.approverKey);
  }
  return counted.size;
}

export function requiredApprovals(approval: Pick<ApprovalRow, 'mode' | 'nValue'>): number {
  return approval.mode === 'n-of' ? Math.max(1, approval.nValue) : 1;
}

/**
 * Each approver's state: their decision, else `pending` while the approval is open, `not-needed`
 * once it was decided without them (approved, declined or ordered).
 */
export function approverStatus(approval: ApprovalRow, entries: ApproverEntry[], decisions: DecisionRow[]) {
  const byKey = new Map(decisions.map((d) => [d.approverKey, d.decision]));
  const open = approval.status === 'pending' && !approval.isBlocked;
  const undecided = approval.status === 'pending' ? 'pending' : 'not-needed';
  return {
    approvers: entries.map((e) => {
      const status = byKey.get(e.key) ?? undecided;
      return {
        employeeId: e.id,
        employeeName: e.name,
        type: e.type,
        status,
        canApprove: open && status === 'pending' && e.eligible && e.key !== requesterKey(approval),
      };
    }),
    isApproved: approval.status === 'approved' || approval.status === 'ordered',
    isDeclined: approval.status === 'declined',
  };
}
