import { createHash } from 'node:crypto';
import { AuthService, NATIVE_AUTH_STRATEGY_NAME, RequestContextService, type CachedSession } from '@vendure/core';
import { createConsoleServer, type ConsoleServer, type ConsoleSessions } from '../../host-kit/console-server.js';
import { databaseRateLimiter } from '../../host-kit/rate-limit-store.js';
import type { AdapterApis } from './store-api.js';
import { ADMIN_PERMISSION, adminApiDefinition } from './store-api.js';
import { vendureServices, type AdapterState } from './state.js';
import { nowMs } from '../../lib/time.js';

/** The Vendure permission of a read-only console operator (sees every page, every change is refused). */
export const READ_ONLY_PERMISSION = 'SuiteB2BAdminReadOnly';
/** How long the console's cookie keeps a login (Vendure's session may live longer: `authOptions.sessionDuration`). */
const CONSOLE_COOKIE_SECONDS = 8 * 3600;

/**
 * The console role of a Vendure user: `managing` with SuperAdmin or `SuiteB2BAdmin` on a channel,
 * `read-only` with only `SuiteB2BAdminReadOnly`, none (no console) otherwise.
 */
export function consoleRoleOf(user: CachedSession['user']): 'managing' | 'read-only' | null {
  const permissions = new Set((user?.channelPermissions ?? []).flatMap((channel) => channel.permissions as string[]));
  if (permissions.has('SuperAdmin') || permissions.has(ADMIN_PERMISSION)) return 'managing';
  if (permissions.has(READ_ONLY_PERMISSION)) return 'read-only';
  return null;
}

/** The session's CSRF token: derived from its (secret, httpOnly) token, so Vendure's session needs no column of ours. */
const csrfOf = (token: string) => createHash('sha256').update(`suite-b2b-console-csrf:${token}`).digest('base64url');

/**
 * Console sessions on Vendure: the login form checks a Vendure administrator's credentials with
 * Vendure's AuthService (the native strategy, as the Admin API's `login` mutation) and the session is
 * Vendure's own (its `session` table, its expiry; log out destroys it). The cookie carries Vendure's
 * session token; every request reads the session (and the administrator's roles) through
 * SessionService, so a removed permission or a deleted administrator ends the console too.
 */
function vendureSessions(state: AdapterState): ConsoleSessions {
  const adminContext = () => vendureServices(state).service(RequestContextService).create({ apiType: 'admin' });
  return {
    async find(token) {
      const session = await vendureServices(state).sessionFromToken(token);
      if (!session?.user || new Date(session.expires).getTime() <= nowMs()) return null;
      const role = consoleRoleOf(session.user);
      if (!role) return null;
      return {
        id: String(session.id),
        csrfToken: csrfOf(token),
        operator: { id: String(session.user.id), username: session.user.identifier, readOnly: role === 'read-only' },
      };
    },
    async login(username, password) {
      const auth = vendureServices(state).service(AuthService);
      const ctx = await adminContext();
      const result = await auth.authenticate(ctx, 'admin', NATIVE_AUTH_STRATEGY_NAME, { username, password });
      if (!('token' in result) || typeof result.token !== 'string') return null;
      const session = await vendureServices(state).sessionFromToken(result.token);
      if (!consoleRoleOf(session?.user)) {
        // A Vendure user without the console's permissions (a customer, another administrator) gets no session.
        await auth.destroyAuthenticatedSession(ctx, result.token);
        return null;
      }
      return { token: result.token, ttlSeconds: CONSOLE_COOKIE_SECONDS };
    },
    async logout(_session, token) {
      await vendureServices(state)
        .service(AuthService)
        .destroyAuthenticatedSession(await adminContext(), token);
    },
  };
}

/** The operator's console (contract 3.4) on Vendure, at /b2b-admin: the host-neutral console server with Vendure's administrators. */
export function createVendureConsole(state: AdapterState, apis: AdapterApis): ConsoleServer {
  return createConsoleServer({
    log: state.log,
    rateLimiter: databaseRateLimiter(state.db),
    sessions: vendureSessions(state),
    adminRoutes: () => apis.adminApi.routes,
    admin: adminApiDefinition(state),
    validateResponses: state.options.validateResponses,
  });
}
