import { selectRow, type Executor } from '../../../lib/db.js';
import type { ActorType } from '../../../contract/index.js';
import type { TokenPurpose } from './tokens.js';

const TOKENS = 'b2b_login_tokens';

export interface TokenRow {
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

/** The actor's tokens of one purpose: all of them, or those that expired before `expiredBefore`. */
export async function deleteTokensOf(
  executor: Executor,
  of: { actorType: ActorType; actorId: string; purpose: TokenPurpose },
  expiredBefore?: string,
): Promise<void> {
  const query = executor(TOKENS).where({ actor_type: of.actorType, actor_id: of.actorId, purpose: of.purpose });
  if (expiredBefore !== undefined) query.where('expires_at', '<', expiredBefore);
  await query.delete();
}

export async function insertToken(executor: Executor, row: TokenRow): Promise<void> {
  await executor(TOKENS).insert(row);
}

export async function findTokenByHash(
  executor: Executor,
  tokenHash: string,
  purpose: TokenPurpose,
): Promise<TokenRow | undefined> {
  return executor<TokenRow>(TOKENS).where({ token_hash: tokenHash, purpose }).first();
}

/** Marks an unused token used (a conditional write); the number of rows changed (0: used already). */
export async function markTokenUsed(executor: Executor, id: string, now: string): Promise<number> {
  return executor(TOKENS).where({ id }).whereNull('used_at').update({ used_at: now });
}

/** When the token was first used (null: not yet; undefined: no such token). */
export async function tokenUsedAt(executor: Executor, id: string): Promise<string | null | undefined> {
  const row = await selectRow<Pick<TokenRow, 'used_at'>>(executor(TOKENS).where({ id }).first('used_at'));
  return row?.used_at;
}

export async function deleteActorTokens(executor: Executor, actorType: ActorType, actorId: string): Promise<void> {
  await executor(TOKENS).where({ actor_type: actorType, actor_id: actorId }).delete();
}

/** Deletes the tokens that expired before the instant; returns how many. */
export async function deleteTokensExpiredBefore(executor: Executor, before: string): Promise<number> {
  return executor(TOKENS).where('expires_at', '<', before).delete();
}
