import type { Knex } from 'knex';
import { readBool, readJson, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';
import type { CriteriaSpec } from '../../lib/criteria.js';
import type { CustomerRef, HostRuntime, LoginIdentity } from '../../host/contract.js';
import { fullName } from './common.js';

export const EMPLOYEES = 'b2b_employees';
export const LINKS = 'b2b_employee_customers';

/** A row of b2b_employees: the person's login, shared by every customer they work for. */
export interface EmployeeRecord {
  id: string;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  active: unknown;
  created_at: string;
  updated_at: string | null;
}

/**
 * An employee on one customer's link, as `selectEmployeeColumns` reads it. A type alias, not an
 * interface: other add-ons pass it on as a `Record<string, unknown>` (event-manager's `employeePerson`).
 */
export type EmployeeRow = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  employee_active: unknown;
  /** 1 when the employee has a password (CASE expression). */
  activated: unknown;
  link_id: string;
  department: string | null;
  role_id: string | null;
  link_active: unknown;
  created_at: string;
  updated_at: string | null;
  employee_updated_at: string | null;
  role_name: string | null;
  role_permissions: unknown;
};

export interface EmployeeView {
  id: string;
  employeeId: string;
  email: string;
  firstName: string;
  lastName: string;
  department: string | null;
  roleId: string | null;
  roleName: string | null;
  /** The employee may act for this customer (the link is active and so is the account). */
  active: boolean;
  /** The employee has set a password (accepted the invitation). */
  activated: boolean;
  createdAt: string;
  updatedAt: string | null;
}

export const employeeCriteria: CriteriaSpec = {
  fields: {
    id: { column: 'e.id', type: 'id' },
    email: { column: 'e.email', type: 'string' },
    firstName: { column: 'e.first_name', type: 'string' },
    lastName: { column: 'e.last_name', type: 'string' },
    department: { column: 'ec.department', type: 'string' },
    roleId: { column: 'ec.role_id', type: 'id' },
    active: { column: 'ec.active', type: 'boolean' },
    createdAt: { column: 'ec.created_at', type: 'date' },
  },
  termColumns: ['e.email', 'e.first_name', 'e.last_name', 'ec.department'],
  defaultSort: [
    { column: 'e.last_name', order: 'asc' },
    { column: 'e.first_name', order: 'asc' },
    { column: 'e.id', order: 'asc' },
  ],
  idColumn: 'e.id',
};

/** Employees linked to one customer, with their role on that link. */
export function employeesOfCustomer(executor: Executor, customerId: string): Knex.QueryBuilder {
  return executor(`${LINKS} as ec`)
    .join(`${EMPLOYEES} as e`, 'e.id', 'ec.employee_id')
    .leftJoin('b2b_employee_roles as r', 'r.id', 'ec.role_id')
    .where('ec.customer_id', customerId);
}

export function selectEmployeeColumns(executor: Executor, qb: Knex.QueryBuilder): Knex.QueryBuilder {
  return qb.select(
    'e.id',
    'e.email',
    'e.first_name',
    'e.last_name',
    'e.active as employee_active',
    executor.raw('CASE WHEN e.password_hash IS NULL THEN 0 ELSE 1 END as activated'),
    'ec.id as link_id',
    'ec.department',
    'ec.role_id',
    'ec.active as link_active',
    'ec.created_at',
    'ec.updated_at',
    'e.updated_at as employee_updated_at',
    'r.name as role_name',
    'r.permissions as role_permissions',
  );
}

export function toEmployeeView(row: EmployeeRow): EmployeeView {
  const updated = [fromDbTime(row.updated_at), fromDbTime(row.employee_updated_at)]
    .filter((v): v is string => v !== null)
    .sort();
  return {
    id: row.id,
    employeeId: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    department: row.department ?? null,
    roleId: row.role_id ?? null,
    roleName: row.role_name ?? null,
    active: readBool(row.link_active) && readBool(row.employee_active),
    activated: readBool(row.activated),
    createdAt: fromDbTime(row.created_at)!,
    updatedAt: updated.at(-1) ?? null,
  };
}

