import type { Knex } from 'knex';
import { readBool, type Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';
import type { LoginIdentity } from '../../host/contract.js';

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
  return ((await executor(REPRESENTATIVES).where({ id }).first()) as RepresentativeRow | undefined) ?? null;
}

export async function findRepresentativeByEmail(executor: Executor, email: string): Promise<RepresentativeRow | null> {
  return ((await executor(REPRESENTATIVES).where({ email: email.trim().toLowerCase() }).first()) as RepresentativeRow | undefined) ?? null;
}

/** Active customers of a sales channel assigned to the representative; the tenant scope of every representative route. */
export function assignedCustomers(executor: Executor, representativeId: string, salesChannelId: string): Knex.QueryBuilder {
  return executor(`${ASSIGNMENTS} as src`)
    .join('customers as c', 'c.id', 'src.customer_id')
    .where('src.sales_representative_id', representativeId)
    .where('c.active', true)
    .where('c.sales_channel_id', salesChannelId);
}

/** The assigned customer ids as a subquery (for whereIn). */
export function assignedCustomerIds(executor: Executor, representativeId: string, salesChannelId: string): Knex.QueryBuilder {
  return assignedCustomers(executor, representativeId, salesChannelId).select('c.id');
}

export async function isAssigned(executor: Executor, representativeId: string, salesChannelId: string, customerId: string): Promise<boolean> {
  return Boolean(await assignedCustomers(executor, representativeId, salesChannelId).where('c.id', customerId).first('c.id'));
}

/** The customer a representative acts for after login: the longest assigned one (ties: the lowest customer number). */
export async function firstAssignedCustomer(executor: Executor, representativeId: string, salesChannelId: string): Promise<string | null> {
  const row = await assignedCustomers(executor, representativeId, salesChannelId).orderBy('src.created_at').orderBy('c.customer_number').orderBy('c.id').first('c.id');
  return row?.id ?? null;
}

export async function representativeOfCustomer(executor: Executor, customerId: string): Promise<RepresentativeRow | null> {
  const row = await executor(`${ASSIGNMENTS} as src`)
    .join(`${REPRESENTATIVES} as r`, 'r.id', 'src.sales_representative_id')
    .where('src.customer_id', customerId)
    .where('r.active', true)
    .first('r.*');
  return (row as RepresentativeRow | undefined) ?? null;
}

export function representativeIdentity(row: RepresentativeRow, customerId: string): LoginIdentity {
  const name = representativeName(row);
  return {
    customerId,
    actor: { type: 'salesRepresentative', id: row.id, name, email: row.email },
    attributes: { salesRepresentativeId: row.id, actorName: name, actorEmail: row.email },
  };
}

/** An e-mail is free for a representative when no representative, employee or customer login uses it. */
export async function loginEmailInUse(executor: Executor, email: string, exceptRepresentativeId?: string): Promise<boolean> {
  const rep = await executor(REPRESENTATIVES)
    .where({ email })
    .modify((q) => (exceptRepresentativeId ? q.whereNot({ id: exceptRepresentativeId }) : q))
    .first('id');
  if (rep) return true;
  if (await executor('b2b_employees').where({ email }).first('id')) return true;
  return Boolean(await executor('customers').where({ email }).first('id'));
}
