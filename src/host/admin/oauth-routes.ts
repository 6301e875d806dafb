import { Errors } from '../../lib/errors.js';
import { objectSchema } from '../../lib/schemas.js';
import type { AdminRoute } from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import { burnPasswordTime, verifyPassword } from '../../host-kit/passwords.js';
import { ADMIN_AUDIENCE, signToken } from '../auth/tokens.js';

/** The token request, as its schema (one of two grants) admits it. */
type TokenRequest =
  | { grant_type: 'client_credentials'; client_id: string; client_secret: string }
  | { grant_type: 'password'; client_id?: string; username: string; password: string; scopes?: string };

/** POST /api/oauth/token: client_credentials for integrations, password for admin users. */
export function oauthRoutes(internals: HostInternals): AdminRoute[] {
  return [
    {
      method: 'POST',
      path: '/oauth/token',
      operationId: 'oauthToken',
      summary: 'Issues a short-lived Admin API bearer token.',
      tags: ['Auth'],
      auth: 'public',
      permission: null,
      rateLimit: { name: 'admin-token', limit: 30, windowSeconds: 60, by: ['ip'] },
      schemas: {
        body: {
          oneOf: [
            objectSchema(
              {
                grant_type: { const: 'client_credentials' },
                client_id: { type: 'string', minLength: 1, maxLength: 128 },
                client_secret: { type: 'string', minLength: 1, maxLength: 512 },
              },
              ['grant_type', 'client_id', 'client_secret'],
            ),
            objectSchema(
              {
                grant_type: { const: 'password' },
                client_id: { type: 'string', maxLength: 128 },
                username: { type: 'string', minLength: 1, maxLength: 255 },
                password: { type: 'string', minLength: 1, maxLength: 1024 },
                scopes: { type: 'string' },
              },
              ['grant_type', 'username', 'password'],
            ),
          ],
        },
        responses: {
          200: objectSchema(
            { access_token: { type: 'string' }, token_type: { const: 'Bearer' }, expires_in: { type: 'integer' } },
            ['access_token', 'token_type', 'expires_in'],
          ),
        },
      },
      async handler({ body }: { body: TokenRequest }) {
        let principal: { id: string; typ: 'integration' | 'user' } | null = null;
        if (body.grant_type === 'client_credentials') {
          const row = await internals
            .db<{ id: string; client_id: string; secret_hash: string }>('admin_integrations')
            .where({ client_id: body.client_id })
            .first();
          if (row && (await verifyPassword(body.client_secret, row.secret_hash)))
            principal = { id: row.id, typ: 'integration' };
          else if (!row) await burnPasswordTime(body.client_secret);
        } else {
          const row = await internals
            .db<{ id: string; username: string; password_hash: string; active: boolean | number }>('admin_users')
            .where({ username: body.username })
            .first();
          if (row && row.active && (await verifyPassword(body.password, row.password_hash)))
            principal = { id: row.id, typ: 'user' };
          else if (!row) await burnPasswordTime(body.password);
        }
        if (!principal)
          throw Errors.unauthorized(
            'The client credentials or the user credentials are wrong.',
            'SUITE__INVALID_CLIENT',
          );
        const ttl = internals.config.adminTokenTtl;
        const token = signToken(
          internals.config.appSecret,
          ADMIN_AUDIENCE,
          { sub: principal.id, typ: principal.typ },
          ttl,
        );
        return { access_token: token, token_type: 'Bearer', expires_in: ttl };
      },
    },
  ];
}
