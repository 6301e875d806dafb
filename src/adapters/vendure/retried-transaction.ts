import type { RequestContext, TransactionalConnection } from '@vendure/core';
import { isRetryableDbError, retryOnContention } from '../../lib/db.js';

/** A deadlock (or lock wait timeout) inside the work, carried past Vendure's retry to ours. */
class RetryTransaction extends Error {
  constructor(readonly failure: unknown) {
    super('the transaction lost a lock conflict');
  }
}

/**
 * `connection.withTransaction`, with deadlocks retried as the reference host's `inTransaction`
 * retries them (`retryOnContention`): the whole unit of work again, in a new transaction; then the
 * driver's error, which the error middleware answers 409 (contention). Vendure's own retry of a
 * deadlock subscribes again to the work's one rejected promise, so it fails five times at once and
 * ends in rxjs' EmptyError ("no elements in sequence"), a 500: the error is wrapped inside the work
 * so Vendure rolls back and lets it through, and unwrapped for our retry. `work` must be safe to run again.
 */
export function retriedVendureTransaction<T>(
  connection: TransactionalConnection,
  ctx: RequestContext,
  work: (ctx: RequestContext) => Promise<T>,
  attempts = 4,
): Promise<T> {
  return retryOnContention(async () => {
    try {
      return await connection.withTransaction(ctx, async (inTransaction) => {
        try {
          return await work(inTransaction);
        } catch (error) {
          throw isRetryableDbError(error) ? new RetryTransaction(error) : error;
        }
      });
    } catch (error) {
      throw error instanceof RetryTransaction ? error.failure : error;
    }
  }, attempts);
}
