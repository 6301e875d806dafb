import { selectRows, type Executor } from '../../../lib/db.js';
import { UNIT_ADDRESS_DEFAULTS, UNIT_ADDRESSES } from '../units/repository.js';

export type AddressKind = 'billing' | 'shipping';

/** address id → the units it belongs to (addresses without units are absent: company addresses). */
export async function unitsByAddress(
  executor: Executor,
  customerId: string,
  addressIds?: string[],
): Promise<Map<string, string[]>> {
  const query = executor(UNIT_ADDRESSES)
    .where({ customer_id: customerId })
    .orderBy('unit_id')
    .select('address_id', 'unit_id');
  if (addressIds) query.whereIn('address_id', addressIds);
  const map = new Map<string, string[]>();
  for (const row of await selectRows<{ address_id: string; unit_id: string }>(query))
    map.set(row.address_id, [...(map.get(row.address_id) ?? []), row.unit_id]);
  return map;
}

export async function replaceAddressUnits(
  executor: Executor,
  customerId: string,
  addressId: string,
  unitIds: string[],
): Promise<void> {
  await executor(UNIT_ADDRESSES).where({ customer_id: customerId, address_id: addressId }).delete();
  if (unitIds.length)
    await executor(UNIT_ADDRESSES).insert(
      [...new Set(unitIds)].map((unit_id) => ({ address_id: addressId, unit_id, customer_id: customerId })),
    );
}

/** The address is gone from the host: its unit links and the unit defaults naming it go too. */
export async function forgetAddress(executor: Executor, customerId: string, addressId: string): Promise<void> {
  await executor(UNIT_ADDRESSES).where({ customer_id: customerId, address_id: addressId }).delete();
  await executor(UNIT_ADDRESS_DEFAULTS).where({ customer_id: customerId, address_id: addressId }).delete();
}

/** unit id → its default address per kind. */
export async function unitDefaults(
  executor: Executor,
  customerId: string,
): Promise<Map<string, Partial<Record<AddressKind, string>>>> {
  const map = new Map<string, Partial<Record<AddressKind, string>>>();
  for (const row of await selectRows<{ unit_id: string; type: AddressKind; address_id: string }>(
    executor(UNIT_ADDRESS_DEFAULTS).where({ customer_id: customerId }).select('unit_id', 'type', 'address_id'),
  ))
    map.set(row.unit_id, { ...map.get(row.unit_id), [row.type]: row.address_id });
  return map;
}

export async function setUnitDefault(
  executor: Executor,
  customerId: string,
  unitId: string,
  type: AddressKind,
  addressId: string | null,
): Promise<void> {
  await executor(UNIT_ADDRESS_DEFAULTS).where({ unit_id: unitId, type }).delete();
  if (addressId)
    await executor(UNIT_ADDRESS_DEFAULTS).insert({
      unit_id: unitId,
      type,
      address_id: addressId,
      customer_id: customerId,
    });
}
