import { selectRow, type Db } from '../lib/db.js';
import type { RateLimiter } from '../lib/rate-limit.js';

/** The reference host's rate-limit counters: one row per key and window, so limits hold across app processes. */
export function databaseRateLimiter(db: Db): RateLimiter {
  return {
    async hit(key, windowStart) {
      return db.transaction(async (trx) => {
        const updated = await trx('rate_limit_counters')
          .where({ counter_key: key, window_start: windowStart })
          .increment('hits', 1);
        if (updated === 0) {
          await trx('rate_limit_counters')
            .insert({ counter_key: key, window_start: windowStart, hits: 1 })
            .onConflict(['counter_key', 'window_start'])
            .merge({ hits: trx.raw('rate_limit_counters.hits + 1') });
        }
        const row = await selectRow<{ hits: number | string }>(
          trx('rate_limit_counters').where({ counter_key: key, window_start: windowStart }).first('hits'),
        );
        return Number(row?.hits ?? 1);
      });
    },
  };
}
