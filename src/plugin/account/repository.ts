import { searchByCriteria, type Criteria, type CriteriaSpec, type Page } from '../../lib/criteria.js';
import { isDuplicateKeyError, recoverable, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';

export const SNIPPETS = 'b2b_snippets';
const SETTINGS = 'b2b_express_checkout_settings';

const snippetCriteria: CriteriaSpec = {
  fields: { key: { column: 's.snippet_key', type: 'string' } },
  termColumns: ['s.snippet_key', 's.value'],
  defaultSort: [{ column: 's.snippet_key', order: 'asc' }],
  idColumn: 's.id',
};

export interface SnippetRow {
  snippet_key: string;
  value: string;
}

/** Whether any snippet is kept in the language. */
export async function hasSnippetsIn(executor: Executor, language: string): Promise<boolean> {
  return Boolean(await executor(SNIPPETS).where({ language }).first('id'));
}

/** Every snippet of the language. */
export async function snippetsIn(executor: Executor, language: string): Promise<SnippetRow[]> {
  return selectRows<SnippetRow>(executor(SNIPPETS).where({ language }).select('snippet_key', 'value'));
}

/** One page of the language's snippets, filtered and sorted by the criteria. */
export async function searchSnippets(
  executor: Executor,
  language: string,
  criteria: Criteria,
): Promise<Page<SnippetRow>> {
  return searchByCriteria<SnippetRow>(
    executor(`${SNIPPETS} as s`).where('s.language', language),
    criteria,
    snippetCriteria,
    (qb) => qb.select('s.snippet_key', 's.value'),
  );
}

/** The buyer whose express checkout settings a row holds: a login of one customer. */
export interface CheckoutSettingOwner {
  customer_id: string;
  actor_type: string;
  actor_id: string;
}

/** A row of the settings table. */
export interface CheckoutSettingRow {
  enabled: unknown;
  default_payment_method: string | null;
  default_shipping_method: string | null;
  default_billing_address_id: string | null;
  default_shipping_address_id: string | null;
}

export async function findCheckoutSetting(
  executor: Executor,
  owner: CheckoutSettingOwner,
): Promise<CheckoutSettingRow | undefined> {
  return selectRow<CheckoutSettingRow>(executor(SETTINGS).where(owner).first());
}

/** Writes the columns onto the owner's row, inserting it on the first write. */
export async function saveCheckoutSetting(
  executor: Executor,
  owner: CheckoutSettingOwner,
  columns: Record<string, unknown>,
  now: string,
): Promise<void> {
  const update = () =>
    executor(SETTINGS)
      .where(owner)
      .update({ ...columns, updated_at: now });
  if (await update()) return;
  try {
    await recoverable(executor, (savepoint) =>
      savepoint(SETTINGS).insert({ id: newId(), ...owner, ...columns, created_at: now }),
    );
  } catch (error) {
    // A concurrent first PATCH inserted the row: apply ours on top of it.
    if (!isDuplicateKeyError(error)) throw error;
    await update();
  }
}

/** The customers were deleted by the host (contract event): their express checkout settings go with them. */
export async function deleteCustomersCheckoutSettings(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(SETTINGS).whereIn('customer_id', customerIds).delete();
}
