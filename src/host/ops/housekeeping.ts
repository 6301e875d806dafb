import type { Db } from '../../lib/db.js';
import { addSeconds, now as currentTime, toDbTime } from '../../lib/time.js';
import type { HostRuntime } from '../../contract/index.js';

export const HOUSEKEEPING_JOB = 'housekeeping.purge';
export const HOUSEKEEPING_INTERVAL_SECONDS = 15 * 60;
/** Rate-limit windows are at most a day long; older counters can no longer limit anything. */
export const RATE_LIMIT_COUNTER_RETENTION_SECONDS = 24 * 3600;
/** A finished Idempotency-Key replays its first response for at least this long, then it is forgotten. */
export const IDEMPOTENCY_REPLAY_WINDOW_SECONDS = 24 * 3600;
/** A key still 'running' after this long belongs to a request whose process died; it is released. */
export const IDEMPOTENCY_ABANDONED_SECONDS = 3600;

/**
 * Deletes what can no longer matter, so no table grows without bound: expired rate-limit counters,
 * finished idempotency keys past their replay window (and abandoned running ones), expired and
 * revoked sessions, expired console sessions of operators (admin_console_sessions). Returns the rows deleted per table. (Login links are the employee add-on's, which purges its own.)
 */
export async function purgeExpired(db: Db, now = currentTime()): Promise<Record<string, number>> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const rateLimitCounters = await db('rate_limit_counters')
    .where('window_start', '<', nowSeconds - RATE_LIMIT_COUNTER_RETENTION_SECONDS)
    .delete();
  const idempotencyKeys =
    (await db('idempotency_keys')
      .where('state', 'done')
      .where('created_at', '<', toDbTime(addSeconds(now, -IDEMPOTENCY_REPLAY_WINDOW_SECONDS)))
      .delete()) +
    (await db('idempotency_keys')
      .where('state', 'running')
      .where('created_at', '<', toDbTime(addSeconds(now, -IDEMPOTENCY_ABANDONED_SECONDS)))
      .delete());
  const sessions = await db('sessions')
    .where((expired) => {
      expired.where('expires_at', '<', toDbTime(now)).orWhereNotNull('revoked_at');
    })
    .delete();
  const consoleSessions = await db('admin_console_sessions').where('expires_at', '<=', toDbTime(now)).delete();
  return {
    rate_limit_counters: rateLimitCounters,
    idempotency_keys: idempotencyKeys,
    sessions,
    admin_console_sessions: consoleSessions,
  };
}

/** The schedule: every 15 minutes on one process (schedules are claimed), logged when it deleted anything. */
export function registerHousekeeping(runtime: HostRuntime): void {
  runtime.jobs.register(HOUSEKEEPING_JOB, async () => {
    const deleted = await purgeExpired(runtime.db);
    if (Object.values(deleted).some((n) => n > 0)) runtime.log.info({ deleted }, 'housekeeping purged expired rows');
  });
  runtime.jobs.schedule(HOUSEKEEPING_JOB, HOUSEKEEPING_INTERVAL_SECONDS);
}
