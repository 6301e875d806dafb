import { termAsFilter, type Criteria } from '../../lib/criteria.js';
import { inTransaction, isDuplicateKeyError } from '../../lib/db.js';
import { AppError, Errors } from '../../lib/errors.js';
import { fromMinor } from '../../lib/money.js';
import { emptyBody, objectSchema, pathParams, successResponse } from '../../lib/schemas.js';
import { storeList, storeListResponse } from '../../lib/store-list.js';
import { nowDb } from '../../lib/time.js';
import {
  defineStoreRoute,
  orderView,
  type CustomerRef,
  type HostRuntime,
  type OrderScope,
  type StoreContext,
} from '../../contract/index.js';
import { containsText, employeesOfLinks } from './employees.js';
import { emailTaken, TAG } from './context.js';
import {
  assignedCustomers,
  employeeLinkedToAny,
  findRepresentative,
  isAssigned,
  loginEmailInUse,
  representativeIdentity,
  representativeOfCustomer,
  updateRepresentative,
  type RepresentativeChanges,
} from './repository.js';
import {
  contextTokenResponse,
  customerCriteriaBody,
  customerSearchBody,
  customerEmployeeSchema,
  customerSchema,
  customerWithStatsSchema,
  employeeCriteriaBody,
  lastOrdersBody,
  orderCriteriaBody,
  orderArrayResponse,
  representativeCustomerResponse,
  orderListResponse,
  pagingQuery,
  profilePatchBody,
  rankingBody,
  rankingResponse,
  representativeEmployeeCriteria,
  statisticsBody,
  statisticsQuery,
  statisticsResponse,
  switchCustomerBody,
} from './schemas.js';
import { customerRanking, salesStatistics, salesStatisticsOfAll } from './statistics.js';
import { declaredRepresentative } from '../declared.js';

const CONTEXT_TOKEN_HEADER = 'suite-context-token';

function toCustomer(ctx: StoreContext, customer: CustomerRef) {
  return {
    id: customer.id,
    customerNumber: customer.customerNumber,
    company: customer.company ?? null,
    email: customer.email,
    firstName: customer.firstName,
    lastName: customer.lastName,
    groupId: customer.groupId ?? null,
    current: customer.id === ctx.customer?.id,
  };
}

/** The representative's assigned customers (see assignedCustomers). */
async function assignedTo(host: HostRuntime, ctx: StoreContext): Promise<CustomerRef[]> {
  const rep = declaredRepresentative(ctx);
  return assignedCustomers(host, host.db, rep.id, ctx.salesChannel.id);
}

/** A page of the assigned customers by criteria. */
async function customerPage(host: HostRuntime, ctx: StoreContext, criteria: Criteria) {
  const ids = (await assignedTo(host, ctx)).map((customer) => customer.id);
  return host.customers.search(host.db, { ids, salesChannelId: ctx.salesChannel.id, activeOnly: true }, criteria);
}

async function orderPage(host: HostRuntime, scope: OrderScope, criteria: Criteria) {
  const page = await host.orders.search(host.db, scope, criteria);
  return storeList(page.elements.map(orderView), page);
}

async function assertAssigned(host: HostRuntime, ctx: StoreContext, customerId: string): Promise<void> {
  const rep = declaredRepresentative(ctx);
  if (!(await isAssigned(host, host.db, rep.id, ctx.salesChannel.id, customerId)))
    throw Errors.notFound('customer', customerId);
}

export function representativeRoutes(host: HostRuntime) {
  return [
    ...representativeProfileRoutes(host),
    stopActingRoute(host),
    ...representativeCustomerRoutes(host),
    ...representativeOrderRoutes(host),
    ...representativeEmployeeAndStatisticsRoutes(host),
  ];
}

