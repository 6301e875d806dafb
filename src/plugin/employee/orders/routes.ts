import type { Knex } from 'knex';
import { criteriaSchema, searchByCriteria, type Criteria, type CriteriaSpec } from '../../../lib/criteria.js';
import { Errors } from '../../../lib/errors.js';
import { looseObject, objectSchema, pathParams } from '../../../lib/schemas.js';
import type { HostRuntime, StoreContext, StoreRoute } from '../../../host/contract.js';
import { requireCustomer, TAG } from '../common.js';

const orderListResponse = objectSchema(
  {
    orders: objectSchema(
      { total: { type: 'integer', minimum: 0 }, page: { type: 'integer' }, limit: { type: 'integer' }, elements: { type: 'array', items: looseObject } },
      ['total', 'page', 'limit', 'elements'],
    ),
  },
  ['orders'],
);

const orderCriteria: CriteriaSpec = {
  fields: {
    id: { column: 'o.id', type: 'id' },
    orderNumber: { column: 'o.order_number', type: 'string' },
    orderDate: { column: 'o.order_date', type: 'date' },
    state: { column: 'o.state', type: 'string' },
    employeeId: { column: 'o.placed_by_id', type: 'id' },
    placedByType: { column: 'o.placed_by_type', type: 'string' },
  },
  termColumns: ['o.order_number'],
  defaultSort: [
    { column: 'o.order_date', order: 'desc' },
    { column: 'o.id', order: 'desc' },
  ],
  idColumn: 'o.id',
};

/** Orders the caller may see: with orders.read-all every order of the customer, else those they placed themselves. */
function visibleOrders(host: HostRuntime, ctx: StoreContext): Knex.QueryBuilder {
  const query = host.db('orders as o').where('o.customer_id', requireCustomer(ctx).id);
  if (!ctx.can('orders.read-all')) query.where('o.placed_by_type', ctx.actor.type).where('o.placed_by_id', ctx.actor.id ?? '');
  return query;
}

export function employeeOrderRoutes(host: HostRuntime): StoreRoute[] {
  return [
    {
      method: 'POST',
      path: '/b2b/employee-orders',
      operationId: 'listEmployeeOrders',
      summary: 'Orders the caller placed; with orders.read-all (the company admin) all of the customer’s, filterable by employeeId.',
      tags: [TAG],
      auth: 'login',
      permission: 'orders.read',
      description: 'Answers like the order route: `{"orders": {"total", "page", "limit", "elements"}}`.',
      schemas: { body: criteriaSchema(Object.keys(orderCriteria.fields)), responses: { 200: orderListResponse } },
      async handler({ ctx, body }) {
        const page = await searchByCriteria<{ id: string }>(visibleOrders(host, ctx), body as Criteria, orderCriteria, (qb) => qb.select('o.id'));
        const elements = page.rows.length ? await host.orders.getMany(host.db, page.rows.map((r) => r.id)) : [];
        return { orders: { total: page.total, page: page.page, limit: page.limit, elements } };
      },
    },
    {
      method: 'GET',
      path: '/b2b/employee-order/{id}',
      operationId: 'readEmployeeOrder',
      summary: 'One order the caller may see (see /b2b/employee-orders).',
      tags: [TAG],
      auth: 'login',
      permission: 'orders.read',
      schemas: { params: pathParams('id'), responses: { 200: looseObject } },
      async handler({ ctx, params }) {
        const row = await visibleOrders(host, ctx).where('o.id', params.id).first('o.id');
        const order = row ? await host.orders.get(host.db, row.id) : null;
        if (!order) throw Errors.notFound('order', params.id);
        return order;
      },
    },
  ];
}
