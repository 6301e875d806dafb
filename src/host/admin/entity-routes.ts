import { criteriaSchema, DEFAULT_LIMIT, type Criteria } from '../../lib/criteria.js';
import type { Trx } from '../../lib/db.js';
import { jsonApiCursorQuery, jsonApiList, jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { CURSOR_PROPERTY } from '../../lib/keyset.js';
import { noContent, reply } from '../../lib/routes.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import type { AdminRoute } from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import type { Entity } from './entity-definition.js';

/** The `{id}` of a record path. */
interface IdParams {
  id: string;
}

/** The generic Admin API of one entity: list, read, create, update, delete, search (JSON:API documents). */
export function entityRoutes(
  internals: HostInternals,
  entity: Entity,
  onVisibility: (trx: Trx) => Promise<void>,
): AdminRoute[] {
  const { name, label } = entity.def;
  const pascal = name.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());
  const tags = [`Admin: ${label}`];
  const single = objectSchema({ data: entity.resourceSchema }, ['data']);
  const list = jsonApiListSchema(entity.resourceSchema);
  const params = pathParams('id');
  const path = `/${name}`;
  const base = `/api${path}`;

  return [
    {
      method: 'GET',
      path: `/${name}`,
      operationId: `list${pascal}`,
      summary: `Lists ${label} records (JSON:API), page by page.`,
      tags,
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({ ...jsonApiPageQuery, ...jsonApiCursorQuery }),
        responses: { 200: list },
      },
      async handler({ query }: { query: { limit?: number; page?: number; cursor?: string } }) {
        const limit = Number(query.limit);
        const page = Number(query.page);
        const result = await entity.search(internals.db, { limit, page, cursor: query.cursor });
        const cursor =
          query.cursor === undefined ? undefined : { current: query.cursor, next: result.nextCursor ?? null };
        return jsonApiList(result.data, { path, page, limit, total: result.total, cursor });
      },
    },
    {
      method: 'GET',
      path: `/${name}/{id}`,
      operationId: `read${pascal}`,
      summary: `One ${label}.`,
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params, responses: { 200: single } },
      handler: async ({ params: p }: { params: IdParams }) => ({ data: await entity.get(internals.db, p.id) }),
    },
    {
      method: 'POST',
      path: `/${name}`,
      operationId: `create${pascal}`,
      summary: `Creates a ${label}; answers 201 with the record.`,
      tags,
      auth: 'admin',
      permission: null,
      schemas: { body: entity.createSchema, responses: { 201: single } },
      async handler({ body }) {
        const data = await entity.create(internals.db, { ...(body as Record<string, unknown>) }, onVisibility);
        return reply(201, { data }, { headers: { Location: `${base}/${data.id}` } });
      },
    },
    {
      method: 'PATCH',
      path: `/${name}/{id}`,
      operationId: `update${pascal}`,
      summary: `Changes the given fields of a ${label}.`,
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params, body: entity.updateSchema, responses: { 200: single } },
      handler: async ({ params: p, body }: { params: IdParams; body: unknown }) => ({
        data: await entity.update(internals.db, p.id, { ...(body as Record<string, unknown>) }, onVisibility),
      }),
    },
    {
      method: 'DELETE',
      path: `/${name}/{id}`,
      operationId: `delete${pascal}`,
      summary: `Deletes a ${label}.`,
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params, responses: { 204: null } },
      async handler({ params: p }: { params: IdParams }) {
        await entity.remove(internals.db, p.id, onVisibility, internals.emit);
        return noContent();
      },
    },
    {
      method: 'POST',
      path: `/search/${name}`,
      operationId: `search${pascal}`,
      summary: `Searches ${label} records by criteria (JSON:API).`,
      tags,
      auth: 'admin',
      permission: null,
      schemas: {
        body: criteriaSchema(Object.keys(entity.criteria.fields), { cursor: CURSOR_PROPERTY }),
        responses: { 200: list },
      },
      async handler({ body }) {
        const criteria = body as Criteria;
        const result = await entity.search(internals.db, criteria);
        // The criteria travel in the body: the links name the page (or cursor) and limit to send in it.
        const cursor =
          criteria.cursor === undefined ? undefined : { current: criteria.cursor, next: result.nextCursor ?? null };
        return jsonApiList(result.data, {
          path: `/search/${name}`,
          page: criteria.page ?? 1,
          limit: criteria.limit ?? DEFAULT_LIMIT,
          total: result.total,
          cursor,
        });
      },
    },
  ];
}
