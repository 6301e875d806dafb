import { defineStoreRoute, type HostRuntime, type StoreRoute } from '../../host/contract.js';
import { DEFAULT_LIMIT } from '../../lib/criteria.js';
import { pathParams, successResponse } from '../../lib/schemas.js';
import {
  costCenterCreatedResponse,
  costCenterList,
  costCenterResponse,
  costCenterSchema,
  createBody,
  listBody,
  listQuery,
  MANAGE,
  TAG,
  updateBody,
} from './schemas.js';
import { changeCostCenter, createCostCenter, listCostCenters, readCostCenter, removeCostCenter } from './service.js';

const common = { tags: [TAG], auth: 'login' as const, needsCustomer: true };
const idParams = pathParams('id');

/**
 * The cost center paths of the real product (`/b2b/cost-center…`), which its public client calls:
 * the same records and rules as `/cost-center…` (routes.ts), in the budget routes' shape — GET one,
 * PUT replaces, DELETE answers the success response. `list` comes before `{id}`, which would take it for an id.
 */
export function b2bCostCenterRoutes(host: HostRuntime): StoreRoute[] {
  return [
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/cost-center/list',
      operationId: 'searchB2bCostCenters',
      summary: "The company's cost centers, searched by criteria (as POST /cost-center/list).",
      permission: null,
      schemas: { body: listBody, responses: { 200: costCenterList } },
      handler: ({ ctx, body }) => listCostCenters(host, ctx, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/b2b/cost-center/list',
      operationId: 'listB2bCostCenters',
      summary:
        "The company's cost centers by number (query page, limit, term); inactive ones only with cost-center.read or cost-center.manage.",
      permission: null,
      schemas: { query: listQuery, responses: { 200: costCenterList } },
      handler: ({ ctx, query }) =>
        listCostCenters(host, ctx, { page: query.page ?? 1, limit: query.limit ?? DEFAULT_LIMIT, term: query.term }),
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/cost-center',
      operationId: 'createB2bCostCenter',
      summary: 'Creates a cost center (as POST /cost-center); the answer also carries the new id at the top level.',
      permission: MANAGE,
      schemas: { body: createBody, responses: { 200: costCenterCreatedResponse } },
      async handler({ ctx, body }) {
        const created = await createCostCenter(host, ctx, body);
        return { ...created, id: created.costCenter.id };
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/b2b/cost-center/{id}',
      operationId: 'readB2bCostCenter',
      summary:
        'One cost center; an inactive one only with cost-center.read or cost-center.manage (else 404, as it is missing from the list).',
      permission: null,
      schemas: { params: idParams, responses: { 200: costCenterSchema } },
      handler: ({ ctx, params }) => readCostCenter(host, ctx, params.id),
    }),
    defineStoreRoute({
      ...common,
      method: 'PUT',
      path: '/b2b/cost-center/{id}',
      operationId: 'replaceB2bCostCenter',
      summary:
        'Replaces a cost center: number and name required; description left out becomes null, active left out true.',
      permission: MANAGE,
      schemas: { params: idParams, body: createBody, responses: { 200: costCenterResponse } },
      handler: ({ ctx, params, body }) =>
        changeCostCenter(host, ctx, params.id, { description: null, active: true, ...body }),
    }),
    defineStoreRoute({
      ...common,
      method: 'PATCH',
      path: '/b2b/cost-center/{id}',
      operationId: 'updateB2bCostCenter',
      summary: 'Changes the given fields of a cost center (as PATCH /cost-center/{id}).',
      permission: MANAGE,
      schemas: { params: idParams, body: updateBody, responses: { 200: costCenterResponse } },
      handler: ({ ctx, params, body }) => changeCostCenter(host, ctx, params.id, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'DELETE',
      path: '/b2b/cost-center/{id}',
      operationId: 'deleteB2bCostCenter',
      summary:
        'Deletes a cost center with the defaults and choices naming it (orders keep theirs); answers the success response.',
      permission: MANAGE,
      schemas: { params: idParams, responses: { 200: successResponse } },
      async handler({ ctx, params }) {
        await removeCostCenter(host, ctx, params.id);
        return { success: true as const };
      },
    }),
  ];
}
