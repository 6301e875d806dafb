import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { forUpdateSkipLocked, inTransaction, selectRows, type Db } from './db.js';
import { nowDb } from './time.js';

/** Names this worker in locked_by columns: host, pid and a random part (several workers may share a process in tests). */
export function newWorkerId(): string {
  return `${hostname().slice(0, 32)}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export interface ClaimSpec {
  table: string;
  /** Narrows a query to the rows that may be claimed now (due, or stale in the running state). */
  claimable(query: Knex.QueryBuilder): void;
  orderBy: string;
  runningState: string;
}

/**
 * Claims up to `limit` rows for this worker in one short transaction: SKIP LOCKED on MySQL/MariaDB,
 * then a conditional update, then a re-read of what this worker really got (safe on SQLite too).
 * The row's `attempts` counts the claim.
 */
/** `Row` is the claimed table's row shape. */
export async function claimRows<Row>(db: Db, spec: ClaimSpec, workerId: string, limit: number): Promise<Row[]> {
  const lockedAt = nowDb();
  return inTransaction(db, async (trx) => {
    const candidates = await selectRows<{ id: string }>(
      forUpdateSkipLocked(
        trx(spec.table)
          .select('id')
          .where((q) => {
            spec.claimable(q);
          })
          .orderBy(spec.orderBy)
          .orderBy('id')
          .limit(limit),
        trx,
      ),
    );
    if (candidates.length === 0) return [];
    const ids = candidates.map((row) => row.id);
    await trx(spec.table)
      .whereIn('id', ids)
      .where((q) => {
        spec.claimable(q);
      })
      .update({
        state: spec.runningState,
        locked_by: workerId,
        locked_at: lockedAt,
        attempts: trx.raw('?? + 1', ['attempts']),
      });
    return selectRows<Row>(
      trx(spec.table).whereIn('id', ids).where({ state: spec.runningState, locked_by: workerId, locked_at: lockedAt }),
    );
  });
}

/** Seconds to wait before attempt n+1 after n failed attempts: 10 s, 20 s, 40 s … at most an hour. */
export function retryDelaySeconds(failedAttempts: number): number {
  return Math.min(3600, 10 * 2 ** Math.max(0, failedAttempts - 1));
}

export function errorText(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.slice(0, 2000);
}
