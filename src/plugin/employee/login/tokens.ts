import { hashSecret, newId, newSecret } from '../../../lib/ids.js';
import type { Executor } from '../../../lib/db.js';
import { addSeconds, fromDbTime, now as currentTime, nowDb, nowMs, toDbTime } from '../../../lib/time.js';
import type { ActorType } from '../../../contract/index.js';
import {
  deleteTokensExpiredBefore,
  deleteTokensOf,
  findTokenByHash,
  insertToken,
  markTokenUsed,
  tokenUsedAt,
} from './repository.js';

export type TokenPurpose = 'passwordless-login' | 'password-recovery';

export const LOGIN_LINK_TTL_SECONDS = 30 * 60;
export const RECOVERY_TTL_SECONDS = 2 * 60 * 60;
/** A mail scanner may open a login link before its owner does; the owner can still use it this long after the first use. */
export const SCANNER_REUSE_SECONDS = 60;

/** Issues a one-time secret; only its hash is stored. Expired tokens of the same actor are cleared. */
export async function issueToken(
  executor: Executor,
  input: {
    purpose: TokenPurpose;
    actorType: ActorType;
    actorId: string;
    salesChannelId: string;
    ttlSeconds: number;
    replacePrevious?: boolean;
  },
): Promise<{ secret: string; expiresAt: Date }> {
  const now = currentTime();
  const stale = { actorType: input.actorType, actorId: input.actorId, purpose: input.purpose };
  await deleteTokensOf(executor, stale, input.replacePrevious ? undefined : toDbTime(now));
  const secret = newSecret();
  const expiresAt = addSeconds(now, input.ttlSeconds);
  await insertToken(executor, {
    id: newId(),
    purpose: input.purpose,
    token_hash: hashSecret(secret),
    actor_type: input.actorType,
    actor_id: input.actorId,
    sales_channel_id: input.salesChannelId,
    expires_at: toDbTime(expiresAt),
    used_at: null,
    created_at: toDbTime(now),
  });
  return { secret, expiresAt };
}

/**
 * Uses a token: unknown, expired, from another sales channel or already used (beyond
 * `reuseSeconds` after its first use) → null. The first use is a conditional write, so two
 * concurrent uses of a single-use token cannot both succeed.
 */
export async function consumeToken(
  executor: Executor,
  purpose: TokenPurpose,
  secret: string,
  salesChannelId: string,
  reuseSeconds: number,
): Promise<{ actorType: ActorType; actorId: string } | null> {
  const row = await findTokenByHash(executor, hashSecret(secret), purpose);
  const now = nowDb();
  if (!row || row.sales_channel_id !== salesChannelId || row.expires_at <= now) return null;
  if (row.used_at === null) {
    const claimed = await markTokenUsed(executor, row.id, now);
    if (claimed === 1) return { actorType: row.actor_type, actorId: row.actor_id };
    row.used_at = (await tokenUsedAt(executor, row.id)) ?? null;
  }
  return withinReuseWindow(row.used_at, reuseSeconds) ? { actorType: row.actor_type, actorId: row.actor_id } : null;
}

function withinReuseWindow(usedAt: string | null, reuseSeconds: number): boolean {
  if (reuseSeconds <= 0 || usedAt === null) return false;
  return nowMs() - new Date(fromDbTime(usedAt)!).getTime() <= reuseSeconds * 1000;
}

export type TokenState = 'usable' | 'unknown' | 'expired' | 'used';

/** What consumeToken would make of a secret, without using it (a page showing a confirm button). */
export async function tokenState(
  executor: Executor,
  purpose: TokenPurpose,
  secret: string,
  salesChannelId: string,
  reuseSeconds: number,
): Promise<{ state: TokenState; actorType: ActorType; actorId: string } | { state: 'unknown' }> {
  const row = await findTokenByHash(executor, hashSecret(secret), purpose);
  if (!row || row.sales_channel_id !== salesChannelId) return { state: 'unknown' };
  const actor = { actorType: row.actor_type, actorId: row.actor_id };
  if (row.expires_at <= nowDb()) return { state: 'expired', ...actor };
  if (row.used_at !== null && !withinReuseWindow(row.used_at, reuseSeconds)) return { state: 'used', ...actor };
  return { state: 'usable', ...actor };
}

export const LOGIN_TOKEN_PURGE_JOB = 'employee.login-tokens.purge';
export const LOGIN_TOKEN_PURGE_INTERVAL_SECONDS = 3600;
/** Expired links are kept a day, so a late click still says "expired" rather than "unknown"; then they go. */
export const EXPIRED_TOKEN_RETENTION_SECONDS = 24 * 3600;

/** Deletes login links and recovery tokens that expired more than a day ago; returns how many. */
export async function purgeExpiredTokens(executor: Executor, now = currentTime()): Promise<number> {
  return deleteTokensExpiredBefore(executor, toDbTime(addSeconds(now, -EXPIRED_TOKEN_RETENTION_SECONDS)));
}
