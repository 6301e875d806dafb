import { expect } from 'chai';
import { defineStoreRoute } from '../../../src/contract/index.js';
import { criteriaSchema } from '../../../src/lib/criteria.js';
import { nullable, objectSchema, pathParams } from '../../../src/lib/schemas.js';

/**
 * Route inputs are typed from the route's own schemas (json-schema-to-ts `FromSchema`). The checks
 * are made by `tsc` (npm run typecheck compiles this file): each `@ts-expect-error` line fails the
 * typecheck when the error it expects is gone — when a handler could read what its schema does not declare.
 */
const body = objectSchema(
  { name: { type: 'string' }, note: nullable({ type: 'string' }), active: { type: 'boolean' } },
  ['name'],
);

const route = defineStoreRoute({
  method: 'PATCH',
  path: '/typed/{id}',
  operationId: 'typedExample',
  summary: 'An example.',
  tags: ['Example'],
  auth: 'login',
  permission: null,
  schemas: {
    params: pathParams('id'),
    body,
    query: objectSchema({ limit: { type: 'integer' } }),
    responses: { 204: null },
  },
  handler: ({ body, params, query }) => {
    const id: string = params.id;
    const name: string = body.name;
    const note: string | null | undefined = body.note;
    const active: boolean | undefined = body.active;
    const limit: number | undefined = query.limit;
    // @ts-expect-error the params schema declares no `other`
    void params.other;
    // @ts-expect-error the body schema declares no `number`
    void body.number;
    // @ts-expect-error `active` is a boolean, not a string
    const wrong: string = body.active;
    // @ts-expect-error `name` is required: never undefined
    const optional: undefined = body.name;
    return Promise.resolve({ id, name, note, active, limit, wrong, optional });
  },
});

const listRoute = defineStoreRoute({
  method: 'POST',
  path: '/typed/list',
  operationId: 'typedList',
  summary: 'A criteria list.',
  tags: ['Example'],
  auth: 'login',
  permission: null,
  schemas: { body: criteriaSchema(['name']), responses: { 200: { type: 'object' } } },
  handler: ({ body, params }) => {
    const limit: number | undefined = body.limit;
    // @ts-expect-error a criteria body has no `name`
    void body.name;
    // @ts-expect-error a route without a params schema has no params to read
    void params.id;
    return Promise.resolve({ limit });
  },
});

describe('lib: typed route inputs', () => {
  it('leaves the route objects (and so the schemas ajv and OpenAPI read) as declared', () => {
    expect(route.schemas.body).to.equal(body);
    expect(route.schemas.params).to.deep.equal({
      type: 'object',
      additionalProperties: false,
      properties: { id: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
      required: ['id'],
    });
    expect(listRoute.operationId).to.equal('typedList');
  });
});
