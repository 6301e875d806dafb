import {
  applyCriteriaFilters,
  escapeLike,
  searchByCriteria,
  type Criteria,
  type CriteriaSpec,
  type Page,
} from '../../lib/criteria.js';
import { likeSql, readInt, readBool, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';
import type { CustomerRef, HostRuntime, LoginIdentity } from '../../contract/index.js';
import { EMPLOYEES, LINKS, selectEmployeeColumns, type EmployeeRow } from '../employee/index.js';

export const REPRESENTATIVES = 'b2b_sales_representatives';
export const ASSIGNMENTS = 'b2b_sales_representative_customers';
export const ACTIVITY_TYPES = 'b2b_customer_activity_types';
export const ACTIVITIES = 'b2b_customer_activities';

export interface RepresentativeRow {
  id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  active: unknown;
  created_at: string;
  updated_at: string | null;
}

export interface ActivityTypeRow {
  id: string;
  technical_name: string;
  name: string;
  position: unknown;
  active: unknown;
  created_at: string;
  updated_at: string | null;
}

/** An activity joined with its type's names (`ACTIVITY_COLUMNS`). */
export interface ActivityRow {
  id: string;
  customer_id: string;
  type_id: string;
  sales_representative_id: string | null;
  employee_id: string | null;
  order_id: string | null;
  subject: string;
  comment: string | null;
  activity_date: string;
  follow_up_date: string | null;
  created_at: string;
  updated_at: string | null;
  type_technical_name: string;
  type_name: string;
}

export interface RepresentativeView {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  active: boolean;
  createdAt: string;
  updatedAt: string | null;
}

export function toRepresentativeView(row: RepresentativeRow): RepresentativeView {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone ?? null,
    active: readBool(row.active),
    createdAt: fromDbTime(row.created_at)!,
    updatedAt: fromDbTime(row.updated_at),
  };
}

export function representativeName(row: { first_name: string; last_name: string }): string {
  return `${row.first_name} ${row.last_name}`.trim();
}

export async function findRepresentative(executor: Executor, id: string): Promise<RepresentativeRow | null> {
  return (await selectRow<RepresentativeRow>(executor(REPRESENTATIVES).where({ id }).first())) ?? null;
}

export async function findRepresentativeByEmail(executor: Executor, email: string): Promise<RepresentativeRow | null> {
  return (
    (await selectRow<RepresentativeRow>(
      executor(REPRESENTATIVES).where({ email: email.trim().toLowerCase() }).first(),
    )) ?? null
  );
}

/** A customer a representative may act for: active and of the sales channel the request is in. */
function inScope(customer: CustomerRef, salesChannelId: string): boolean {
  return customer.active && customer.salesChannelId === salesChannelId;
}

/**
 * The representative's assigned customers that are active and belong to the sales channel, the
 * longest assigned first: the tenant scope of every representative route.
 */
export async function assignedCustomers(
  host: HostRuntime,
  executor: Executor,
  representativeId: string,
  salesChannelId: string,
): Promise<Array<CustomerRef & { assignedAt: string }>> {
  const rows = await selectRows<{ customer_id: string; created_at: string }>(
    executor(ASSIGNMENTS)
      .where('sales_representative_id', representativeId)
      .orderBy('created_at')
      .orderBy('customer_id')
      .select('customer_id', 'created_at'),
  );
  const assignedAt = new Map(rows.map((row) => [row.customer_id, fromDbTime(row.created_at)!]));
  const customers = await host.customers.getMany(
    executor,
    rows.map((row) => row.customer_id),
  );
  return customers
    .filter((customer) => inScope(customer, salesChannelId))
    .map((customer) => ({ ...customer, assignedAt: assignedAt.get(customer.id)! }));
}

export async function assignedCustomerIds(
  host: HostRuntime,
  executor: Executor,
  representativeId: string,
  salesChannelId: string,
): Promise<string[]> {
  return (await assignedCustomers(host, executor, representativeId, salesChannelId)).map((customer) => customer.id);
}

/** Whether the customer (already loaded) is assigned to the representative and in scope. */
export async function isAssignedCustomer(
  executor: Executor,
  representativeId: string,
  salesChannelId: string,
  customer: CustomerRef,
): Promise<boolean> {
  if (!inScope(customer, salesChannelId)) return false;
  return Boolean(
    await executor(ASSIGNMENTS)
      .where({ sales_representative_id: representativeId, customer_id: customer.id })
      .first('id'),
  );
}

