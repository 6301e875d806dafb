import type { Knex } from 'knex';
import { searchByCriteria, type Criteria } from '../../lib/criteria.js';
import { inTransaction, isDuplicateKeyError, readInt } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { fromMinor } from '../../lib/money.js';
import { emptyBody, listResponse, nullable, objectSchema, pathParams, successResponse } from '../../lib/schemas.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import type { HostRuntime, StoreContext, StoreRoute } from '../../host/contract.js';
import { employeesOfLinks } from './employees.js';
import { emailTaken, requireRepresentative, TAG } from './context.js';
import {
  assignedCustomerIds,
  assignedCustomers,
  findRepresentative,
  isAssigned,
  loginEmailInUse,
  REPRESENTATIVES,
  representativeIdentity,
  representativeOfCustomer,
} from './repository.js';
import {
  contextTokenResponse,
  customerCriteria,
  customerCriteriaBody,
  customerEmployeeSchema,
  customerSchema,
  customerWithStatsSchema,
  employeeCriteriaBody,
  lastOrdersBody,
  lastOrdersCriteria,
  orderCriteria,
  orderCriteriaBody,
  orderListResponse,
  pagingQuery,
  profilePatchBody,
  rankingBody,
  rankingResponse,
  representativeContactSchema,
  representativeEmployeeCriteria,
  statisticsQuery,
  statisticsResponse,
  switchCustomerBody,
} from './schemas.js';
import { customerRanking, salesStatistics } from './statistics.js';

const CONTEXT_TOKEN_HEADER = 'suite-context-token';
const CUSTOMER_COLUMNS = ['c.id', 'c.customer_number', 'c.company', 'c.email', 'c.first_name', 'c.last_name', 'c.group_id'];

function toCustomer(ctx: StoreContext, row: Record<string, any>) {
  return {
    id: row.id,
    customerNumber: row.customer_number,
    company: row.company ?? null,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    groupId: row.group_id ?? null,
    current: row.id === ctx.customer?.id,
  };
}

/** Orders of the representative's assigned customers. */
function assignedOrders(host: HostRuntime, ctx: StoreContext): Knex.QueryBuilder {
  const rep = requireRepresentative(ctx);
  return host.db('orders as o').whereIn('o.customer_id', assignedCustomerIds(host.db, rep.id, ctx.salesChannel.id));
}

async function orderPage(host: HostRuntime, base: Knex.QueryBuilder, criteria: Criteria, spec = orderCriteria) {
  const page = await searchByCriteria<{ id: string }>(base, criteria, spec, (qb) => qb.select('o.id'));
  return { total: page.total, data: page.rows.length ? await host.orders.getMany(host.db, page.rows.map((r) => r.id)) : [] };
}

async function assertAssigned(host: HostRuntime, ctx: StoreContext, customerId: string): Promise<void> {
  const rep = requireRepresentative(ctx);
  if (!(await isAssigned(host.db, rep.id, ctx.salesChannel.id, customerId))) throw Errors.notFound('customer', customerId);
}

