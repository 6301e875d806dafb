import type { StoreActorName } from '../../../lib/routes.js';
import { defineStoreRoute, type HostRuntime } from '../../../contract/index.js';
import { pathParams, successResponse } from '../../../lib/schemas.js';
import {
  addressList,
  addressResponse,
  addressSchema,
  checkoutAddressesResponse,
  createBody,
  listBody,
  MANAGE,
  TAG,
  unitDefaultsBody,
  unitDefaultsResponse,
  updateBody,
} from './schemas.js';
import {
  changeAddress,
  checkoutAddresses,
  createAddress,
  listAddresses,
  readAddress,
  readUnitDefaults,
  removeAddress,
  setUnitDefaults,
} from './service.js';

const common = { tags: [TAG], auth: 'login' as const, needsCustomer: true };
/** Changing the book is the company's own administration: a sales representative acting for it is refused (403); reading stays open (checkout). */
const COMPANY_OWN: StoreActorName[] = ['customer', 'employee'];

/** `list` and `checkout` come before `/b2b/address/{id}`, which would take them for ids. */
export function addressRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/address/list',
      operationId: 'searchCompanyAddresses',
      summary:
        "The company's addresses the caller is offered or may manage, each with its units (page, limit, term, unitId, companyWide).",
      description:
        'A buyer is offered the company addresses (no units) and those of the units in their unit scope (their units and the units above); with address.manage they also see the addresses of the units below their own. The company admin sees every address.',
      permission: null,
      schemas: { body: listBody, responses: { 200: addressList } },
      handler: ({ ctx, body }) => listAddresses(host, ctx, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/b2b/address/checkout',
      operationId: 'checkoutCompanyAddresses',
      summary:
        'The addresses the checkout offers the caller, and their default billing and shipping address (their units’ defaults first).',
      description:
        'An order of an employee to an address not offered to them is refused at checkout (400 SUITE__ADDRESS_NOT_ALLOWED).',
      permission: null,
      schemas: { responses: { 200: checkoutAddressesResponse } },
      handler: ({ ctx }) => checkoutAddresses(host, ctx),
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/address',
      operationId: 'createCompanyAddress',
      summary:
        "Adds an address to the company's book: a company address, or one of the given units (the caller's own units or those below).",
      permission: MANAGE,
      actors: COMPANY_OWN,
      schemas: { body: createBody, responses: { 200: addressResponse } },
      handler: ({ ctx, body }) => createAddress(host, ctx, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/b2b/address/{id}',
      operationId: 'readCompanyAddress',
      summary: 'One address the caller is offered or may manage.',
      permission: null,
      schemas: { params: pathParams('id'), responses: { 200: addressSchema } },
      handler: ({ ctx, params }) => readAddress(host, ctx, params.id),
    }),
    defineStoreRoute({
      ...common,
      method: 'PATCH',
      path: '/b2b/address/{id}',
      operationId: 'updateCompanyAddress',
      summary: 'Changes an address (fields and/or its units); 403 for an address of units the caller does not manage.',
      permission: MANAGE,
      actors: COMPANY_OWN,
      schemas: { params: pathParams('id'), body: updateBody, responses: { 200: addressResponse } },
      handler: ({ ctx, params, body }) => changeAddress(host, ctx, params.id, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'DELETE',
      path: '/b2b/address/{id}',
      operationId: 'deleteCompanyAddress',
      summary:
        'Deletes an address from the book (and as a default of the company and its units); placed orders keep their copy.',
      permission: MANAGE,
      actors: COMPANY_OWN,
      schemas: { params: pathParams('id'), responses: { 200: successResponse } },
      async handler({ ctx, params }) {
        await removeAddress(host, ctx, params.id);
        return { success: true as const };
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/b2b/organisation-unit/{id}/default-address',
      operationId: 'readUnitDefaultAddresses',
      summary:
        "A unit's own default billing and shipping address (null: the unit above decides, at the top the company's default).",
      permission: null,
      schemas: { params: pathParams('id'), responses: { 200: unitDefaultsResponse } },
      handler: ({ ctx, params }) => readUnitDefaults(host, ctx, params.id),
    }),
    defineStoreRoute({
      ...common,
      method: 'PUT',
      path: '/b2b/organisation-unit/{id}/default-address',
      operationId: 'setUnitDefaultAddresses',
      summary:
        "Sets a unit's default billing and/or shipping address (null removes it); the address must be offered to the unit's buyers.",
      permission: MANAGE,
      actors: COMPANY_OWN,
      schemas: { params: pathParams('id'), body: unitDefaultsBody, responses: { 200: unitDefaultsResponse } },
      handler: ({ ctx, params, body }) => setUnitDefaults(host, ctx, params.id, body),
    }),
  ];
}
