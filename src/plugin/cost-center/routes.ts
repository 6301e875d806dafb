import { defineStoreRoute, type HostRuntime } from '../../contract/index.js';
import { noContent } from '../../lib/routes.js';
import { pathParams } from '../../lib/schemas.js';
import {
  checkoutBody,
  checkoutResponse,
  costCenterList,
  costCenterResponse,
  createBody,
  defaultBody,
  defaultResponse,
  listBody,
  MANAGE,
  ORDERING,
  TAG,
  unitCostCenterBody,
  unitCostCenterResponse,
  updateBody,
} from './schemas.js';
import {
  changeCostCenter,
  checkoutCostCenter,
  chooseCheckoutCostCenter,
  createCostCenter,
  listCostCenters,
  readUnitCostCenter,
  removeCostCenter,
  setDefaultCostCenter,
  setUnitDefaultCostCenter,
} from './service.js';

const tags = [TAG];

/** Literal paths (`default`, `checkout`) come before `/cost-center/{id}`, which would take them for ids. */
export function costCenterRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/cost-center/list',
      operationId: 'listCostCenters',
      summary: "The company's cost centers, searched by criteria; each says whether it is the caller's default.",
      description:
        'Any login of the company may list the active cost centers (to choose one for an order); with cost-center.read or cost-center.manage the inactive ones too.',
      tags,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { body: listBody, responses: { 200: costCenterList } },
      handler: ({ ctx, body }) => listCostCenters(host, ctx, body),
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/cost-center',
      operationId: 'createCostCenter',
      summary: 'Creates a cost center of the company (number unique per company).',
      tags,
      auth: 'login',
      needsCustomer: true,
      permission: MANAGE,
      schemas: { body: createBody, responses: { 200: costCenterResponse } },
      handler: ({ ctx, body }) => createCostCenter(host, ctx, body),
    }),
    defineStoreRoute({
      method: 'PATCH',
      path: '/cost-center/default',
      operationId: 'setDefaultCostCenter',
      summary:
        "Sets (or with null removes) the caller's default cost center, or with employeeId an employee's (cost-center.manage).",
      description:
        'The default goes on every order the login places unless another cost center is chosen for it. An inactive cost center cannot be the default (400 SUITE__COST_CENTER_INACTIVE).',
      tags,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { body: defaultBody, responses: { 200: defaultResponse } },
      handler: ({ ctx, body }) => setDefaultCostCenter(host, ctx, body),
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/cost-center/checkout',
      operationId: 'checkoutCostCenter',
      summary: "The cost center the caller's next order gets: the one chosen for it, else the default.",
      tags,
      auth: 'login',
      needsCustomer: true,
      permission: ORDERING,
      schemas: { responses: { 200: checkoutResponse } },
      handler: ({ ctx }) => checkoutCostCenter(host, ctx),
    }),
    defineStoreRoute({
      method: 'PATCH',
      path: '/cost-center/checkout',
      operationId: 'chooseCheckoutCostCenter',
      summary: "Chooses the cost center of the caller's next order (null: the default again).",
      description:
        'The order placed next by this login carries it in its custom fields (`customFields.costCenter`: id, number, name) and on its invoice; the choice is used up by that order. An inactive cost center is a 400 SUITE__COST_CENTER_INACTIVE, here and at checkout.',
      tags,
      auth: 'login',
      needsCustomer: true,
      permission: ORDERING,
      schemas: { body: checkoutBody, responses: { 200: checkoutResponse } },
      handler: ({ ctx, body }) => chooseCheckoutCostCenter(host, ctx, body),
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/organisation-unit/{id}/cost-center',
      operationId: 'readUnitCostCenter',
      summary: "An organisation unit's own default cost center (null: the unit above decides).",
      tags,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { params: pathParams('id'), responses: { 200: unitCostCenterResponse } },
      handler: ({ ctx, params }) => readUnitCostCenter(host, ctx, params.id),
    }),
    defineStoreRoute({
      method: 'PUT',
      path: '/b2b/organisation-unit/{id}/cost-center',
      operationId: 'setUnitCostCenter',
      summary: "Sets (or with null removes) a unit's default cost center.",
      description:
        "An employee's order gets the cost center chosen for it, else the employee's own default, else that of the employee's nearest organisation unit with one (their units first, then the units above). An inactive cost center is a 400 SUITE__COST_CENTER_INACTIVE.",
      tags,
      auth: 'login',
      needsCustomer: true,
      permission: MANAGE,
      schemas: { params: pathParams('id'), body: unitCostCenterBody, responses: { 200: unitCostCenterResponse } },
      handler: ({ ctx, params, body }) => setUnitDefaultCostCenter(host, ctx, params.id, body),
    }),
    defineStoreRoute({
      method: 'PATCH',
      path: '/cost-center/{id}',
      operationId: 'updateCostCenter',
      summary: 'Changes a cost center; orders placed before keep the number and name they were placed with.',
      tags,
      auth: 'login',
      needsCustomer: true,
      permission: MANAGE,
      schemas: { params: pathParams('id'), body: updateBody, responses: { 200: costCenterResponse } },
      handler: ({ ctx, params, body }) => changeCostCenter(host, ctx, params.id, body),
    }),
    defineStoreRoute({
      method: 'DELETE',
      path: '/cost-center/{id}',
      operationId: 'deleteCostCenter',
      summary: 'Deletes a cost center with the defaults and choices naming it; orders keep theirs.',
      tags,
      auth: 'login',
      needsCustomer: true,
      permission: MANAGE,
      schemas: { params: pathParams('id'), responses: { 204: null } },
      async handler({ ctx, params }) {
        await removeCostCenter(host, ctx, params.id);
        return noContent();
      },
    }),
  ];
}
