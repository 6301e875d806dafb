import type { Request } from 'express';
import { readBool, selectRow } from '../../lib/db.js';
import { hashSecret, newId, newSecret } from '../../lib/ids.js';
import { now as currentTime, nowDb, toDbTime } from '../../lib/time.js';
import type { HostInternals } from '../internals.js';
import { adminApiDefinition } from '../auth/admin-context.js';
import { burnPasswordTime, verifyPassword } from '../../host-kit/passwords.js';
import {
  CONSOLE_PATH,
  createConsoleServer,
  type ConsoleServer,
  type ConsoleSessions,
} from '../../host-kit/console-server.js';

export { CONSOLE_PATH };
export type ConsoleModule = ConsoleServer;

const SESSION_TTL_SECONDS = 8 * 3600;

/**
 * The reference host's console sessions: its admin users (`admin_users`, the Admin API's `password`
 * grant), a session row per login keeping only the token's SHA-256 and the session's CSRF token
 * (`admin_console_sessions`), the role from `admin_users.read_only`.
 */
function adminUserSessions(internals: HostInternals): ConsoleSessions {
  const { db } = internals;
  return {
    async find(token) {
      const row = await selectRow<{
        id: string;
        csrf_token: string;
        user_id: string;
        username: string;
        active: unknown;
        read_only: unknown;
      }>(
        db('admin_console_sessions as s')
          .join('admin_users as u', 'u.id', 's.admin_user_id')
          .where('s.token_hash', hashSecret(token))
          .where('s.expires_at', '>', nowDb())
          .first('s.id', 's.csrf_token', 'u.id as user_id', 'u.username', 'u.active', 'u.read_only'),
      );
      if (!row || !readBool(row.active)) return null;
      return {
        id: row.id,
        csrfToken: row.csrf_token,
        operator: { id: row.user_id, username: row.username, readOnly: readBool(row.read_only) },
      };
    },
    async login(username: string, password: string, _req: Request) {
      const user = await selectRow<{ id: string; password_hash: string; active: unknown }>(
        db('admin_users').where({ username }).first('id', 'password_hash', 'active'),
      );
      if (!user) await burnPasswordTime(password);
      const valid = user !== undefined && readBool(user.active) && (await verifyPassword(password, user.password_hash));
      if (!valid) return null;
      const token = newSecret(32);
      const now = currentTime();
      await db('admin_console_sessions')
        .where('admin_user_id', user.id)
        .where('expires_at', '<=', toDbTime(now))
        .delete();
      await db('admin_console_sessions').insert({
        id: newId(),
        token_hash: hashSecret(token),
        admin_user_id: user.id,
        csrf_token: newSecret(32),
        created_at: toDbTime(now),
        expires_at: toDbTime(new Date(now.getTime() + SESSION_TTL_SECONDS * 1000)),
      });
      return { token, ttlSeconds: SESSION_TTL_SECONDS };
    },
    async logout(session) {
      await db('admin_console_sessions').where({ id: session.id }).delete();
    },
  };
}

/**
 * The operator's console on the reference host (contract 3.4 `console`): the host-neutral console
 * server (src/host-kit/console-server.ts) with the host's admin users and session table.
 */
export function createConsoleModule(internals: HostInternals): ConsoleModule {
  return createConsoleServer({
    log: internals.log,
    rateLimiter: internals.rateLimiter,
    sessions: adminUserSessions(internals),
    adminRoutes: () => internals.adminApi.routes,
    admin: adminApiDefinition(internals),
    validateResponses: internals.config.validateResponses,
  });
}