export function representativeRoutes(host: HostRuntime): StoreRoute[] {
  return [
    {
      method: 'GET',
      path: '/sales-representative',
      operationId: 'readCustomerSalesRepresentative',
      summary: 'The sales representative who looks after the current customer (null when none is assigned).',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { responses: { 200: objectSchema({ salesRepresentative: nullable(representativeContactSchema) }, ['salesRepresentative']) } },
      async handler({ ctx }) {
        const row = ctx.customer ? await representativeOfCustomer(host.db, ctx.customer.id) : null;
        return { salesRepresentative: row ? { id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name, phone: row.phone ?? null } : null };
      },
    },
    {
      method: 'PATCH',
      path: '/sales-representative/{id}',
      operationId: 'updateOwnSalesRepresentativeProfile',
      summary: 'The representative changes their own name, phone or e-mail address; any other id is a 404.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { params: pathParams('id'), body: profilePatchBody, responses: { 200: successResponse } },
      async handler({ ctx, params, body }) {
        const rep = requireRepresentative(ctx);
        if (params.id !== rep.id) throw Errors.notFound('sales representative', params.id);
        await inTransaction(host.db, async (trx) => {
          const update: Record<string, unknown> = { updated_at: nowDb() };
          if (body.email !== undefined) {
            const email = String(body.email).trim().toLowerCase();
            if (await loginEmailInUse(trx, email, rep.id)) throw emailTaken();
            update.email = email;
          }
          if (body.firstName !== undefined) update.first_name = body.firstName.trim();
          if (body.lastName !== undefined) update.last_name = body.lastName.trim();
          if (body.phone !== undefined) update.phone = body.phone?.trim() || null;
          try {
            await trx(REPRESENTATIVES).where({ id: rep.id }).update(update);
          } catch (error) {
            if (isDuplicateKeyError(error)) throw emailTaken();
            throw error;
          }
        });
        return { success: true };
      },
    },
    {
      method: 'POST',
      path: '/sales-representative/switch-customer',
      operationId: 'switchSalesRepresentativeCustomer',
      summary: 'The representative chooses which assigned customer to act for; returns a new context token for it.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { body: switchCustomerBody, responses: { 200: contextTokenResponse } },
      async handler({ ctx, body, res }) {
        const rep = requireRepresentative(ctx);
        const session = await inTransaction(host.db, async (trx) => {
          if (!(await isAssigned(trx, rep.id, ctx.salesChannel.id, body.customerId))) throw Errors.notFound('customer', body.customerId);
          const row = await findRepresentative(trx, rep.id);
          if (!row) throw Errors.unauthorized();
          return host.auth.createSession(trx, { ...representativeIdentity(row, body.customerId), salesChannelId: ctx.salesChannel.id });
        });
        res.setHeader(CONTEXT_TOKEN_HEADER, session.token);
        return { contextToken: session.token, customerId: body.customerId };
      },
    },
    {
      method: 'POST',
      path: '/sales-representative/customers',
      operationId: 'listSalesRepresentativeCustomers',
      summary: 'The representative’s assigned customers with their order count, net revenue and last order date; `current` marks the one acted for.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { body: customerCriteriaBody, responses: { 200: listResponse(customerWithStatsSchema) } },
      async handler({ ctx, body }) {
        const rep = requireRepresentative(ctx);
        const page = await searchByCriteria<Record<string, any>>(assignedCustomers(host.db, rep.id, ctx.salesChannel.id), body as Criteria, customerCriteria, (qb) => qb.select(CUSTOMER_COLUMNS));
        const ids = page.rows.map((r) => r.id as string);
        const stats = ids.length
          ? await host.db('orders')
              .whereIn('customer_id', ids)
              .whereNot('state', 'cancelled')
              .groupBy('customer_id')
              .select('customer_id', host.db.raw('COUNT(*) as order_count'), host.db.raw('SUM(net_total) as revenue'), host.db.raw('MAX(order_date) as last_order'))
          : [];
        const byCustomer = new Map(stats.map((s: Record<string, any>) => [s.customer_id as string, s]));
        const precision = ctx.salesChannel.currencyPrecision;
        return {
          total: page.total,
          data: page.rows.map((row) => {
            const s = byCustomer.get(row.id);
            return { ...toCustomer(ctx, row), orderCount: readInt(s?.order_count), revenue: fromMinor(readInt(s?.revenue), precision), lastOrderDate: fromDbTime(s?.last_order ?? null) };
          }),
        };
      },
    },
    {
      method: 'POST',
      path: '/sales-representative/customer-search',
      operationId: 'searchSalesRepresentativeCustomers',
      summary: 'Searches the assigned customers (term over company, number, e-mail and name; criteria filters).',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { body: customerCriteriaBody, responses: { 200: listResponse(customerSchema) } },
      async handler({ ctx, body }) {
        const rep = requireRepresentative(ctx);
        const page = await searchByCriteria<Record<string, any>>(assignedCustomers(host.db, rep.id, ctx.salesChannel.id), body as Criteria, customerCriteria, (qb) => qb.select(CUSTOMER_COLUMNS));
        return { total: page.total, data: page.rows.map((row) => toCustomer(ctx, row)) };
      },
    },
    {
      method: 'POST',
      path: '/sales-representative/orders',
      operationId: 'listSalesRepresentativeOrders',
      summary: 'Orders of all assigned customers, newest first (filter by customerId, state, orderDate …).',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { body: orderCriteriaBody, responses: { 200: orderListResponse } },
      async handler({ ctx, body }) {
        return orderPage(host, assignedOrders(host, ctx), body as Criteria);
      },
    },
    {
      method: 'POST',
      path: '/sales-representative/customer-last-orders',
      operationId: 'listSalesRepresentativeCustomerLastOrders',
      summary: 'The most recent order of each assigned customer that has ordered, newest first.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { body: lastOrdersBody, responses: { 200: orderListResponse } },
      async handler({ ctx, body }) {
        const base = assignedOrders(host, ctx)
          .join('customers as c', 'c.id', 'o.customer_id')
          .whereNotExists((q) =>
            q
              .select(1)
              .from('orders as newer')
              .whereRaw('newer.customer_id = o.customer_id')
              .where((w) => w.whereRaw('newer.order_date > o.order_date').orWhere((x) => x.whereRaw('newer.order_date = o.order_date').whereRaw('newer.id > o.id'))),
          );
        return orderPage(host, base, body as Criteria, lastOrdersCriteria);
      },
    },
    {
      method: 'GET',
      path: '/sales-representative/customer-orders/{customerId}',
      operationId: 'listSalesRepresentativeCustomerOrders',
      summary: 'The orders of one assigned customer, newest first (query page and limit).',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { params: pathParams('customerId'), query: objectSchema(pagingQuery), responses: { 200: orderListResponse } },
      async handler({ ctx, params, query }) {
        await assertAssigned(host, ctx, params.customerId);
        return orderPage(host, host.db('orders as o').where('o.customer_id', params.customerId), { page: query.page, limit: query.limit });
      },
    },
    {
      method: 'POST',
      path: '/sales-representative/customer-activity-order/{id}',
      operationId: 'listSalesRepresentativeEmployeeOrders',
      summary: 'Orders an employee of an assigned customer placed (path id: the employee id), newest first.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { params: pathParams('id'), body: orderCriteriaBody, responses: { 200: orderListResponse } },
      async handler({ ctx, params, body }) {
        const rep = requireRepresentative(ctx);
        const linked = await host.db('b2b_employee_customers')
          .where('employee_id', params.id)
          .whereIn('customer_id', assignedCustomerIds(host.db, rep.id, ctx.salesChannel.id))
          .first('id');
        if (!linked) throw Errors.notFound('employee', params.id);
        const base = assignedOrders(host, ctx).where('o.placed_by_type', 'employee').where('o.placed_by_id', params.id);
        return orderPage(host, base, body as Criteria);
      },
    },
    {
      method: 'POST',
      path: '/sales-representative/employees',
      operationId: 'listSalesRepresentativeEmployees',
      summary: 'Employees of the assigned customers, one entry per employee and customer (filter by customerId).',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { body: employeeCriteriaBody, responses: { 200: listResponse(customerEmployeeSchema) } },
      async handler({ ctx, body }) {
        const rep = requireRepresentative(ctx);
        return employeesOfLinks(host, assignedCustomerIds(host.db, rep.id, ctx.salesChannel.id), body as Criteria, representativeEmployeeCriteria);
      },
    },
    {
      method: 'POST',
      path: '/sales-representative/sales-statistics',
      operationId: 'readSalesStatistics',
      summary: 'Net revenue, order count and average order value of an assigned customer per calendar month (sales channel time zone), cancelled orders excluded.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { query: statisticsQuery, body: emptyBody, responses: { 200: statisticsResponse } },
      async handler({ ctx, query }) {
        await assertAssigned(host, ctx, query.customerId);
        return salesStatistics(host, ctx.salesChannel, query.customerId, query.months);
      },
    },
    {
      method: 'POST',
      path: '/sales-representative/customer-sales-ranking',
      operationId: 'readCustomerSalesRanking',
      summary: 'Assigned customers ranked by net revenue (optionally between from and to); with customerId only that customer’s entry.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { body: rankingBody, responses: { 200: rankingResponse } },
      async handler({ ctx, body }) {
        const rep = requireRepresentative(ctx);
        if (body.customerId) await assertAssigned(host, ctx, body.customerId);
        if (body.from && body.to && new Date(body.from) > new Date(body.to))
          throw Errors.badRequest('SUITE__INVALID_PERIOD', '"from" must not be after "to".', { pointer: '/from' });
        const ranking = await customerRanking(host, ctx.salesChannel, assignedCustomers(host.db, rep.id, ctx.salesChannel.id), body.from, body.to);
        const entries = body.customerId ? ranking.filter((entry) => entry.customerId === body.customerId) : ranking;
        const start = (body.page - 1) * body.limit;
        return { total: entries.length, data: entries.slice(start, start + body.limit) };
      },
    },
  ];
}
