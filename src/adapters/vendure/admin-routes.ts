import { defineAdminRoute, type AdminRoute, type CustomerRef } from '../../contract/index.js';
import { CUSTOMER_SEARCH_CRITERIA } from '../../host-kit/customer-search.js';
import { criteriaSchema, DEFAULT_LIMIT, searchByCriteria } from '../../lib/criteria.js';
import { Errors } from '../../lib/errors.js';
import { jsonApiList, jsonApiListSchema } from '../../lib/json-api.js';
import { nullable, objectSchema, pathParams } from '../../lib/schemas.js';
import { customerTable } from './customers.js';
import { ruleRoutes } from './rules.js';
import type { AdapterState } from './state.js';
import { customersByIds } from './vendure-tables.js';

const customerResource = objectSchema(
  {
    id: { type: 'string' },
    type: { const: 'customer' },
    attributes: objectSchema(
      {
        customerNumber: { type: 'string' },
        company: nullable({ type: 'string' }),
        firstName: { type: 'string' },
        lastName: { type: 'string' },
        email: { type: 'string' },
        active: { type: 'boolean' },
        groupId: nullable({ type: 'string' }),
      },
      ['customerNumber', 'company', 'firstName', 'lastName', 'email', 'active', 'groupId'],
    ),
  },
  ['id', 'type', 'attributes'],
);

const asResource = (customer: CustomerRef) => ({
  id: customer.id,
  type: 'customer' as const,
  attributes: {
    customerNumber: customer.customerNumber,
    company: customer.company,
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    active: customer.active,
    groupId: customer.groupId,
  },
});

/**
 * The reference host's customer reads of its Admin API (`searchCustomer`, `readCustomer`) on Vendure's
 * customers, read-only (Vendure's Admin API changes customers): what the console's Companies pages call.
 */
export function adapterAdminRoutes(state: AdapterState): AdminRoute[] {
  return [
    ...ruleRoutes(state),
    defineAdminRoute({
      method: 'POST',
      path: '/search/customer',
      operationId: 'searchCustomer',
      summary: "Searches Vendure's customers by criteria (JSON:API); the customer number is Vendure's customer id.",
      tags: ['Customers'],
      auth: 'admin',
      permission: null,
      schemas: {
        body: criteriaSchema(Object.keys(CUSTOMER_SEARCH_CRITERIA.fields)),
        responses: { 200: jsonApiListSchema(customerResource) },
      },
      async handler({ body }) {
        const criteria = body;
        const found = await searchByCriteria<{ id: string }>(
          customerTable(state.ids, state.db, null, false),
          criteria,
          CUSTOMER_SEARCH_CRITERIA,
          (qb) => qb.select('customers.id'),
        );
        const salesChannelId = (await state.salesChannel()).id;
        const customers = await customersByIds(
          state.ids,
          state.db,
          found.rows.map((row) => row.id),
          salesChannelId,
        );
        return jsonApiList(customers.map(asResource), {
          path: '/search/customer',
          page: criteria.page ?? 1,
          limit: criteria.limit ?? DEFAULT_LIMIT,
          total: found.total,
        });
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: '/customer/{id}',
      operationId: 'readCustomer',
      summary: "One of Vendure's customers.",
      tags: ['Customers'],
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('id'), responses: { 200: objectSchema({ data: customerResource }, ['data']) } },
      async handler({ params }) {
        const customer = await state.runtime.customers.get(state.db, params.id);
        if (!customer) throw Errors.notFound('customer', params.id);
        return { data: asResource(customer) };
      },
    }),
  ];
}
