import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { Errors } from '../../lib/errors.js';
import type { AnyRoute } from '../../lib/routes.js';
import type { AdminContext } from '../contract.js';
import type { HostInternals } from '../internals.js';
import { ADMIN_AUDIENCE, verifyToken } from './tokens.js';

/** Admin API: a bearer JWT from /api/oauth/token whose principal still exists. */
export function adminApiDefinition(internals: HostInternals) {
  return {
    name: 'admin-api',
    async authenticate(req: Request, route: AnyRoute): Promise<AdminContext> {
      const requestId = String((req as Request & { id?: string }).id ?? randomUUID());
      if (route.auth === 'public') return { requestId, ip: req.ip ?? 'unknown', principalType: 'integration', principalId: '' };
      const header = req.get('authorization') ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) throw Errors.unauthorized('An admin bearer token is required.');
      const claims = verifyToken(internals.config.appSecret, ADMIN_AUDIENCE, match[1]!);
      if (!claims) throw Errors.unauthorized('The admin token is not valid or has expired.', 'SUITE__INVALID_ADMIN_TOKEN');
      const principalType = claims.typ === 'user' ? 'user' : 'integration';
      const table = principalType === 'user' ? 'admin_users' : 'admin_integrations';
      const exists = await internals.db<{ id: string }>(table).where({ id: claims.sub }).first('id');
      if (!exists) throw Errors.unauthorized('The admin token is not valid or has expired.', 'SUITE__INVALID_ADMIN_TOKEN');
      return { requestId, ip: req.ip ?? 'unknown', principalType, principalId: claims.sub };
    },
    authorize() {
      // Every admin principal has full access to the Admin API.
    },
    actorType: (ctx: AdminContext) => (ctx.principalId ? `admin-${ctx.principalType}` : 'guest'),
    callerKey(ctx: AdminContext) {
      return `${ctx.principalType}:${ctx.principalId}`;
    },
  };
}
