import { criteriaSchema, renameCriteriaFields, type Criteria } from '../../../lib/criteria.js';
import type { Executor } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { looseObject, objectSchema, pathParams } from '../../../lib/schemas.js';
import { storeList, storeListResponse } from '../../../lib/store-list.js';
import {
  defineStoreRoute,
  orderView,
  type HostRuntime,
  type OrderScope,
  type StoreContext,
} from '../../../contract/index.js';
import { TAG } from '../common.js';
import { declaredCustomer } from '../../declared.js';

/**
 * The spec's order route response `{orders: {total, page, limit, elements}}`, with the same page as the
 * Store API list envelope beside it: clients written for the shop platform read the top-level `elements`.
 */
const orderListResponse = storeListResponse(
  { ...looseObject, properties: { id: { type: 'string' } }, required: ['id'] },
  {
    extra: {
      orders: objectSchema(
        {
          total: { type: 'integer', minimum: 0 },
          page: { type: 'integer' },
          limit: { type: 'integer' },
          elements: { type: 'array', items: looseObject },
        },
        ['total', 'page', 'limit', 'elements'],
      ),
    },
    extraRequired: ['orders'],
  },
);

/** The order fields this list filters and sorts on; `employeeId` is the host's `placedById`. */
const ORDER_FIELDS = ['id', 'orderNumber', 'orderDate', 'state', 'employeeId', 'placedByType'];

/**
 * The employees whose orders a holder of orders.read-unit sees (the caller included): those of the
 * caller's organisation units and the units below them. The plugin's entry passes it in from the
 * company add-on, which imports this one.
 */
export type UnitColleagues = (executor: Executor, customerId: string, employeeId: string) => Promise<string[]>;

/**
 * Orders the caller may see, as a scope and criteria narrowed on the server: with orders.read-all
 * every order of the customer; an employee with orders.read-unit those placed by the employees of
 * their unit subtrees; else those they placed themselves.
 */
async function visibleOrders(
  host: HostRuntime,
  ctx: StoreContext,
  criteria: Criteria,
  unitColleagues?: UnitColleagues,
): Promise<[OrderScope, Criteria]> {
  const customerIds = [declaredCustomer(ctx).id];
  if (ctx.can('orders.read-all')) return [{ customerIds }, criteria];
  if (unitColleagues && ctx.actor.type === 'employee' && ctx.actor.id && ctx.can('orders.read-unit')) {
    const employeeIds = await unitColleagues(host.db, customerIds[0]!, ctx.actor.id);
    const within = [
      { type: 'equals' as const, field: 'placedByType', value: 'employee' },
      { type: 'equalsAny' as const, field: 'placedById', value: employeeIds },
    ];
    return [{ customerIds }, { ...criteria, filter: [...(criteria.filter ?? []), ...within] }];
  }
  return [{ customerIds, placedBy: { type: ctx.actor.type, id: ctx.actor.id ?? '' } }, criteria];
}

export function employeeOrderRoutes(host: HostRuntime, unitColleagues?: UnitColleagues) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee-orders',
      operationId: 'listEmployeeOrders',
      summary:
        'Orders the caller placed; with orders.read-unit those of the employees of their organisation units and the units below; with orders.read-all (the company admin) all of the customer’s, filterable by employeeId.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'orders.read',
      description:
        'Answers like the order route (`{"orders": {"total", "page", "limit", "elements"}}`) and, beside it, the same page as the Store API list envelope (top-level `elements`, `total`, `page`, `limit`).',
      schemas: { body: criteriaSchema(ORDER_FIELDS), responses: { 200: orderListResponse } },
      async handler({ ctx, body }) {
        const page = await host.orders.search(
          host.db,
          ...(await visibleOrders(host, ctx, renameCriteriaFields(body, { employeeId: 'placedById' }), unitColleagues)),
        );
        const elements = page.elements.map(orderView);
        return {
          ...storeList(elements, page),
          orders: { total: page.total, page: page.page, limit: page.limit, elements },
        };
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/employee-order/{id}',
      operationId: 'readEmployeeOrder',
      summary: 'One order the caller may see (see /b2b/employee-orders).',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'orders.read',
      schemas: { params: pathParams('id'), responses: { 200: looseObject } },
      async handler({ ctx, params }) {
        const [order] = (
          await host.orders.search(
            host.db,
            ...(await visibleOrders(
              host,
              ctx,
              { ids: [params.id], limit: 1, 'total-count-mode': 'none' },
              unitColleagues,
            )),
          )
        ).elements;
        if (!order) throw Errors.notFound('order', params.id);
        return orderView(order);
      },
    }),
  ];
}
