import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { noContent } from '../../lib/routes.js';
import { depthFirst, findUnit, unitTree } from '../company/index.js';
import { deleteUnitPaymentTerms, savePaymentTerms, unitPaymentTerms } from './repository.js';
import { customerPrecision, termsOfBody } from './routes.js';
import {
  ADMIN_TAG,
  customerParams,
  customerUnitParams,
  termsResponse,
  termsSchema,
  unitTermsListResponse,
} from './schemas.js';
import { termsView } from './service.js';

/** Operators set payment terms per organisation unit, replacing the company's for the unit's subtree. */
export function unitPaymentTermsAdminRoutes(host: HostRuntime) {
  /** Another company's unit is a 404 like an unknown one. */
  const companyUnit = async (customerId: string, unitId: string) => {
    await customerPrecision(host, customerId);
    if (!(await findUnit(host.db, customerId, unitId))) throw Errors.notFound('Organisation unit', unitId);
  };
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/b2b/payment-terms/{customerId}/units',
      operationId: 'listUnitPaymentTerms',
      summary:
        "A company's organisation units, each above its sub-units, with its path of names and its own payment terms (null: the unit above's, else the company's).",
      tags: [ADMIN_TAG],
      auth: 'admin',
      permission: null,
      schemas: { params: customerParams, responses: { 200: unitTermsListResponse } },
      async handler({ params }) {
        await customerPrecision(host, params.customerId);
        const [tree, terms] = await Promise.all([
          unitTree(host.db, params.customerId),
          unitPaymentTerms(host.db, params.customerId),
        ]);
        const paths = new Map<string, string[]>();
        const data = depthFirst(tree, (unit) => unit.parentId).map((unit) => {
          const path = [...(unit.parentId ? (paths.get(unit.parentId) ?? []) : []), unit.name];
          paths.set(unit.id, path);
          const own = terms.get(unit.id);
          return {
            id: unit.id,
            type: 'b2b_unit_payment_terms' as const,
            attributes: { path, paymentTerms: own ? termsView(own) : null },
          };
        });
        return { data, meta: { total: data.length } };
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: '/b2b/payment-terms/{customerId}/unit/{unitId}',
      operationId: 'readUnitPaymentTerms',
      summary:
        "An organisation unit's own payment terms; its buyers' orders carry them instead of the company's (404 when the unit has none).",
      tags: [ADMIN_TAG],
      auth: 'admin',
      permission: null,
      schemas: { params: customerUnitParams, responses: { 200: termsResponse } },
      async handler({ params }) {
        await companyUnit(params.customerId, params.unitId);
        const terms = (await unitPaymentTerms(host.db, params.customerId)).get(params.unitId);
        if (!terms) throw Errors.notFound('Payment terms', params.unitId);
        return { data: { id: params.unitId, type: 'b2b_payment_terms', attributes: termsView(terms) } };
      },
    }),
    defineAdminRoute({
      method: 'PUT',
      path: '/b2b/payment-terms/{customerId}/unit/{unitId}',
      operationId: 'setUnitPaymentTerms',
      summary:
        "Sets an organisation unit's payment terms: the orders of the buyers in the unit and below it carry them instead of the company's.",
      description:
        "A buyer in several units with terms gets the deepest unit's (ties: the unit first by name). A discount needs days within the days net (400 SUITE__PAYMENT_TERMS_INVALID).",
      tags: [ADMIN_TAG],
      auth: 'admin',
      permission: null,
      schemas: {
        params: customerUnitParams,
        body: termsSchema,
        bodyName: 'PaymentTerms',
        responses: { 200: termsResponse },
      },
      async handler({ params, body }) {
        await companyUnit(params.customerId, params.unitId);
        const terms = termsOfBody(params.customerId, body);
        await savePaymentTerms(host.db, terms, params.unitId);
        return { data: { id: params.unitId, type: 'b2b_payment_terms', attributes: termsView(terms) } };
      },
    }),
    defineAdminRoute({
      method: 'DELETE',
      path: '/b2b/payment-terms/{customerId}/unit/{unitId}',
      operationId: 'deleteUnitPaymentTerms',
      summary: "Removes an organisation unit's own payment terms: its buyers get the unit above's, else the company's.",
      tags: [ADMIN_TAG],
      auth: 'admin',
      permission: null,
      schemas: { params: customerUnitParams, responses: { 204: null } },
      async handler({ params }) {
        await companyUnit(params.customerId, params.unitId);
        if ((await deleteUnitPaymentTerms(host.db, params.unitId)) === 0)
          throw Errors.notFound('Payment terms', params.unitId);
        return noContent();
      },
    }),
  ];
}
