import { readBool } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import type { ContextEnricher, HostRuntime, LoginProvider } from '../../contract/index.js';
import { effectivePermissions } from './permissions.js';
import {
  defaultLink,
  employeeIdentity,
  findEmployeeByEmail,
  findEmployeeRow,
  rolePermissionsOf,
} from './repository.js';

/** Employees log in through the host's login route with their own e-mail and password, acting for their default customer. */
export function employeeLoginProvider(host: HostRuntime): LoginProvider {
  return async (trx, email, password, salesChannel) => {
    const employee = await findEmployeeByEmail(trx, email);
    if (!employee?.password_hash) return null;
    if (!(await host.auth.verifyPassword(password, employee.password_hash)) || !readBool(employee.active))
      return 'wrong-password';
    const link = await defaultLink(host, trx, employee.id, salesChannel.id);
    return link ? employeeIdentity(employee, link.customer_id) : 'wrong-password';
  };
}

/**
 * Per request: the employee and their permissions on the customer they act for, from the role of
 * that link. A deactivated employee or link, or a removed link, ends the session at once (401).
 */
export const employeeContextEnricher: ContextEnricher = async (executor, ctx) => {
  if (ctx.actor.type !== 'employee') return;
  const attributed = ctx.attributes.employeeId;
  const employeeId = typeof attributed === 'string' ? attributed : (ctx.actor.id ?? '');
  const row = ctx.customer ? await findEmployeeRow(executor, ctx.customer.id, employeeId) : null;
  if (!row || !readBool(row.employee_active) || !readBool(row.link_active))
    throw Errors.unauthorized('The employee account is not active for this customer.', 'SUITE__EMPLOYEE_INACTIVE');
  ctx.employee = {
    id: row.id,
    roleId: row.role_id ?? null,
    roleName: row.role_name ?? null,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
  };
  ctx.permissions = row.role_id ? effectivePermissions(rolePermissionsOf(row)) : new Set<string>();
};