export async function findEmployeeRow(
  executor: Executor,
  customerId: string,
  employeeId: string,
): Promise<EmployeeRow | null> {
  return (
    (await selectRow<EmployeeRow>(
      selectEmployeeColumns(executor, employeesOfCustomer(executor, customerId).where('e.id', employeeId)).first(),
    )) ?? null
  );
}

export function rolePermissionsOf(row: { role_permissions?: unknown }): string[] {
  return readJson<string[]>(row.role_permissions, []);
}

export async function findEmployeeByEmail(executor: Executor, email: string): Promise<EmployeeRecord | null> {
  return (await executor<EmployeeRecord>(EMPLOYEES).where({ email: email.trim().toLowerCase() }).first()) ?? null;
}

/** Whether the employee works for the customer already (an active or inactive link). */
export async function isLinked(executor: Executor, employeeId: string, customerId: string): Promise<boolean> {
  return (
    (await selectRow<{ id: string }>(
      executor(LINKS).where({ employee_id: employeeId, customer_id: customerId }).first('id'),
    )) !== undefined
  );
}

export async function findEmployeeRecord(executor: Executor, id: string): Promise<EmployeeRecord | null> {
  return (await executor<EmployeeRecord>(EMPLOYEES).where({ id }).first()) ?? null;
}

/** The link an employee acts for after login: the oldest active link to an active customer of the sales channel. */
export async function defaultLink(
  host: HostRuntime,
  executor: Executor,
  employeeId: string,
  salesChannelId: string,
): Promise<{ customer_id: string } | null> {
  const [first] = await activeLinks(host, executor, employeeId, salesChannelId);
  return first ? { customer_id: first.customer.id } : null;
}

export interface ActiveLink {
  customer: CustomerRef;
  roleId: string | null;
  roleName: string | null;
}

/** The employee's active links to active customers of the sales channel, oldest first. */
export async function activeLinks(
  host: HostRuntime,
  executor: Executor,
  employeeId: string,
  salesChannelId: string,
  customerId?: string,
): Promise<ActiveLink[]> {
  const query = executor(`${LINKS} as ec`)
    .leftJoin('b2b_employee_roles as r', 'r.id', 'ec.role_id')
    .where('ec.employee_id', employeeId)
    .where('ec.active', true)
    .orderBy('ec.created_at')
    .orderBy('ec.id')
    .select('ec.customer_id', 'ec.role_id', 'r.name as role_name');
  if (customerId) query.where('ec.customer_id', customerId);
  const rows = await selectRows<{ customer_id: string; role_id: string | null; role_name: string | null }>(query);
  const customers = new Map(
    (
      await host.customers.getMany(
        executor,
        rows.map((row) => row.customer_id),
      )
    ).map((customer) => [customer.id, customer]),
  );
  return rows.flatMap((row) => {
    const customer = customers.get(row.customer_id);
    return customer && customer.active && customer.salesChannelId === salesChannelId
      ? [{ customer, roleId: row.role_id ?? null, roleName: row.role_name ?? null }]
      : [];
  });
}

export function employeeIdentity(
  employee: { id: string; email: string; first_name: string; last_name: string },
  customerId: string,
): LoginIdentity {
  const name = fullName(employee);
  return {
    customerId,
    actor: { type: 'employee', id: employee.id, name, email: employee.email },
    attributes: { employeeId: employee.id, actorName: name, actorEmail: employee.email },
  };
}

/** An e-mail is free for a new employee when neither an employee nor a customer login uses it. */
export async function emailInUse(
  host: HostRuntime,
  executor: Executor,
  email: string,
  exceptEmployeeId?: string,
): Promise<boolean> {
  const query = executor(EMPLOYEES).where({ email });
  if (exceptEmployeeId) query.whereNot({ id: exceptEmployeeId });
  const employee = await selectRow<{ id: string }>(query.first('id'));
  if (employee) return true;
  return Boolean(await host.customers.findByEmail(executor, email));
}

/** The customers were deleted by the host (contract event): their employee links, invitations and roles go with them; the employees stay (they may work for others). */
export async function deleteCustomersEmployeeData(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(LINKS).whereIn('customer_id', customerIds).delete();
  await executor('b2b_employee_invitations').whereIn('customer_id', customerIds).delete();
  await executor('b2b_employee_roles').whereIn('customer_id', customerIds).delete();
}
