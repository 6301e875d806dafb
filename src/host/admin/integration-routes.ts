import type { Knex } from 'knex';
import { readInt, selectRows } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { newId, newSecret } from '../../lib/ids.js';
import { jsonApiList, jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { noContent } from '../../lib/routes.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import { hashPassword } from '../../host-kit/passwords.js';
import { defineAdminRoute, type AdminRoute } from '../../contract/index.js';

const TAGS = ['Auth'];
const TABLE = 'admin_integrations';
const time = { type: 'string', format: 'date-time' } as const;

const attributes = {
  clientId: { type: 'string' },
  label: { type: 'string' },
  createdAt: time,
} as const;

const integrationResource = objectSchema(
  {
    id: { type: 'string' },
    type: { const: 'admin_integration' },
    attributes: objectSchema(attributes, ['clientId', 'label', 'createdAt']),
  },
  ['id', 'type', 'attributes'],
);

interface IntegrationRow {
  id: string;
  client_id: string;
  label: string;
  created_at: string;
}

function toResource(row: IntegrationRow) {
  return {
    id: row.id,
    type: 'admin_integration' as const,
    attributes: { clientId: row.client_id, label: row.label, createdAt: fromDbTime(row.created_at)! },
  };
}

/**
 * The reference host's Admin API integrations (client credentials for `POST /api/oauth/token`):
 * list, create — the secret is answered once and kept only as a password hash — and delete, which
 * ends the integration's bearer tokens at their next request (the token check reads the row).
 */
export function integrationRoutes(db: Knex): AdminRoute[] {
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/integration',
      operationId: 'listIntegrations',
      summary: 'Admin API integrations (client credentials), newest first (JSON:API, paged). Secrets are never shown.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({ ...jsonApiPageQuery }),
        responses: { 200: jsonApiListSchema(integrationResource) },
      },
      async handler({ query }) {
        const [count] = await selectRows<{ n: unknown }>(db(TABLE).count({ n: '*' }));
        const rows = await selectRows<IntegrationRow>(
          db(TABLE)
            .select('id', 'client_id', 'label', 'created_at')
            .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
            .limit(query.limit)
            .offset((query.page - 1) * query.limit),
        );
        return jsonApiList(rows.map(toResource), {
          path: '/integration',
          page: query.page,
          limit: query.limit,
          total: readInt(count?.n),
        });
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/integration',
      operationId: 'createIntegration',
      summary:
        'Creates an integration: a generated client id and secret for the `client_credentials` grant. The secret is in this answer only; the shop keeps its hash.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        body: objectSchema({ label: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' } }, ['label']),
        responses: {
          200: objectSchema(
            {
              data: objectSchema(
                {
                  id: { type: 'string' },
                  type: { const: 'admin_integration' },
                  attributes: objectSchema({ ...attributes, clientSecret: { type: 'string' } }, [
                    'clientId',
                    'label',
                    'createdAt',
                    'clientSecret',
                  ]),
                },
                ['id', 'type', 'attributes'],
              ),
            },
            ['data'],
          ),
        },
      },
      async handler({ body }) {
        const clientSecret = newSecret(32);
        const row: IntegrationRow = {
          id: newId(),
          client_id: `SUITE${newSecret(15)
            .replace(/[^A-Za-z0-9]/g, 'x')
            .toUpperCase()}`,
          label: body.label.trim(),
          created_at: nowDb(),
        };
        await db(TABLE).insert({ ...row, secret_hash: await hashPassword(clientSecret) });
        const resource = toResource(row);
        return { data: { ...resource, attributes: { ...resource.attributes, clientSecret } } };
      },
    }),
    defineAdminRoute({
      method: 'DELETE',
      path: '/integration/{id}',
      operationId: 'deleteIntegration',
      summary: 'Deletes an integration: its credentials stop working and its bearer tokens are refused (401) at once.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('id'), responses: { 204: null } },
      async handler({ params }) {
        if (!(await db(TABLE).where({ id: params.id }).delete())) throw Errors.notFound('integration', params.id);
        return noContent();
      },
    }),
  ];
}
