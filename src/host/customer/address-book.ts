import { selectRow, type Executor } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import type { AddressInput, CustomerAddress } from '../../contract/index.js';
import { knownCountry } from './countries.js';
import { toAddress } from './customer-repository.js';
import type { AddressRow } from './rows.js';

/** Contract 3.5: the writes of a customer's address book (customers.createAddress, updateAddress, deleteAddress). */

function columnsOf(input: Partial<AddressInput>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  if (input.company !== undefined) columns.company = input.company;
  if (input.firstName !== undefined) columns.first_name = input.firstName;
  if (input.lastName !== undefined) columns.last_name = input.lastName;
  if (input.street !== undefined) columns.street = input.street;
  if (input.zipcode !== undefined) columns.zipcode = input.zipcode;
  if (input.city !== undefined) columns.city = input.city;
  if (input.countryCode !== undefined) columns.country_code = knownCountry(input.countryCode);
  return columns;
}

async function ownAddress(executor: Executor, customerId: string, addressId: string): Promise<AddressRow | null> {
  return (
    (await selectRow<AddressRow>(
      executor('customer_addresses').where({ id: addressId, customer_id: customerId }).first(),
    )) ?? null
  );
}

export async function createAddress(
  executor: Executor,
  customerId: string,
  input: AddressInput,
): Promise<CustomerAddress | null> {
  if (!(await executor('customers').where({ id: customerId }).first('id'))) return null;
  const id = newId();
  await executor('customer_addresses').insert({
    id,
    customer_id: customerId,
    company: null,
    ...columnsOf(input),
    created_at: nowDb(),
  });
  return toAddress((await ownAddress(executor, customerId, id))!);
}

export async function updateAddress(
  executor: Executor,
  customerId: string,
  addressId: string,
  input: Partial<AddressInput>,
): Promise<CustomerAddress | null> {
  if (!(await ownAddress(executor, customerId, addressId))) return null;
  await executor('customer_addresses')
    .where({ id: addressId, customer_id: customerId })
    .update({ ...columnsOf(input), updated_at: nowDb() });
  return toAddress((await ownAddress(executor, customerId, addressId))!);
}

/** Deletes the address and clears it where it was the customer's default (the host then orders without one, as for a customer with none). */
export async function deleteAddress(executor: Executor, customerId: string, addressId: string): Promise<boolean> {
  if (!(await ownAddress(executor, customerId, addressId))) return false;
  await executor('customers')
    .where({ id: customerId, default_billing_address_id: addressId })
    .update({ default_billing_address_id: null });
  await executor('customers')
    .where({ id: customerId, default_shipping_address_id: addressId })
    .update({ default_shipping_address_id: null });
  await executor('customer_addresses').where({ id: addressId, customer_id: customerId }).delete();
  return true;
}
