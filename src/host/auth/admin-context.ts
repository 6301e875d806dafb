import { randomUUID } from 'node:crypto';
import { Errors } from '../../lib/errors.js';
import type { ApiDefinition } from '../../lib/pipeline.js';
import type { AdminContext } from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import { ADMIN_AUDIENCE, verifyToken } from './tokens.js';

/** Admin API: a bearer JWT from /api/oauth/token whose principal still exists. Every admin principal may call every admin route. */
export function adminApiDefinition(internals: HostInternals): ApiDefinition<AdminContext> {
  return {
    name: 'admin-api',
    actorsByAuth: { admin: ['admin'], public: ['guest', 'admin'] },
    async authenticate(request, route): Promise<AdminContext> {
      const requestId = request.requestId || randomUUID();
      if (route.auth === 'public') return { requestId, ip: request.ip, principalType: 'integration', principalId: '' };
      const header = request.header('authorization') ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) throw Errors.unauthorized('An admin bearer token is required.');
      const claims = verifyToken(internals.config.appSecret, ADMIN_AUDIENCE, match[1]!);
      if (!claims)
        throw Errors.unauthorized('The admin token is not valid or has expired.', 'SUITE__INVALID_ADMIN_TOKEN');
      const principalType = claims.typ === 'user' ? 'user' : 'integration';
      const table = principalType === 'user' ? 'admin_users' : 'admin_integrations';
      const exists = await internals.db<{ id: string }>(table).where({ id: claims.sub }).first('id');
      if (!exists)
        throw Errors.unauthorized('The admin token is not valid or has expired.', 'SUITE__INVALID_ADMIN_TOKEN');
      return { requestId, ip: request.ip, principalType, principalId: claims.sub };
    },
    principal: (ctx) => ({
      actor: ctx.principalId ? 'admin' : 'guest',
      customerId: null,
      can: () => true,
      key: `${ctx.principalType}:${ctx.principalId}`,
    }),
  };
}
