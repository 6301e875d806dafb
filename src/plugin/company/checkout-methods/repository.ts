import type { CheckoutMethodKind } from '../../../contract/index.js';
import { readJson, selectRows, writeJson, type Executor } from '../../../lib/db.js';
import { nowDb } from '../../../lib/time.js';

/** A unit's setting (migration 029): it goes with the unit (cascade). */
export const UNIT_CHECKOUT_METHODS = 'b2b_unit_checkout_methods';

/** The methods of each kind set on the company's units: unit id → kind → allowed technical names. */
export type MethodSettings = Map<string, Partial<Record<CheckoutMethodKind, string[]>>>;

export async function methodSettings(executor: Executor, customerId: string): Promise<MethodSettings> {
  const rows = await selectRows<{ unit_id: string; kind: CheckoutMethodKind; technical_names: unknown }>(
    executor(UNIT_CHECKOUT_METHODS).where({ customer_id: customerId }).select('unit_id', 'kind', 'technical_names'),
  );
  const settings: MethodSettings = new Map();
  for (const row of rows)
    settings.set(row.unit_id, {
      ...settings.get(row.unit_id),
      [row.kind]: readJson<string[]>(row.technical_names, []),
    });
  return settings;
}

/** Sets (names) or clears (null) what a unit allows of a kind. */
export async function saveMethodSetting(
  executor: Executor,
  customerId: string,
  unitId: string,
  kind: CheckoutMethodKind,
  names: string[] | null,
): Promise<void> {
  await executor(UNIT_CHECKOUT_METHODS).where({ unit_id: unitId, kind }).delete();
  if (names)
    await executor(UNIT_CHECKOUT_METHODS).insert({
      unit_id: unitId,
      kind,
      customer_id: customerId,
      technical_names: writeJson(names),
      updated_at: nowDb(),
    });
}
