import { defineStoreRoute, type HostRuntime } from '../../../contract/index.js';
import type { StoreActorName } from '../../../lib/routes.js';
import { pathParams } from '../../../lib/schemas.js';
import { checkoutMethodsBody, checkoutMethodsResponse, TAG } from './schemas.js';
import { readUnitCheckoutMethods, setUnitCheckoutMethods } from './service.js';

const common = { tags: [TAG], auth: 'login' as const, needsCustomer: true };
/** The company's own administration: a sales representative acting for it may read, not change. */
const COMPANY_OWN: StoreActorName[] = ['customer', 'employee'];

export function checkoutMethodRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/b2b/organisation-unit/{id}/checkout-methods',
      operationId: 'readUnitCheckoutMethods',
      summary:
        "The payment and shipping methods a unit's buyers may use: the unit's own lists (null: none of its own) and the effective ones (the nearest unit above with a list; null: every method).",
      permission: 'organisation-unit.read',
      schemas: { params: pathParams('id'), responses: { 200: checkoutMethodsResponse } },
      handler: ({ ctx, params }) => readUnitCheckoutMethods(host, ctx, params.id),
    }),
    defineStoreRoute({
      ...common,
      method: 'PUT',
      path: '/b2b/organisation-unit/{id}/checkout-methods',
      operationId: 'setUnitCheckoutMethods',
      summary:
        "Sets the payment and shipping methods (technical names of /payment-method and /shipping-method) the buyers of a unit and its sub-units may use; null removes the unit's own list.",
      description:
        'A buyer in several units may use what any of them allows. The method lists leave the others out for the buyer, and an order naming one is refused (400 SUITE__PAYMENT_METHOD_NOT_ALLOWED / SUITE__SHIPPING_METHOD_NOT_ALLOWED). An unknown name is a 400 SUITE__CHECKOUT_METHOD_UNKNOWN.',
      permission: 'organisation-unit.manage',
      actors: COMPANY_OWN,
      schemas: {
        params: pathParams('id'),
        body: checkoutMethodsBody,
        bodyName: 'UnitCheckoutMethods',
        responses: { 200: checkoutMethodsResponse },
      },
      handler: ({ ctx, params, body }) => setUnitCheckoutMethods(host, ctx, params.id, body),
    }),
  ];
}