export async function isAssigned(
  host: HostRuntime,
  executor: Executor,
  representativeId: string,
  salesChannelId: string,
  customerId: string,
): Promise<boolean> {
  if (
    !(await executor(ASSIGNMENTS)
      .where({ sales_representative_id: representativeId, customer_id: customerId })
      .first('id'))
  )
    return false;
  const customer = await host.customers.get(executor, customerId);
  return Boolean(customer && inScope(customer, salesChannelId));
}

/** The customer a representative acts for after login: the longest assigned one (ties: the lowest customer number). */
export async function firstAssignedCustomer(
  host: HostRuntime,
  executor: Executor,
  representativeId: string,
  salesChannelId: string,
): Promise<string | null> {
  const customers = await assignedCustomers(host, executor, representativeId, salesChannelId);
  const [first] = customers.sort(
    (a, b) => compare(a.assignedAt, b.assignedAt) || compare(a.customerNumber, b.customerNumber) || compare(a.id, b.id),
  );
  return first?.id ?? null;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export async function representativeOfCustomer(
  executor: Executor,
  customerId: string,
): Promise<RepresentativeRow | null> {
  const row = await selectRow<RepresentativeRow>(
    executor(`${ASSIGNMENTS} as src`)
      .join(`${REPRESENTATIVES} as r`, 'r.id', 'src.sales_representative_id')
      .where('src.customer_id', customerId)
      .where('r.active', true)
      .first('r.*'),
  );
  return row ?? null;
}

/** The login of a representative acting for the customer, or for none (null). */
export function representativeIdentity(row: RepresentativeRow, customerId: string | null): LoginIdentity {
  const name = representativeName(row);
  return {
    customerId,
    actor: { type: 'salesRepresentative', id: row.id, name, email: row.email },
    attributes: { salesRepresentativeId: row.id, actorName: name, actorEmail: row.email },
  };
}

/** An e-mail is free for a representative when no representative, employee or customer login uses it. */
export async function loginEmailInUse(
  host: HostRuntime,
  executor: Executor,
  email: string,
  exceptRepresentativeId?: string,
): Promise<boolean> {
  const representatives = executor(REPRESENTATIVES).where({ email });
  if (exceptRepresentativeId) representatives.whereNot({ id: exceptRepresentativeId });
  if (await selectRow<{ id: string }>(representatives.first('id'))) return true;
  if (await executor('b2b_employees').where({ email }).first('id')) return true;
  return Boolean(await host.customers.findByEmail(executor, email));
}

/** The customers were deleted by the host (contract event): their assignment and activities go with them. */
export async function deleteCustomersRepresentativeData(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(ASSIGNMENTS).whereIn('customer_id', customerIds).delete();
  await executor(ACTIVITIES).whereIn('customer_id', customerIds).delete();
}

/** A new row of b2b_sales_representatives. */
export type NewRepresentativeRow = Omit<RepresentativeRow, 'updated_at'>;

/** The columns of a representative a change writes. */
export type RepresentativeChanges = Partial<
  Pick<RepresentativeRow, 'email' | 'password_hash' | 'first_name' | 'last_name' | 'phone' | 'active'>
> & { updated_at: string };

const representativeSearch: CriteriaSpec = {
  fields: {},
  termColumns: ['email', 'first_name', 'last_name'],
  defaultSort: [],
  idColumn: 'id',
};

/** One page of representatives by last name, first name and id; the term searches e-mail and name. */
export async function representativesPage(
  executor: Executor,
  term: string | undefined,
  limit: number,
  page: number,
): Promise<{ total: number; rows: RepresentativeRow[] }> {
  const base = applyCriteriaFilters(executor(REPRESENTATIVES), { term }, representativeSearch);
  const [count] = await selectRows<{ n: unknown }>(base.clone().count({ n: '*' }));
  const rows = await selectRows<RepresentativeRow>(
    base
      .clone()
      .orderBy('last_name')
      .orderBy('first_name')
      .orderBy('id')
      .limit(limit)
      .offset((page - 1) * limit),
  );
  return { total: readInt(count?.n), rows };
}

export async function insertRepresentative(executor: Executor, row: NewRepresentativeRow): Promise<void> {
  await executor(REPRESENTATIVES).insert(row);
}

export async function updateRepresentative(
  executor: Executor,
  id: string,
  changes: RepresentativeChanges,
): Promise<void> {
  await executor(REPRESENTATIVES).where({ id }).update(changes);
}

export async function deleteRepresentative(executor: Executor, id: string): Promise<void> {
  await executor(REPRESENTATIVES).where({ id }).delete();
}

/** The ids of the representative's customers (assigned, in scope or not), the longest assigned first. */
export async function customerIdsAssignedTo(executor: Executor, representativeId: string): Promise<string[]> {
  const rows = await selectRows<{ customer_id: string }>(
    executor(ASSIGNMENTS)
      .where({ sales_representative_id: representativeId })
      .orderBy('created_at')
      .orderBy('customer_id')
      .select('customer_id'),
  );
  return rows.map((row) => row.customer_id);
}

/** Whether any representative looks after the customer. */
export async function hasAssignment(executor: Executor, customerId: string): Promise<boolean> {
  return Boolean(await executor(ASSIGNMENTS).where({ customer_id: customerId }).first('id'));
}

/** Moves the customer's assignment of another representative to this one (as assigned at `now`); how many moved. */
export async function moveAssignment(
  executor: Executor,
  customerId: string,
  representativeId: string,
  now: string,
): Promise<number> {
  return executor(ASSIGNMENTS)
    .where({ customer_id: customerId })
    .whereNot({ sales_representative_id: representativeId })
    .update({ sales_representative_id: representativeId, created_at: now });
}

export async function insertAssignment(
  executor: Executor,
  row: { id: string; sales_representative_id: string; customer_id: string; created_at: string },
): Promise<void> {
  await executor(ASSIGNMENTS).insert(row);
}

/** Takes the customer from the representative; how many assignments were deleted (0: it was not theirs). */
export async function deleteAssignment(
  executor: Executor,
  representativeId: string,
  customerId: string,
): Promise<number> {
  return executor(ASSIGNMENTS).where({ sales_representative_id: representativeId, customer_id: customerId }).delete();
}

/** A new row of b2b_customer_activity_types. */
export type NewActivityTypeRow = Omit<ActivityTypeRow, 'updated_at'>;

/** The columns of an activity type a change writes. */
export type ActivityTypeChanges = Partial<Pick<ActivityTypeRow, 'technical_name' | 'name' | 'position' | 'active'>> & {
  updated_at: string;
};

/** The search of activity types (the representative's list of them). */
export const activityTypeCriteria: CriteriaSpec = {
  fields: {},
  termColumns: ['t.name', 't.technical_name'],
  defaultSort: [
    { column: 't.position', order: 'asc' },
    { column: 't.id', order: 'asc' },
  ],
  idColumn: 't.id',
};

export async function findActivityType(executor: Executor, id: string): Promise<ActivityTypeRow | undefined> {
  return selectRow<ActivityTypeRow>(executor(ACTIVITY_TYPES).where({ id }).first());
}

/** One page of every activity type (inactive ones too), by position and id. */
export async function activityTypesPage(
  executor: Executor,
  limit: number,
  page: number,
): Promise<{ total: number; rows: ActivityTypeRow[] }> {
  const [count] = await selectRows<{ n: unknown }>(executor(ACTIVITY_TYPES).count({ n: '*' }));
  const rows = await selectRows<ActivityTypeRow>(
    executor(ACTIVITY_TYPES)
      .orderBy('position')
      .orderBy('id')
      .limit(limit)
      .offset((page - 1) * limit),
  );
  return { total: readInt(count?.n), rows };
}

/** The active activity types, by position and id. */
export async function activeActivityTypes(executor: Executor): Promise<ActivityTypeRow[]> {
  return selectRows<ActivityTypeRow>(
    executor(ACTIVITY_TYPES).where({ active: true }).orderBy('position').orderBy('id'),
  );
}

/** Activity types by the criteria (activityTypeCriteria). */
export async function searchActivityTypes(executor: Executor, criteria: Criteria): Promise<Page<ActivityTypeRow>> {
  return searchByCriteria<ActivityTypeRow>(executor(`${ACTIVITY_TYPES} as t`), criteria, activityTypeCriteria, (qb) =>
    qb.select('t.*'),
  );
}

export async function insertActivityType(executor: Executor, row: NewActivityTypeRow): Promise<void> {
  await executor(ACTIVITY_TYPES).insert(row);
}

/** How many activity types were changed (0: no such type). */
export async function updateActivityType(
  executor: Executor,
  id: string,
  changes: ActivityTypeChanges,
): Promise<number> {
  return executor(ACTIVITY_TYPES).where({ id }).update(changes);
}

/** Type id → how many activities of the customers have that type (types without any are left out). */
export async function activityCountsByType(
  executor: Executor,
  typeIds: string[],
  customerIds: string[],
): Promise<Map<string, number>> {
  const counts = await selectRows<{ type_id: string; n: unknown }>(
    executor(ACTIVITIES)
      .whereIn('type_id', typeIds)
      .whereIn('customer_id', customerIds)
      .groupBy('type_id')
      .select('type_id', executor.raw('COUNT(*) as n')),
  );
  return new Map(counts.map((c) => [c.type_id, readInt(c.n)]));
}

/** The search of activities (the representative's list of them). */
export const activityCriteria: CriteriaSpec = {
  fields: {
    id: { column: 'a.id', type: 'id' },
    customerId: { column: 'a.customer_id', type: 'id' },
    typeId: { column: 'a.type_id', type: 'id' },
    activityDate: { column: 'a.activity_date', type: 'date' },
  },
  termColumns: ['a.subject', 'a.comment'],
  defaultSort: [
    { column: 'a.activity_date', order: 'desc' },
    { column: 'a.id', order: 'desc' },
  ],
  idColumn: 'a.id',
};

const ACTIVITY_COLUMNS = ['a.*', 't.technical_name as type_technical_name', 't.name as type_name'];

/** One activity with its type (of any customer: the caller checks the scope). */
export async function findActivity(executor: Executor, id: string): Promise<ActivityRow | undefined> {
  return selectRow<ActivityRow>(
    executor(`${ACTIVITIES} as a`)
      .join(`${ACTIVITY_TYPES} as t`, 't.id', 'a.type_id')
      .where('a.id', id)
      .first(ACTIVITY_COLUMNS),
  );
}

/** Activities of the given customers (the representative's assigned ones: their tenant scope), with their type, by the criteria (activityCriteria). */
export async function searchActivities(
  executor: Executor,
  customerIds: string[],
  criteria: Criteria,
): Promise<Page<ActivityRow>> {
  return searchByCriteria<ActivityRow>(
    executor(`${ACTIVITIES} as a`)
      .join(`${ACTIVITY_TYPES} as t`, 't.id', 'a.type_id')
      .whereIn('a.customer_id', customerIds),
    criteria,
    activityCriteria,
    (qb) => qb.select(ACTIVITY_COLUMNS),
  );
}

/** The columns of an activity that a create or an update writes. */
export type ActivityColumns = Record<string, unknown>;

export async function insertActivity(executor: Executor, row: ActivityColumns): Promise<void> {
  await executor(ACTIVITIES).insert(row);
}

export async function updateActivity(executor: Executor, id: string, columns: ActivityColumns): Promise<void> {
  await executor(ACTIVITIES).where({ id }).update(columns);
}

export async function deleteActivity(executor: Executor, id: string): Promise<void> {
  await executor(ACTIVITIES).where({ id }).delete();
}

/** Whether the employee works for any of the customers. */
export async function employeeLinkedToAny(
  executor: Executor,
  employeeId: string,
  customerIds: string[],
): Promise<boolean> {
  const linked = await selectRow<{ id: string }>(
    executor(LINKS).where('employee_id', employeeId).whereIn('customer_id', customerIds).first('id'),
  );
  return Boolean(linked);
}

/** An employee row as the employee add-on reads it, with the customer of the link. */
export type LinkedEmployeeRow = EmployeeRow & { customer_id: string };

/**
 * Employees linked to any of the customers, one row per employee–customer link, by the criteria
 * without its term. A term matches the spec's term columns (LIKE, as on every database) or a link
 * to one of `customerIdsOfTerm` (the customers whose company matched it, read from the host).
 */
export async function searchLinkedEmployees(
  executor: Executor,
  customerIds: string[],
  criteria: Omit<Criteria, 'term'>,
  spec: CriteriaSpec,
  term?: { text: string; customerIdsOfTerm: string[] },
): Promise<Page<LinkedEmployeeRow>> {
  const base = executor(`${LINKS} as ec`)
    .join(`${EMPLOYEES} as e`, 'e.id', 'ec.employee_id')
    .leftJoin('b2b_employee_roles as r', 'r.id', 'ec.role_id')
    .whereIn('ec.customer_id', customerIds);
  if (term) {
    const pattern = `%${escapeLike(term.text)}%`;
    base.where((q) => {
      for (const column of spec.termColumns ?? []) q.orWhereRaw(likeSql(q), [column, pattern]);
      if (term.customerIdsOfTerm.length) q.orWhereIn('ec.customer_id', term.customerIdsOfTerm);
    });
  }
  return searchByCriteria<LinkedEmployeeRow>(base, criteria, spec, (qb) =>
    selectEmployeeColumns(executor, qb).select('ec.customer_id'),
  );
}
