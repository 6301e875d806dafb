import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import { jsonApiList } from '../../lib/json-api.js';
import { noContent } from '../../lib/routes.js';
import { CATEGORY_KIND, LANDING_PAGE_KIND, PRODUCT_KIND, type AssignmentKind } from './kinds.js';
import { previewAssortment } from './preview.js';
import {
  assignmentBodySchema,
  assignmentListSchema,
  assignmentParamsSchema,
  listQuerySchema,
  previewBodySchema,
  previewResponseSchema,
  unitRulesBody,
  unitRulesParams,
  unitRulesResponse,
} from './schemas.js';
import { readUnitRules, setUnitRules } from './unit-rules.js';
import type { PartialAssortmentService } from './service.js';

const TAGS = ['Partial assortments'];
function kindRoutes<IdField extends string, Name extends string>(
  kind: AssignmentKind<IdField, Name>,
  service: PartialAssortmentService,
) {
  const path = `/suite-partial-assortment-${kind.segment}-rule`;
  return [
    defineAdminRoute({
      method: 'GET',
      path,
      operationId: `list${kind.bodyName}s`,
      summary: `Lists the rules assigned to ${kind.label}s (JSON:API, paginated by limit and page).`,
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { query: listQuerySchema, responses: { 200: assignmentListSchema(kind) } },
      async handler({ query }) {
        const { limit, page } = query;
        const { total, rows } = await service.list(kind, limit, page);
        const data = rows.map((row) => ({
          id: `${row.entityId}${row.ruleId}`,
          type: kind.type,
          attributes: { [kind.idField]: row.entityId, [kind.versionField]: row.versionId, ruleId: row.ruleId },
        }));
        return jsonApiList(data, { path, page, limit, total });
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path,
      operationId: `create${kind.bodyName}`,
      summary: `Assigns a rule to a ${kind.label}. 204 also when the pair exists already.`,
      description: `An unknown ${kind.label} or rule is a 400 (SUITE__PARTIAL_ASSORTMENT_ENTITY_NOT_FOUND, SUITE__PARTIAL_ASSORTMENT_RULE_NOT_FOUND).`,
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { body: assignmentBodySchema(kind), bodyName: kind.bodyName, responses: { 204: null } },
      async handler({ body }) {
        await service.assign(kind, body[kind.idField], body.ruleId);
        return noContent();
      },
    }),
    defineAdminRoute({
      method: 'DELETE',
      path: `${path}/{${kind.idField}}/{ruleId}`,
      operationId: `delete${kind.bodyName}`,
      summary: `Removes a rule from a ${kind.label}. 204 also when the pair does not exist.`,
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { params: assignmentParamsSchema(kind), responses: { 204: null } },
      async handler({ params }) {
        await service.unassign(kind, params[kind.idField], params.ruleId);
        return noContent();
      },
    }),
  ];
}

/** "See the shop as this customer": what the partial assortment hides from a customer or employee. */
function previewRoute(host: HostRuntime) {
  return defineAdminRoute({
    method: 'POST',
    path: '/_action/suite-partial-assortment/preview',
    operationId: 'previewSuitePartialAssortment',
    summary:
      'What the partial assortment hides from a customer (or one of its employees): categories, landing pages, products.',
    description: 'An unknown customer number, or an employee not of that customer or inactive, is a 404.',
    tags: TAGS,
    auth: 'admin',
    permission: null,
    schemas: { body: previewBodySchema, responses: { 200: previewResponseSchema } },
    async handler({ body }) {
      return { data: await previewAssortment(host, body) };
    },
  });
}

/** The rules attached to an organisation unit: its employees and those of the units below match them. */
function unitRuleRoutes(host: HostRuntime) {
  const path = '/b2b/organisation-unit/{unitId}/partial-assortment-rules';
  return [
    defineAdminRoute({
      method: 'GET',
      path,
      operationId: 'readUnitPartialAssortmentRules',
      summary:
        'The partial-assortment rules attached to an organisation unit: the employees of the unit and of every unit below it match them.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { params: unitRulesParams, responses: { 200: unitRulesResponse } },
      handler: ({ params }) => readUnitRules(host, params.unitId),
    }),
    defineAdminRoute({
      method: 'PUT',
      path,
      operationId: 'setUnitPartialAssortmentRules',
      summary:
        "Replaces the rules attached to an organisation unit (up to 100; empty detaches all): what those rules unlock, the unit's employees see.",
      description:
        'An unknown unit is a 404; an unknown rule a 400 SUITE__PARTIAL_ASSORTMENT_RULE_NOT_FOUND pointing at it, and nothing changes.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        params: unitRulesParams,
        body: unitRulesBody,
        bodyName: 'UnitPartialAssortmentRules',
        responses: { 200: unitRulesResponse },
      },
      handler: ({ params, body }) => setUnitRules(host, params.unitId, body.ruleIds),
    }),
  ];
}

export function partialAssortmentRoutes(host: HostRuntime, service: PartialAssortmentService) {
  return [
    ...kindRoutes(CATEGORY_KIND, service),
    ...kindRoutes(LANDING_PAGE_KIND, service),
    ...kindRoutes(PRODUCT_KIND, service),
    previewRoute(host),
    ...unitRuleRoutes(host),
  ];
}
