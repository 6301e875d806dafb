import { Address, Country, type OrderService } from '@vendure/core';
import { selectRow, type Executor } from '../../lib/db.js';
import type { IdMapper } from './ids.js';
import { column, selectAs, table } from './vendure-schema.js';

type CreateAddressInput = Parameters<OrderService['setShippingAddress']>[2];

/** The fields of a Vendure Address an order's address takes (with its Country's code). */
interface OrderAddressRow {
  fullName: string | null;
  company: string | null;
  streetLine1: string;
  streetLine2: string | null;
  city: string | null;
  province: string | null;
  postalCode: string | null;
  phoneNumber: string | null;
  countryCode: string | null;
}

/** A customer's Vendure address (the plugin's id) as the input OrderService takes for an order's address; null when unknown. */
export async function orderAddressInput(
  ids: IdMapper,
  executor: Executor,
  addressId: string,
): Promise<CreateAddressInput | null> {
  const vendureId = ids.toVendure(addressId);
  if (!vendureId) return null;
  const row = await selectRow<OrderAddressRow>(
    executor(table(Address, 'a'))
      .leftJoin(table(Country, 'r'), column(Country, 'id', 'r'), column(Address, 'country', 'a'))
      .where(column(Address, 'id', 'a'), vendureId)
      .first(
        ...selectAs(
          Address,
          'a',
          'fullName',
          'company',
          'streetLine1',
          'streetLine2',
          'city',
          'province',
          'postalCode',
          'phoneNumber',
        ),
        `${column(Country, 'code', 'r')} as countryCode`,
      ),
  );
  if (!row) return null;
  return {
    fullName: row.fullName ?? '',
    company: row.company ?? '',
    streetLine1: row.streetLine1,
    streetLine2: row.streetLine2 ?? '',
    city: row.city ?? '',
    province: row.province ?? '',
    postalCode: row.postalCode ?? '',
    countryCode: row.countryCode ?? '',
    phoneNumber: row.phoneNumber ?? '',
  };
}
