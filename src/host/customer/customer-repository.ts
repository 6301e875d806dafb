import { searchByCriteria, type Criteria } from '../../lib/criteria.js';
import { newId } from '../../lib/ids.js';
import { readBool, readJson, selectRows, writeJson, type Executor } from '../../lib/db.js';
import { nowDb } from '../../lib/time.js';
import type {
  CustomerAddress,
  CustomerGroupRef,
  CustomerRef,
  CustomerScope,
  ResultPage,
  SalesChannel,
} from '../../contract/index.js';
import { nextNumber } from '../numbers.js';
import type { AddressRow, CustomerGroupRow, CustomerRow, SalesChannelRow } from './rows.js';
import { CUSTOMER_SEARCH_CRITERIA } from '../../host-kit/customer-search.js';

export { CUSTOMER_SEARCH_CRITERIA } from '../../host-kit/customer-search.js';

/** The customer columns a CustomerRef is built from (sessions read just these, src/host/auth/sessions.ts). */
export const CUSTOMER_REF_COLUMNS = [
  'id',
  'sales_channel_id',
  'customer_number',
  'email',
  'first_name',
  'last_name',
  'company',
  'group_id',
  'tags',
  'active',
] as const;
export type CustomerRefRow = Pick<CustomerRow, (typeof CUSTOMER_REF_COLUMNS)[number]>;

/** The sales channel columns a SalesChannel is built from, with the access key and active flag a request checks. */
export const SALES_CHANNEL_COLUMNS = [
  'id',
  'name',
  'access_key',
  'currency_iso',
  'currency_precision',
  'language_code',
  'time_zone',
  'domains',
  'active',
] as const;
export type SalesChannelRefRow = Pick<SalesChannelRow, (typeof SALES_CHANNEL_COLUMNS)[number]>;

export function toCustomerRef(row: CustomerRefRow): CustomerRef {
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

export function toSalesChannel(row: SalesChannelRefRow): SalesChannel {
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
  const row = await executor<CustomerRow>('customers').where({ id }).first();
  return row ? toCustomerRef(row) : null;
}

export async function getCustomers(executor: Executor, ids: string[]): Promise<CustomerRef[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const byId = new Map<string, CustomerRef>();
  for (let i = 0; i < wanted.length; i += 500) {
    for (const row of await executor<CustomerRow>('customers').whereIn('id', wanted.slice(i, i + 500)))
      byId.set(row.id, toCustomerRef(row));
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const LOOKUP_CHUNK = 500;

/** Rows of `table` whose `column` is one of `values`, read in chunks (bound-parameter limits). */
async function rowsWhereIn<Row>(executor: Executor, table: string, column: string, values: string[]): Promise<Row[]> {
  const unique = [...new Set(values)];
  const rows: Row[] = [];
  for (let i = 0; i < unique.length; i += LOOKUP_CHUNK)
    rows.push(...(await selectRows<Row>(executor(table).whereIn(column, unique.slice(i, i + LOOKUP_CHUNK)))));
  return rows;
}

export async function getCustomersByNumbers(executor: Executor, customerNumbers: string[]): Promise<CustomerRef[]> {
  return (await rowsWhereIn<CustomerRow>(executor, 'customers', 'customer_number', customerNumbers)).map(toCustomerRef);
}

export async function searchCustomers(
  executor: Executor,
  scope: CustomerScope,
  criteria: Criteria,
): Promise<ResultPage<CustomerRef>> {
  const base = executor('customers').whereIn('customers.id', [...new Set(scope.ids)]);
  if (scope.salesChannelId) base.where('customers.sales_channel_id', scope.salesChannelId);
  if (scope.activeOnly) base.where('customers.active', true);
  const page = await searchByCriteria<CustomerRow>(base, criteria, CUSTOMER_SEARCH_CRITERIA, (qb) =>
    qb.select('customers.*'),
  );
  return { total: page.total, page: page.page, limit: page.limit, elements: page.rows.map(toCustomerRef) };
}

export async function defaultAddressIds(
  executor: Executor,
  customerId: string,
): Promise<{ billing: string | null; shipping: string | null }> {
  const row = await executor<CustomerRow>('customers')
    .where({ id: customerId })
    .first('default_billing_address_id', 'default_shipping_address_id');
  return { billing: row?.default_billing_address_id ?? null, shipping: row?.default_shipping_address_id ?? null };
}

export async function getCustomerGroups(executor: Executor, ids: string[]): Promise<CustomerGroupRef[]> {
  const byId = new Map(
    (await rowsWhereIn<CustomerGroupRow>(executor, 'customer_groups', 'id', ids)).map((row) => [
      row.id,
      { id: row.id, name: row.name },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function findCustomerRowByEmail(executor: Executor, email: string): Promise<CustomerRow | undefined> {
  return executor<CustomerRow>('customers').where({ email: email.trim().toLowerCase() }).first();
}

export async function getSalesChannel(executor: Executor, id: string): Promise<SalesChannel | null> {
  const row = await executor<SalesChannelRow>('sales_channels').where({ id }).first();
  return row ? toSalesChannel(row) : null;
}

export async function nextCustomerNumber(executor: Executor): Promise<string> {
  return nextNumber(executor, 'customer', 'C');
}

export async function insertCustomer(
  executor: Executor,
  input: {
    salesChannelId: string;
    email: string;
    passwordHash: string | null;
    firstName: string;
    lastName: string;
    company?: string | null;
    groupId?: string | null;
    tags?: string[];
    customerNumber?: string;
  },
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

export function toAddress(row: AddressRow): CustomerAddress {
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
  const rows = await executor<AddressRow>('customer_addresses')
    .where({ customer_id: customerId })
    .orderBy('created_at')
    .orderBy('id');
  return rows.map(toAddress);
}
