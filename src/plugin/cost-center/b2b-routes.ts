import { defineStoreRoute, type HostRuntime, type StoreContext } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import type { SchemaInput } from '../../lib/routes.js';
import { DEFAULT_LIMIT } from '../../lib/criteria.js';
import { pathParams, successResponse } from '../../lib/schemas.js';
import {
  b2bCostCenterAnswer,
  b2bCreateBody,
  b2bUpdateBody,
  costCenterList,
  costCenterSchema,
  listBody,
  listQuery,
  MANAGE,
  TAG,
} from './schemas.js';
import {
  changeCostCenter,
  contextForCostCenter,
  contextForCustomer,
  createCostCenter,
  listCostCenters,
  readCostCenter,
  removeCostCenter,
} from './service.js';

type CostCenterView = SchemaInput<typeof costCenterSchema>;

/** A write's answer on the /b2b paths: the record at the top level too, where the connector reads it. */
const answer = (costCenter: CostCenterView) => ({ success: true as const, ...costCenter, costCenter });

const common = { tags: [TAG], auth: 'login' as const, needsCustomer: true };
const idParams = pathParams('id');

/**
 * The cost center paths of the real product (`/b2b/cost-center…`), which its public client calls:
 * the same records and rules as `/cost-center…` (routes.ts), in the budget routes' shape — GET one,
 * PUT replaces, DELETE answers the success response. `list` comes before `{id}`, which would take it for an id.
 */
export function b2bCostCenterRoutes(host: HostRuntime) {
  /** The cost center's company; a `customerId` in the body must name that same company (else 404). */
  const actingOn = async (ctx: StoreContext, id: string, customerId?: string) => {
    const acting = await contextForCostCenter(host, ctx, id);
    if (customerId !== undefined && customerId !== acting.customer?.id) throw Errors.notFound('Cost center', id);
    return acting;
  };
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
      schemas: { body: b2bCreateBody, responses: { 200: b2bCostCenterAnswer } },
      async handler({ ctx, body }) {
        const { customerId, ...fields } = body;
        const created = await createCostCenter(host, await contextForCustomer(host, ctx, customerId), fields);
        return answer(created.costCenter);
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
      handler: async ({ ctx, params }) =>
        readCostCenter(host, await contextForCostCenter(host, ctx, params.id), params.id),
    }),
    defineStoreRoute({
      ...common,
      method: 'PUT',
      path: '/b2b/cost-center/{id}',
      operationId: 'replaceB2bCostCenter',
      summary:
        'Replaces a cost center: number and name required; description left out becomes null, active left out true.',
      permission: MANAGE,
      schemas: { params: idParams, body: b2bCreateBody, responses: { 200: b2bCostCenterAnswer } },
      async handler({ ctx, params, body }) {
        const { customerId, ...fields } = body;
        const acting = await actingOn(ctx, params.id, customerId);
        const changed = await changeCostCenter(host, acting, params.id, { description: null, active: true, ...fields });
        return answer(changed.costCenter);
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'PATCH',
      path: '/b2b/cost-center/{id}',
      operationId: 'updateB2bCostCenter',
      summary: 'Changes the given fields of a cost center (as PATCH /cost-center/{id}).',
      permission: MANAGE,
      schemas: { params: idParams, body: b2bUpdateBody, responses: { 200: b2bCostCenterAnswer } },
      async handler({ ctx, params, body }) {
        const { customerId, ...fields } = body;
        const acting = await actingOn(ctx, params.id, customerId);
        return answer((await changeCostCenter(host, acting, params.id, fields)).costCenter);
      },
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
        await removeCostCenter(host, await contextForCostCenter(host, ctx, params.id), params.id);
        return { success: true as const };
      },
    }),
  ];
}
