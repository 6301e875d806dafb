import type { Knex } from 'knex';
import { readBool, readInt, readJson, selectRow, selectRows, type Executor, type Trx } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';
import { searchByCriteria, type Criteria, type CriteriaSpec, type Page } from '../../lib/criteria.js';
import type { CustomerRef, HostRuntime, LoginIdentity } from '../../contract/index.js';
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

/** A new row of b2b_employees. */
export type NewEmployeeRecord = Pick<
  EmployeeRecord,
  'id' | 'email' | 'password_hash' | 'first_name' | 'last_name' | 'created_at'
> & { active: boolean };

/** A new row of b2b_employee_customers: the employee works for the customer. */
export interface NewEmployeeLink {
  id: string;
  employee_id: string;
  customer_id: string;
  role_id: string | null;
  department: string | null;
  active: boolean;
  created_at: string;
}

export async function insertEmployeeRecord(executor: Executor, record: NewEmployeeRecord): Promise<void> {
  await executor(EMPLOYEES).insert(record);
}

export async function insertEmployeeLink(executor: Executor, link: NewEmployeeLink): Promise<void> {
  await executor(LINKS).insert(link);
}

/** Writes columns of the employee's login; the number of rows changed. */
export async function updateEmployeeRecord(
  executor: Executor,
  employeeId: string,
  changes: Record<string, unknown>,
): Promise<number> {
  return executor(EMPLOYEES).where({ id: employeeId }).update(changes);
}

/** Sets the password of an active employee; the number of rows changed (0: no such active employee). */
export async function setActiveEmployeePassword(
  executor: Executor,
  employeeId: string,
  passwordHash: string,
  now: string,
): Promise<number> {
  return executor(EMPLOYEES)
    .where({ id: employeeId, active: true })
    .update({ password_hash: passwordHash, updated_at: now });
}

/** Writes columns of one employee–customer link. */
export async function updateEmployeeLink(
  executor: Executor,
  linkId: string,
  changes: Record<string, unknown>,
): Promise<void> {
  await executor(LINKS).where({ id: linkId }).update(changes);
}

export async function deleteEmployeeLink(executor: Executor, linkId: string): Promise<void> {
  await executor(LINKS).where({ id: linkId }).delete();
}

/** How many customers other than this one the employee works for. */
export async function countOtherLinks(executor: Executor, employeeId: string, customerId: string): Promise<number> {
  const rows = await selectRows<{ id: string }>(
    executor(LINKS).where({ employee_id: employeeId }).whereNot({ customer_id: customerId }).select('id'),
  );
  return rows.length;
}

/** Of these employees, the ones who also work for a customer other than this one. */
export async function employeesLinkedElsewhere(
  executor: Executor,
  employeeIds: string[],
  customerId: string,
): Promise<string[]> {
  const rows = await selectRows<{ employee_id: string }>(
    executor(LINKS).whereIn('employee_id', employeeIds).whereNot({ customer_id: customerId }).select('employee_id'),
  );
  return rows.map((r) => r.employee_id);
}

/** Of these e-mails, the ones an employee login uses already. */
export async function employeeEmailsAmong(executor: Executor, emails: string[]): Promise<string[]> {
  const rows = await selectRows<{ email: string }>(executor(EMPLOYEES).whereIn('email', emails).select('email'));
  return rows.map((r) => r.email);
}

/** Whether an employee login uses exactly this e-mail. */
export async function isEmployeeEmail(executor: Executor, email: string): Promise<boolean> {
  return Boolean(await executor(EMPLOYEES).where({ email }).first('id'));
}

/**
 * Deletes the employee's login in a savepoint, so that a failure (records of other add-ons still
 * point at the person) leaves the surrounding transaction usable; the caller decides what then.
 */
export async function deleteEmployeeRecord(trx: Trx, employeeId: string): Promise<void> {
  await trx.transaction(async (savepoint) => {
    await savepoint(EMPLOYEES).where({ id: employeeId }).delete();
  });
}

/** The login of a person who is gone but still referenced: no e-mail of theirs, no password, locked. */
export async function anonymiseEmployeeRecord(executor: Executor, employeeId: string, now: string): Promise<void> {
  await executor(EMPLOYEES)
    .where({ id: employeeId })
    .update({ email: `deleted-${employeeId}@invalid`, password_hash: null, active: false, updated_at: now });
}

/** The customer's employees, filtered, sorted and paged by the criteria. */
export async function searchEmployees(
  executor: Executor,
  customerId: string,
  criteria: Criteria,
): Promise<Page<EmployeeRow>> {
  return searchByCriteria<EmployeeRow>(employeesOfCustomer(executor, customerId), criteria, employeeCriteria, (qb) =>
    selectEmployeeColumns(executor, qb),
  );
}

export async function countEmployeesOfCustomer(executor: Executor, customerId: string): Promise<number> {
  const [count] = await selectRows<{ n: unknown }>(employeesOfCustomer(executor, customerId).count({ n: '*' }));
  return readInt(count?.n);
}

/** One page of the customer's employees by last name, first name and id. */
export async function employeesOfCustomerByName(
  executor: Executor,
  customerId: string,
  limit: number,
  offset: number,
): Promise<EmployeeRow[]> {
  return selectRows<EmployeeRow>(
    selectEmployeeColumns(executor, employeesOfCustomer(executor, customerId))
      .orderBy([{ column: 'e.last_name' }, { column: 'e.first_name' }, { column: 'e.id' }])
      .limit(limit)
      .offset(offset),
  );
}

/** Every employee of the customer, by e-mail when `byEmail`, else in no particular order. */
export async function allEmployeesOfCustomer(
  executor: Executor,
  customerId: string,
  byEmail = false,
): Promise<EmployeeRow[]> {
  const query = selectEmployeeColumns(executor, employeesOfCustomer(executor, customerId));
  if (byEmail) query.orderBy('e.email');
  return selectRows<EmployeeRow>(query);
}
