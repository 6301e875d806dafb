import type { StoreActorName } from '../../../lib/routes.js';
import { defineStoreRoute, type HostRuntime } from '../../../contract/index.js';
import { pathParams, successResponse } from '../../../lib/schemas.js';
import { declaredCustomer } from '../../declared.js';
import {
  createBody,
  deleteQuery,
  listBody,
  MANAGE,
  memberBody,
  membershipResponse,
  moveEmployeeBody,
  READ,
  TAG,
  treeResponse,
  unitList,
  unitResponse,
  unitSchema,
  updateBody,
} from './schemas.js';
import {
  changeUnit,
  createUnit,
  deleteUnit,
  listUnits,
  moveEmployee,
  readUnit,
  setMember,
  unitTreeList,
  unsetMember,
} from './service.js';

// The company's own administration: a sales representative acting for the company is refused (403).
const common = {
  tags: [TAG],
  auth: 'login' as const,
  needsCustomer: true,
  actors: ['customer', 'employee'] as StoreActorName[],
};

/** Literal paths (`list`, `tree`, `move-employee`) come before `/b2b/organisation-unit/{id}`, which would take them for ids. */
export function unitRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/organisation-unit/list',
      operationId: 'searchOrganisationUnits',
      summary:
        "The company's organisation units, searched by criteria (name, parentId …), each with its path, children, members and managers.",
      permission: READ,
      schemas: { body: listBody, responses: { 200: unitList } },
      handler: ({ ctx, body }) => listUnits(host, ctx, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/b2b/organisation-unit/tree',
      operationId: 'organisationUnitTree',
      summary:
        "The company's whole unit tree, depth first: each unit before its sub-units, siblings by name (`depth` tells the indentation).",
      permission: READ,
      schemas: { responses: { 200: treeResponse } },
      handler: ({ ctx }) => unitTreeList(host, ctx),
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/organisation-unit',
      operationId: 'createOrganisationUnit',
      summary: 'Creates a unit, top-level or under another unit of the company (name unique among its siblings).',
      permission: MANAGE,
      schemas: { body: createBody, responses: { 200: unitResponse } },
      handler: ({ ctx, body }) => createUnit(host, ctx, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/organisation-unit/move-employee',
      operationId: 'moveEmployeeBetweenUnits',
      summary: 'Moves an employee from one unit to another (or, with fromUnitId null, adds them to one) in one step.',
      permission: MANAGE,
      schemas: { body: moveEmployeeBody, responses: { 200: membershipResponse } },
      handler: ({ ctx, body }) => moveEmployee(host, ctx, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/b2b/organisation-unit/{id}',
      operationId: 'readOrganisationUnit',
      summary: 'One unit with its path, sub-units, members and managers.',
      permission: READ,
      schemas: { params: pathParams('id'), responses: { 200: unitSchema } },
      handler: ({ ctx, params }) => readUnit(host.db, declaredCustomer(ctx).id, params.id),
    }),
    defineStoreRoute({
      ...common,
      method: 'PATCH',
      path: '/b2b/organisation-unit/{id}',
      operationId: 'updateOrganisationUnit',
      summary:
        'Renames a unit or moves it (with its subtree) under another unit; under itself or its own sub-units is a 400 SUITE__UNIT_CYCLE.',
      permission: MANAGE,
      schemas: { params: pathParams('id'), body: updateBody, responses: { 200: unitResponse } },
      handler: ({ ctx, params, body }) => changeUnit(host, ctx, params.id, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'DELETE',
      path: '/b2b/organisation-unit/{id}',
      operationId: 'deleteOrganisationUnit',
      summary:
        'Deletes a unit; one with sub-units, members, budgets, addresses or defaults only with moveTo, the unit they move to (else 400 SUITE__UNIT_NOT_EMPTY).',
      permission: MANAGE,
      schemas: { params: pathParams('id'), query: deleteQuery, responses: { 200: successResponse } },
      async handler({ ctx, params, query }) {
        await deleteUnit(host, ctx, params.id, query.moveTo);
        return { success: true as const };
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'PUT',
      path: '/b2b/organisation-unit/{id}/member/{employeeId}',
      operationId: 'putOrganisationUnitMember',
      summary:
        'Adds an employee to the unit, or sets whether they manage it (an employee may belong to several units).',
      permission: MANAGE,
      schemas: { params: pathParams('id', 'employeeId'), body: memberBody, responses: { 200: membershipResponse } },
      handler: ({ ctx, params, body }) => setMember(host, ctx, params.id, params.employeeId, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'DELETE',
      path: '/b2b/organisation-unit/{id}/member/{employeeId}',
      operationId: 'deleteOrganisationUnitMember',
      summary: 'Takes an employee out of the unit (404 when they are no member of it).',
      permission: MANAGE,
      schemas: { params: pathParams('id', 'employeeId'), responses: { 200: membershipResponse } },
      handler: ({ ctx, params }) => unsetMember(host, ctx, params.id, params.employeeId),
    }),
  ];
}