/** The customer's own representative, the representative's profile, and switching the customer they act for. */
function representativeProfileRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'GET',
      path: '/sales-representative',
      operationId: 'readCustomerSalesRepresentative',
      summary:
        "The sales representative who looks after the current customer, as the platform's customer response; 404 when none is assigned.",
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { responses: { 200: representativeCustomerResponse } },
      async handler({ ctx }) {
        const row = ctx.customer ? await representativeOfCustomer(host.db, ctx.customer.id) : null;
        if (!row)
          throw new AppError(
            404,
            'SUITE__NO_SALES_REPRESENTATIVE',
            'No sales representative looks after this customer.',
          );
        return {
          id: row.id,
          apiAlias: 'customer',
          email: row.email,
          firstName: row.first_name,
          lastName: row.last_name,
          phone: row.phone ?? null,
        };
      },
    }),
    defineStoreRoute({
      method: 'PATCH',
      path: '/sales-representative/{id}',
      operationId: 'updateOwnSalesRepresentativeProfile',
      summary: 'The representative changes their own name, phone or e-mail address; any other id is a 404.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { params: pathParams('id'), body: profilePatchBody, responses: { 200: successResponse } },
      async handler({ ctx, params, body }) {
        const rep = declaredRepresentative(ctx);
        if (params.id !== rep.id) throw Errors.notFound('sales representative', params.id);
        await inTransaction(host.db, async (trx) => {
          const update: RepresentativeChanges = { updated_at: nowDb() };
          if (body.email !== undefined) {
            const email = body.email.trim().toLowerCase();
            if (await loginEmailInUse(host, trx, email, rep.id)) throw emailTaken();
            update.email = email;
          }
          if (body.firstName !== undefined) update.first_name = body.firstName.trim();
          if (body.lastName !== undefined) update.last_name = body.lastName.trim();
          if (body.phone !== undefined) update.phone = body.phone?.trim() || null;
          try {
            await updateRepresentative(trx, rep.id, update);
          } catch (error) {
            if (isDuplicateKeyError(error)) throw emailTaken();
            throw error;
          }
        });
        return { success: true };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/switch-customer',
      operationId: 'switchSalesRepresentativeCustomer',
      summary: 'The representative chooses which assigned customer to act for; returns a new context token for it.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { body: switchCustomerBody, responses: { 200: contextTokenResponse } },
      async handler({ ctx, body, headers }) {
        const rep = declaredRepresentative(ctx);
        const session = await inTransaction(host.db, async (trx) => {
          if (!(await isAssigned(host, trx, rep.id, ctx.salesChannel.id, body.customerId)))
            throw Errors.notFound('customer', body.customerId);
          const row = await findRepresentative(trx, rep.id);
          if (!row) throw Errors.unauthorized();
          return host.auth.createSession(trx, {
            ...representativeIdentity(row, body.customerId),
            salesChannelId: ctx.salesChannel.id,
          });
        });
        headers.setHeader(CONTEXT_TOKEN_HEADER, session.token);
        return { contextToken: session.token, customerId: body.customerId };
      },
    }),
  ];
}

/** Ending the acting for a customer: a new session of the representative without one. */
function stopActingRoute(host: HostRuntime) {
  return defineStoreRoute({
    method: 'POST',
    path: '/sales-representative/switch-customer/stop',
    operationId: 'stopSalesRepresentativeActing',
    summary:
      'The representative stops acting for a customer; returns a new context token of the representative alone (the old one keeps nothing of the customer).',
    tags: [TAG],
    auth: 'login',
    actors: ['salesRepresentative'],
    permission: null,
    schemas: {
      body: emptyBody,
      responses: { 200: objectSchema({ contextToken: { type: 'string' } }, ['contextToken']) },
    },
    async handler({ ctx, headers }) {
      const rep = declaredRepresentative(ctx);
      const session = await inTransaction(host.db, async (trx) => {
        const row = await findRepresentative(trx, rep.id);
        if (!row) throw Errors.unauthorized();
        return host.auth.createSession(trx, {
          ...representativeIdentity(row, null),
          salesChannelId: ctx.salesChannel.id,
        });
      });
      headers.setHeader(CONTEXT_TOKEN_HEADER, session.token);
      return { contextToken: session.token };
    },
  });
}

/** The representative's assigned customers: the list and the search. */
function representativeCustomerRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/customers',
      operationId: 'listSalesRepresentativeCustomers',
      summary:
        'The representative’s assigned customers with their order count, net revenue and last order date; `current` marks the one acted for.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { body: customerCriteriaBody, responses: { 200: storeListResponse(customerWithStatsSchema) } },
      async handler({ ctx, body }) {
        const page = await customerPage(host, ctx, body);
        const figures = await host.orders.figuresByCustomer(
          host.db,
          page.elements.map((customer) => customer.id),
        );
        const byCustomer = new Map(figures.map((f) => [f.customerId, f]));
        const precision = ctx.salesChannel.currencyPrecision;
        return storeList(
          page.elements.map((customer) => {
            const f = byCustomer.get(customer.id);
            return {
              ...toCustomer(ctx, customer),
              orderCount: f?.orderCount ?? 0,
              revenue: fromMinor(f?.netTotal ?? 0, precision),
              lastOrderDate: f?.lastOrderDate ?? null,
            };
          }),
          page,
        );
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/customer-search',
      operationId: 'searchSalesRepresentativeCustomers',
      summary:
        'Searches the assigned customers (term — or `search`, as the real product’s clients send it — over company, number, e-mail and name; criteria filters).',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { body: customerSearchBody, responses: { 200: storeListResponse(customerSchema) } },
      async handler({ ctx, body }) {
        const { search, ...criteria } = body;
        if (search !== undefined && criteria.term !== undefined)
          throw Errors.badRequest('SUITE__INVALID_INPUT', 'Give the term as `term` or as `search`, not both.', {
            pointer: '/search',
          });
        const page = await customerPage(host, ctx, search === undefined ? criteria : { ...criteria, term: search });
        return storeList(
          page.elements.map((customer) => toCustomer(ctx, customer)),
          page,
        );
      },
    }),
  ];
}

