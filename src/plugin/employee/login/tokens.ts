import { hashSecret, newId, newSecret } from '../../../lib/ids.js';
import { selectRow, type Executor } from '../../../lib/db.js';
import { addSeconds, fromDbTime, nowDb, toDbTime } from '../../../lib/time.js';
import type { ActorType } from '../../../host/contract.js';

const TOKENS = 'b2b_login_tokens';

export type TokenPurpose = 'passwordless-login' | 'password-recovery';

interface TokenRow {
  id: string;
  purpose: TokenPurpose;
  token_hash: string;
  actor_type: ActorType;
  actor_id: string;
  sales_channel_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

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
  const now = new Date();
  const stale = executor(TOKENS).where({
    actor_type: input.actorType,
    actor_id: input.actorId,
    purpose: input.purpose,
  });
  if (input.replacePrevious) await stale.delete();
  else await stale.where('expires_at', '<', toDbTime(now)).delete();
  const secret = newSecret();
  const expiresAt = addSeconds(now, input.ttlSeconds);
  await executor(TOKENS).insert({
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
  const row = await executor<TokenRow>(TOKENS)
    .where({ token_hash: hashSecret(secret), purpose })
    .first();
  const now = nowDb();
  if (!row || row.sales_channel_id !== salesChannelId || row.expires_at <= now) return null;
  if (row.used_at === null) {
    const claimed = await executor(TOKENS).where({ id: row.id }).whereNull('used_at').update({ used_at: now });
    if (claimed === 1) return { actorType: row.actor_type, actorId: row.actor_id };
    const again = await selectRow<Pick<TokenRow, 'used_at'>>(executor(TOKENS).where({ id: row.id }).first('used_at'));
    row.used_at = again?.used_at ?? null;
  }
  return withinReuseWindow(row.used_at, reuseSeconds) ? { actorType: row.actor_type, actorId: row.actor_id } : null;
}

function withinReuseWindow(usedAt: string | null, reuseSeconds: number): boolean {
  if (reuseSeconds <= 0 || usedAt === null) return false;
  return Date.now() - new Date(fromDbTime(usedAt)!).getTime() <= reuseSeconds * 1000;
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
  const row = await executor<TokenRow>(TOKENS)
    .where({ token_hash: hashSecret(secret), purpose })
    .first();
  if (!row || row.sales_channel_id !== salesChannelId) return { state: 'unknown' };
  const actor = { actorType: row.actor_type, actorId: row.actor_id };
  if (row.expires_at <= nowDb()) return { state: 'expired', ...actor };
  if (row.used_at !== null && !withinReuseWindow(row.used_at, reuseSeconds)) return { state: 'used', ...actor };
  return { state: 'usable', ...actor };
}

export async function deleteActorTokens(executor: Executor, actorType: ActorType, actorId: string): Promise<void> {
  await executor(TOKENS).where({ actor_type: actorType, actor_id: actorId }).delete();
}

export const LOGIN_TOKEN_PURGE_JOB = 'employee.login-tokens.purge';
export const LOGIN_TOKEN_PURGE_INTERVAL_SECONDS = 3600;
/** Expired links are kept a day, so a late click still says "expired" rather than "unknown"; then they go. */
export const EXPIRED_TOKEN_RETENTION_SECONDS = 24 * 3600;

/** Deletes login links and recovery tokens that expired more than a day ago; returns how many. */
export async function purgeExpiredTokens(executor: Executor, now = new Date()): Promise<number> {
  return executor(TOKENS)
    .where('expires_at', '<', toDbTime(addSeconds(now, -EXPIRED_TOKEN_RETENTION_SECONDS)))
    .delete();
}
