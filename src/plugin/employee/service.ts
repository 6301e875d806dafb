import { isDuplicateKeyError, isRowReferencedError, readBool, type Executor, type Trx } from '../../lib/db.js';
import { AppError, Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import type { HostRuntime, StoreContext } from '../../contract/index.js';
import { normaliseEmail } from './common.js';
import { assertCanGrant } from './permissions.js';
import {
  anonymiseEmployeeRecord,
  countOtherLinks,
  deleteEmployeeLink,
  deleteEmployeeRecord,
  emailInUse,
  findEmployeeRow,
  insertEmployeeLink,
  insertEmployeeRecord,
  rolePermissionsOf,
  toEmployeeView,
  updateEmployeeLink,
  updateEmployeeRecord,
  type EmployeeRow,
  type EmployeeView,
} from './repository.js';
import { deleteInvitationOf } from './invitation/repository.js';
import { findRole, type RoleView } from './role/repository.js';
import { deleteActorTokens } from './login/repository.js';

export interface EmployeeInput {
  email: string;
  firstName: string;
  lastName: string;
  department?: string | null;
  roleId?: string | null;
  active?: boolean;
  passwordHash: string | null;
}

export type EmployeePatch = Partial<{
  email: string;
  firstName: string;
  lastName: string;
  department: string | null;
  roleId: string | null;
  active: boolean;
}>;

export const emailTaken = () =>
  Errors.badRequest('SUITE__EMAIL_TAKEN', 'This e-mail address already has a login; invite the person instead.', {
    pointer: '/email',
  });

/** A role of the caller's customer that the caller may hand out; another customer's role is a 404. */
export async function assignableRole(
  executor: Executor,
  ctx: StoreContext,
  customerId: string,
  roleId: string | null | undefined,
  pointer = '/roleId',
): Promise<RoleView | null> {
  if (!roleId) return null;
  const role = await findRole(executor, customerId, roleId);
  if (!role)
    throw new AppError(404, 'SUITE__NOT_FOUND', `role with id "${roleId}" was not found.`, {
      pointer,
      meta: { entity: 'role' },
    });
  assertCanGrant(ctx, role.permissions);
  return role;
}

/** An employee whose role holds permissions the caller lacks can only be changed by someone who holds them. */
export function assertManageable(ctx: StoreContext, row: EmployeeRow): void {
  assertCanGrant(ctx, rolePermissionsOf(row));
}

export async function insertEmployee(
  host: HostRuntime,
  trx: Trx,
  customerId: string,
  input: EmployeeInput,
): Promise<string> {
  const email = normaliseEmail(input.email);
  if (await emailInUse(host, trx, email)) throw emailTaken();
  const id = newId();
  const now = nowDb();
  try {
    await insertEmployeeRecord(trx, {
      id,
      email,
      password_hash: input.passwordHash,
      first_name: input.firstName.trim(),
      last_name: input.lastName.trim(),
      active: true,
      created_at: now,
    });
  } catch (error) {
    if (isDuplicateKeyError(error)) throw emailTaken();
    throw error;
  }
  await insertEmployeeLink(trx, {
    id: newId(),
    employee_id: id,
    customer_id: customerId,
    role_id: input.roleId ?? null,
    department: input.department?.trim() || null,
    active: input.active ?? true,
    created_at: now,
  });
  return id;
}

export async function getEmployee(executor: Executor, customerId: string, employeeId: string): Promise<EmployeeView> {
  const row = await findEmployeeRow(executor, customerId, employeeId);
  if (!row) throw Errors.notFound('employee', employeeId);
  return toEmployeeView(row);
}

export async function updateEmployee(
  host: HostRuntime,
  trx: Trx,
  ctx: StoreContext,
  customerId: string,
  employeeId: string,
  input: EmployeePatch,
): Promise<EmployeeView> {
  const patch = {
    ...input,
    firstName: input.firstName?.trim(),
    lastName: input.lastName?.trim(),
    department: input.department === undefined ? undefined : input.department?.trim() || null,
  };
  const row = await findEmployeeRow(trx, customerId, employeeId);
  if (!row) throw Errors.notFound('employee', employeeId);
  assertManageable(ctx, row);
  const personal: Record<string, unknown> = {};
  if (patch.email !== undefined && normaliseEmail(patch.email) !== row.email)
    personal.email = normaliseEmail(patch.email);
  if (patch.firstName !== undefined && patch.firstName !== row.first_name) personal.first_name = patch.firstName;
  if (patch.lastName !== undefined && patch.lastName !== row.last_name) personal.last_name = patch.lastName;
  if (Object.keys(personal).length && (await countOtherLinks(trx, employeeId, customerId)) > 0)
    throw Errors.badRequest(
      'SUITE__EMPLOYEE_SHARED',
      'This employee also works for another customer; only they can change their name and e-mail.',
      { pointer: `/${patch.email !== undefined ? 'email' : 'firstName'}` },
    );
  if (typeof personal.email === 'string' && (await emailInUse(host, trx, personal.email, employeeId)))
    throw emailTaken();

  const link: Record<string, unknown> = {};
  if (patch.department !== undefined && (patch.department ?? null) !== (row.department ?? null))
    link.department = patch.department;
  if (patch.roleId !== undefined && (patch.roleId ?? null) !== (row.role_id ?? null)) {
    await assignableRole(trx, ctx, customerId, patch.roleId);
    link.role_id = patch.roleId;
  }
  const wasActive = readBool(row.link_active);
  const deactivating = patch.active === false && wasActive;
  if (patch.active !== undefined && patch.active !== wasActive) {
    if (!patch.active && ctx.employee?.id === employeeId)
      throw Errors.badRequest('SUITE__CANNOT_DEACTIVATE_SELF', 'You cannot deactivate your own login.', {
        pointer: '/active',
      });
    link.active = patch.active;
  }
  const now = nowDb();
  if (Object.keys(personal).length) {
    try {
      await updateEmployeeRecord(trx, employeeId, { ...personal, updated_at: now });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw emailTaken();
      throw error;
    }
  }
  if (Object.keys(link).length) await updateEmployeeLink(trx, row.link_id, { ...link, updated_at: now });
  if (deactivating || personal.email) await host.auth.revokeActorSessions(trx, 'employee', employeeId);
  return getEmployee(trx, customerId, employeeId);
}

/**
 * Removes the employee from the customer; the person's login goes too unless they work for
 * another customer. Records of other add-ons that still point at the person keep the row, which
 * is then anonymised and locked instead.
 */
export async function deleteEmployee(
  host: HostRuntime,
  trx: Trx,
  ctx: StoreContext,
  customerId: string,
  employeeId: string,
): Promise<void> {
  const row = await findEmployeeRow(trx, customerId, employeeId);
  if (!row) throw Errors.notFound('employee', employeeId);
  if (ctx.employee?.id === employeeId)
    throw Errors.badRequest('SUITE__CANNOT_DELETE_SELF', 'You cannot delete your own login.');
  assertManageable(ctx, row);
  await deleteEmployeeLink(trx, row.link_id);
  await deleteInvitationOf(trx, customerId, row.email);
  await host.auth.revokeActorSessions(trx, 'employee', employeeId);
  if ((await countOtherLinks(trx, employeeId, customerId)) > 0) return;
  await deleteActorTokens(trx, 'employee', employeeId);
  try {
    await deleteEmployeeRecord(trx, employeeId);
  } catch (error) {
    if (!isRowReferencedError(error)) throw error;
    await anonymiseEmployeeRecord(trx, employeeId, nowDb());
  }
}