/** Orders of the assigned customers: all, the last ones per customer, one customer's, an employee's. */
function representativeOrderRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/orders',
      operationId: 'listSalesRepresentativeOrders',
      summary: 'Orders of all assigned customers, newest first (filter by customerId, state, orderDate …).',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { body: orderCriteriaBody, responses: { 200: orderListResponse } },
      async handler({ ctx, body }) {
        const customerIds = (await assignedTo(host, ctx)).map((customer) => customer.id);
        return orderPage(host, { customerIds }, body);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/customer-last-orders',
      operationId: 'listSalesRepresentativeCustomerLastOrders',
      summary: 'The most recent order of each assigned customer that has ordered, newest first.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { body: lastOrdersBody, responses: { 200: orderListResponse } },
      async handler({ ctx, body }) {
        const customers = await assignedTo(host, ctx);
        // The term searches the order number and the customer's company and number.
        const term = body.term?.trim() ?? '';
        const ofMatchingCustomer = term
          ? customers
              .filter((c) => containsText(c.company, term) || containsText(c.customerNumber, term))
              .map((c) => c.id)
          : [];
        const criteria = termAsFilter(
          body,
          ['orderNumber'],
          ofMatchingCustomer.length ? [{ type: 'equalsAny', field: 'customerId', value: ofMatchingCustomer }] : [],
        );
        return orderPage(host, { customerIds: customers.map((c) => c.id), latestPerCustomer: true }, criteria);
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/sales-representative/customer-orders/{customerId}',
      operationId: 'listSalesRepresentativeCustomerOrders',
      summary: 'The orders of one assigned customer, newest first (query page and limit): an array, as the spec says.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: {
        params: pathParams('customerId'),
        query: objectSchema(pagingQuery),
        responses: { 200: orderArrayResponse },
      },
      async handler({ ctx, params, query }) {
        await assertAssigned(host, ctx, params.customerId);
        return (
          await host.orders.search(
            host.db,
            { customerIds: [params.customerId] },
            { page: query.page, limit: query.limit },
          )
        ).elements.map(orderView);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/customer-activity-order/{id}',
      operationId: 'listSalesRepresentativeEmployeeOrders',
      summary: 'Orders an employee of an assigned customer placed (path id: the employee id), newest first.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { params: pathParams('id'), body: orderCriteriaBody, responses: { 200: orderListResponse } },
      async handler({ ctx, params, body }) {
        const customerIds = (await assignedTo(host, ctx)).map((customer) => customer.id);
        if (!(await employeeLinkedToAny(host.db, params.id, customerIds))) throw Errors.notFound('employee', params.id);
        return orderPage(host, { customerIds, placedBy: { type: 'employee', id: params.id } }, body);
      },
    }),
  ];
}

/** The assigned customers' employees, the sales statistics and the customer ranking. */
function representativeEmployeeAndStatisticsRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/employees',
      operationId: 'listSalesRepresentativeEmployees',
      summary: 'Employees of the assigned customers, one entry per employee and customer (filter by customerId).',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { body: employeeCriteriaBody, responses: { 200: storeListResponse(customerEmployeeSchema) } },
      async handler({ ctx, body }) {
        return employeesOfLinks(host, await assignedTo(host, ctx), body, representativeEmployeeCriteria);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/sales-statistics',
      operationId: 'readSalesStatistics',
      summary:
        'Net revenue, order count and average order value per calendar month (sales channel time zone), cancelled orders excluded: of one assigned customer (customerId in the query or the body), else of all assigned customers together.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { query: statisticsQuery, body: statisticsBody, responses: { 200: statisticsResponse } },
      async handler({ ctx, query, body }) {
        if (query.customerId && body.customerId && query.customerId !== body.customerId)
          throw Errors.badRequest('SUITE__INVALID_INPUT', 'The query and the body name different customers.', {
            pointer: '/customerId',
          });
        const customerId = body.customerId ?? query.customerId;
        const months = body.months ?? query.months ?? 12;
        if (customerId) {
          await assertAssigned(host, ctx, customerId);
          return salesStatistics(host, ctx.salesChannel, customerId, months);
        }
        const customerIds = (await assignedTo(host, ctx)).map((customer) => customer.id);
        return salesStatisticsOfAll(host, ctx.salesChannel, customerIds, months);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/customer-sales-ranking',
      operationId: 'readCustomerSalesRanking',
      summary:
        'Assigned customers ranked by net revenue (optionally between from and to); with customerId only that customer’s entry.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { body: rankingBody, responses: { 200: rankingResponse } },
      async handler({ ctx, body }) {
        if (body.customerId) await assertAssigned(host, ctx, body.customerId);
        if (body.from && body.to && new Date(body.from) > new Date(body.to))
          throw Errors.badRequest('SUITE__INVALID_PERIOD', '"from" must not be after "to".', { pointer: '/from' });
        const ranking = await customerRanking(host, ctx.salesChannel, await assignedTo(host, ctx), body.from, body.to);
        const entries = body.customerId ? ranking.filter((entry) => entry.customerId === body.customerId) : ranking;
        const start = (body.page - 1) * body.limit;
        return storeList(
          entries.slice(start, start + body.limit).map((entry) => ({ id: entry.customerId, ...entry })),
          { total: entries.length, page: body.page, limit: body.limit },
        );
      },
    }),
  ];
}
