import { newId } from '../../lib/ids.js';
import { readJson, writeJson, type Executor } from '../../lib/db.js';
import { addSeconds, nowDb, toDbTime } from '../../lib/time.js';
import type { ActorType, LoginIdentity } from '../contract.js';
import { signToken, STORE_AUDIENCE } from './tokens.js';

/** A row of sessions (migrations/host/001) as the drivers return it. */
interface SessionDbRow {
  id: string;
  sales_channel_id: string;
  customer_id: string | null;
  actor_type: ActorType;
  actor_id: string | null;
  attributes: string | null;
  cart_token: string | null;
  created_at: string | Date;
  expires_at: string | Date;
  revoked_at: string | Date | null;
}

export interface SessionRow {
  id: string;
  salesChannelId: string;
  customerId: string | null;
  actorType: ActorType;
  actorId: string | null;
  attributes: Record<string, unknown>;
  cartToken: string | null;
}

export async function createSession(
  executor: Executor,
  secret: string,
  ttlSeconds: number,
  identity: LoginIdentity & { salesChannelId: string },
): Promise<{ token: string; sessionId: string }> {
  const sessionId = newId();
  const now = new Date();
  await executor('sessions').insert({
    id: sessionId,
    sales_channel_id: identity.salesChannelId,
    customer_id: identity.customerId,
    actor_type: identity.actor.type,
    actor_id: identity.actor.id,
    attributes: writeJson(identity.attributes),
    cart_token: null,
    created_at: toDbTime(now),
    expires_at: toDbTime(addSeconds(now, ttlSeconds)),
    revoked_at: null,
  });
  const token = signToken(secret, STORE_AUDIENCE, { sub: identity.actor.id ?? identity.customerId ?? sessionId, jti: sessionId }, ttlSeconds);
  return { token, sessionId };
}

/** A live session: not revoked and not expired. */
export async function findLiveSession(executor: Executor, sessionId: string): Promise<SessionRow | null> {
  const row = await executor<SessionDbRow>('sessions')
    .where({ id: sessionId })
    .whereNull('revoked_at')
    .where('expires_at', '>', nowDb())
    .first();
  if (!row) return null;
  return {
    id: row.id,
    salesChannelId: row.sales_channel_id,
    customerId: row.customer_id,
    actorType: row.actor_type,
    actorId: row.actor_id,
    attributes: readJson<Record<string, unknown>>(row.attributes, {}),
    cartToken: row.cart_token,
  };
}

export async function revokeSession(executor: Executor, sessionId: string): Promise<void> {
  await executor('sessions').where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: nowDb() });
}

export async function revokeActorSessions(executor: Executor, actorType: ActorType, actorId: string): Promise<number> {
  return executor('sessions').where({ actor_type: actorType, actor_id: actorId }).whereNull('revoked_at').update({ revoked_at: nowDb() });
}
