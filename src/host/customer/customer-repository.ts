import { newId } from '../../lib/ids.js';
import { readBool, readJson, writeJson, type Executor } from '../../lib/db.js';
import { nowDb } from '../../lib/time.js';
import type { CustomerRef, SalesChannel } from '../contract.js';
import { nextNumber } from '../numbers.js';

export function toCustomerRef(row: Record<string, any>): CustomerRef {
  return {
    id: row.id,
    salesChannelId: row.sales_channel_id,
    customerNumber: row.customer_number,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    company: row.company ?? null,
    groupId: row.group_id ?? null,
    tags: readJson<string[]>(row.tags, []),
    active: readBool(row.active),
  };
}

export function toSalesChannel(row: Record<string, any>): SalesChannel {
  return {
    id: row.id,
    name: row.name,
    currencyIso: row.currency_iso,
    currencyPrecision: Number(row.currency_precision),
    languageCode: row.language_code,
    timeZone: row.time_zone,
    domains: readJson<string[]>(row.domains, []),
  };
}

export async function getCustomer(executor: Executor, id: string): Promise<CustomerRef | null> {
  const row = await executor('customers').where({ id }).first();
  return row ? toCustomerRef(row) : null;
}

export async function getCustomers(executor: Executor, ids: string[]): Promise<CustomerRef[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const byId = new Map<string, CustomerRef>();
  for (let i = 0; i < wanted.length; i += 500) {
    for (const row of await executor('customers').whereIn('id', wanted.slice(i, i + 500))) byId.set(row.id, toCustomerRef(row));
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function findCustomerRowByEmail(executor: Executor, email: string): Promise<Record<string, any> | undefined> {
  return executor('customers').where({ email: email.trim().toLowerCase() }).first();
}

export async function getSalesChannel(executor: Executor, id: string): Promise<SalesChannel | null> {
  const row = await executor('sales_channels').where({ id }).first();
  return row ? toSalesChannel(row) : null;
}

export async function nextCustomerNumber(executor: Executor): Promise<string> {
  return nextNumber(executor, 'customer', 'C');
}

export async function insertCustomer(
  executor: Executor,
  input: { salesChannelId: string; email: string; passwordHash: string | null; firstName: string; lastName: string; company?: string | null; groupId?: string | null; tags?: string[]; customerNumber?: string },
): Promise<CustomerRef> {
  const id = newId();
  await executor('customers').insert({
    id,
    sales_channel_id: input.salesChannelId,
    group_id: input.groupId ?? null,
    customer_number: input.customerNumber ?? (await nextCustomerNumber(executor)),
    email: input.email.trim().toLowerCase(),
    password_hash: input.passwordHash,
    first_name: input.firstName,
    last_name: input.lastName,
    company: input.company ?? null,
    tags: writeJson(input.tags ?? []),
    active: true,
    created_at: nowDb(),
  });
  return (await getCustomer(executor, id))!;
}

export function toAddress(row: Record<string, any>): Record<string, unknown> & { id: string } {
  return {
    id: row.id,
    company: row.company ?? null,
    firstName: row.first_name,
    lastName: row.last_name,
    street: row.street,
    zipcode: row.zipcode,
    city: row.city,
    countryCode: row.country_code,
  };
}

export async function listAddresses(executor: Executor, customerId: string) {
  const rows = await executor('customer_addresses').where({ customer_id: customerId }).orderBy('created_at').orderBy('id');
  return rows.map(toAddress);
}
