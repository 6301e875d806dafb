import { criteriaSchema, DEFAULT_LIMIT, MAX_LIMIT, type Criteria } from '../../lib/criteria.js';
import type { Trx } from '../../lib/db.js';
import { noContent, reply } from '../../lib/routes.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import type { AdminRoute } from '../contract.js';
import type { HostInternals } from '../internals.js';
import type { Entity } from './entity-definition.js';

const linksSchema = objectSchema({ self: { type: 'string' }, next: { type: 'string' }, prev: { type: 'string' }, first: { type: 'string' } }, ['self']);

/** The generic Admin API of one entity: list, read, create, update, delete, search (JSON:API documents). */
export function entityRoutes(internals: HostInternals, entity: Entity, onVisibility: (trx: Trx) => Promise<void>): AdminRoute[] {
  const { name, label } = entity.def;
  const pascal = name.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());
  const tags = [`Admin: ${label}`];
  const single = objectSchema({ data: entity.resourceSchema }, ['data']);
  const list = objectSchema(
    { data: { type: 'array', items: entity.resourceSchema }, meta: objectSchema({ total: { type: 'integer', minimum: 0 } }, ['total']), links: linksSchema },
    ['data', 'meta', 'links'],
  );
  const params = pathParams('id');
  const base = `/api/${name}`;

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
        query: objectSchema({
          limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
          page: { type: 'integer', minimum: 1, maximum: 1000000, default: 1 },
        }),
        responses: { 200: list },
      },
      async handler({ query }) {
        const limit = Number(query.limit);
        const page = Number(query.page);
        const result = await entity.search(internals.db, { limit, page });
        const link = (p: number) => `${base}?page=${p}&limit=${limit}`;
        const links: Record<string, string> = { self: link(page), first: link(1) };
        if (page * limit < result.total) links.next = link(page + 1);
        if (page > 1) links.prev = link(page - 1);
        return { data: result.data, meta: { total: result.total }, links };
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
      handler: async ({ params: p }) => ({ data: await entity.get(internals.db, p.id) }),
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
      handler: async ({ params: p, body }) => ({ data: await entity.update(internals.db, p.id, { ...(body as Record<string, unknown>) }, onVisibility) }),
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
      async handler({ params: p }) {
        await entity.remove(internals.db, p.id, onVisibility);
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
      schemas: { body: criteriaSchema(Object.keys(entity.criteria.fields)), responses: { 200: list } },
      async handler({ body }) {
        const result = await entity.search(internals.db, body as Criteria);
        return { data: result.data, meta: { total: result.total }, links: { self: `/api/search/${name}` } };
      },
    },
  ];
}
