import type { Knex } from 'knex';
import { dialectOf, type Executor } from './db.js';

/**
 * The rows of a SELECT written as SQL text: for hot statements of a fixed shape, where building the
 * query with knex costs more CPU than the database spends running it. knex answers a raw statement
 * in the driver's form (rows from better-sqlite3, `[rows, fields]` from mysql2); this answers rows.
 */
export async function selectRaw<Row>(executor: Executor, sql: string, bindings: readonly Knex.RawBinding[]): Promise<Row[]> {
  const result: unknown = await executor.raw(sql, bindings);
  return (dialectOf(executor) === 'mysql' ? (result as [Row[], unknown])[0] : result) as Row[];
}
