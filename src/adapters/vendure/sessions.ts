import { createHash } from 'node:crypto';
import type { ActorType, HostRuntime } from '../../contract/index.js';
import { hashPassword, verifyPassword } from '../../host-kit/passwords.js';
import { readJson, selectRow, writeJson, type Executor } from '../../lib/db.js';
import { newId, newSecret } from '../../lib/ids.js';
import { addSeconds, now as currentTime, nowDb, toDbTime } from '../../lib/time.js';
import type { AdapterState } from './state.js';

/**
 * Logins Vendure does not know (employees, sales representatives, password-less links) get a
 * plugin-issued context token: a random secret sent as `suite-context-token`, stored only as its
 * sha256 in `suite_host_sessions`. Customers keep using their Vendure session (bearer or cookie).
 */
const SESSIONS = 'suite_host_sessions';

export interface PluginSession {
  id: string;
  salesChannelId: string;
  customerId: string | null;
  actorType: ActorType;
  actorId: string | null;
  attributes: Record<string, unknown>;
}

/** A row of `suite_host_sessions` (the columns the lookup reads). */
interface SessionRow {
  id: string;
  sales_channel_id: string;
  customer_id: string | null;
  actor_type: ActorType;
  actor_id: string | null;
  attributes: unknown;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export async function findLivePluginSession(executor: Executor, token: string): Promise<PluginSession | null> {
  const row = await selectRow<SessionRow>(
    executor(SESSIONS)
      .where({ token_hash: hashOf(token) })
      .whereNull('revoked_at')
      .where('expires_at', '>', nowDb())
      .first(),
  );
  if (!row) return null;
  return {
    id: row.id,
    salesChannelId: row.sales_channel_id,
    customerId: row.customer_id,
    actorType: row.actor_type,
    actorId: row.actor_id,
    attributes: readJson(row.attributes, {}),
  };
}

export async function revokePluginSession(executor: Executor, sessionId: string): Promise<void> {
  await executor(SESSIONS).where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: nowDb() });
}

export function authContract(state: AdapterState): HostRuntime['auth'] {
  return {
    addLoginProvider: (provider) => void state.registries.loginProviders.push(provider),
    addContextEnricher: (enricher) => void state.registries.contextEnrichers.push(enricher),
    // Vendure's requests carry no versions read of ours: plugins read their counters themselves.
    addContextVersion: () => undefined,
    contextVersion: () => undefined,
    async createSession(executor, identity) {
      const token = newSecret();
      const sessionId = newId();
      const now = currentTime();
      await executor(SESSIONS).insert({
        id: sessionId,
        token_hash: hashOf(token),
        sales_channel_id: identity.salesChannelId,
        customer_id: identity.customerId,
        actor_type: identity.actor.type,
        actor_id: identity.actor.id,
        attributes: writeJson({
          ...identity.attributes,
          actorName: identity.actor.name,
          actorEmail: identity.actor.email,
        }),
        created_at: toDbTime(now),
        expires_at: toDbTime(addSeconds(now, state.options.contextTokenTtlSeconds)),
        revoked_at: null,
      });
      return { token, sessionId };
    },
    /** Plugin-issued sessions only: a customer's Vendure sessions are Vendure's (docs/vendure.md). */
    async revokeActorSessions(executor, actorType, actorId) {
      return executor(SESSIONS)
        .where({ actor_type: actorType, actor_id: actorId })
        .whereNull('revoked_at')
        .update({ revoked_at: nowDb() });
    },
    hashPassword,
    verifyPassword,
  };
}
