import { readBool, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';
import type { CustomerRef, HostRuntime, LoginIdentity } from '../../host/contract.js';

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

/** An activity joined with its type's names (`ACTIVITY_COLUMNS` in activities.ts). */
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
