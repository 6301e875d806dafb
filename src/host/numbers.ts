import type { Knex } from 'knex';
import type { Executor } from '../lib/db.js';
import { forUpdate, selectRow } from '../lib/db.js';

/**
 * Sequential numbers per range (orders, customers, offers, documents). The row is locked for the
 * rest of the caller's transaction on MySQL; SQLite serialises writers anyway.
 */
export async function nextNumber(executor: Executor, range: string, prefix = ''): Promise<string> {
  // Increment and read must share one connection and lock: outside a transaction, open one.
  if (!(executor as Knex.Transaction).isTransaction)
    return executor.transaction((trx) => nextNumber(trx, range, prefix));
  const updated = await executor('number_ranges').where({ name: range }).increment('last_value', 1);
  if (updated === 0) {
    await executor('number_ranges').insert({ name: range, last_value: 0 }).onConflict('name').ignore();
    await executor('number_ranges').where({ name: range }).increment('last_value', 1);
  }
  const row = await selectRow<{ last_value: number | string }>(
    forUpdate(executor('number_ranges').where({ name: range }).first('last_value'), executor),
  );
  if (!row) throw new Error(`number range "${range}" could not be created`);
  return `${prefix}${10000 + Number(row.last_value)}`;
}
