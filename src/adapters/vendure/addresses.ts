import type { OrderService } from '@vendure/core';
import { selectRow, type Executor } from '../../lib/db.js';
import type { IdMapper } from './ids.js';

type CreateAddressInput = Parameters<OrderService['setShippingAddress']>[2];

/** The fields of a row of Vendure's `address` table an order's address takes (countries are `region` rows). */
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
    executor('address as a')
      .leftJoin('region as r', 'r.id', 'a.countryId')
      .where('a.id', vendureId)
      .first(
        'a.fullName',
        'a.company',
        'a.streetLine1',
        'a.streetLine2',
        'a.city',
        'a.province',
        'a.postalCode',
        'a.phoneNumber',
        'r.code as countryCode',
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
