import { inTransaction } from '../../lib/db.js';
import { MAX_LIMIT, termAsFilter } from '../../lib/criteria.js';
import { Errors } from '../../lib/errors.js';
import { pathParams, successResponse } from '../../lib/schemas.js';
import {
  defineStoreRoute,
  type CustomerRef,
  type CustomerScope,
  type HostRuntime,
  type StoreContext,
} from '../../contract/index.js';
import { normaliseEmail, TAG } from './common.js';
import { createInvitation } from './invitation/service.js';
import {
  activeLinks,
  employeeIdentity,
  findEmployeeByEmail,
  findEmployeeRecord,
  isLinked,
  searchEmployees,
  toEmployeeView,
} from './repository.js';
import {
  addEmployeeBody,
  addEmployeeResponse,
  contextTokenResponse,
  createEmployeeBody,
  customerTargetList,
  employeeCustomersBody,
  employeeListResponse,
  employeeResultResponse,
  employeeSchema,
  employeeSearchBody,
  patchEmployeeBody,
  switchCustomerBody,
} from './schemas.js';
import { assignableRole, deleteEmployee, emailTaken, getEmployee, insertEmployee, updateEmployee } from './service.js';
import { storeList, storeListOf } from '../../lib/store-list.js';
import { declaredCustomer, declaredEmployee } from '../declared.js';

const CONTEXT_TOKEN_HEADER = 'suite-context-token';

/** The customers the caller may act for, with the role of each link: an employee's active links in this sales channel, else the current customer. */
async function loginTargets(
  host: HostRuntime,
  ctx: StoreContext,
): Promise<{ scope: CustomerScope; roles: Map<string, { roleId: string | null; roleName: string | null }> }> {
  const customer = declaredCustomer(ctx);
  if (ctx.actor.type === 'employee' && ctx.employee) {
    const links = await activeLinks(host, host.db, ctx.employee.id, ctx.salesChannel.id);
    return {
      scope: { ids: links.map((link) => link.customer.id), salesChannelId: ctx.salesChannel.id, activeOnly: true },
      roles: new Map(links.map((link) => [link.customer.id, { roleId: link.roleId, roleName: link.roleName }])),
    };
  }
  return { scope: { ids: [customer.id] }, roles: new Map() };
}

/** Login targets are searched by company and customer number. */
const TARGET_TERM_FIELDS = ['company', 'customerNumber'];
/** What /login-targets lists at most. */
const MAX_LOGIN_TARGETS = 1000;

function toTarget(
  ctx: StoreContext,
  customer: CustomerRef,
  roles: Map<string, { roleId: string | null; roleName: string | null }>,
) {
  const role = roles.get(customer.id);
  return {
    id: customer.id,
    customerNumber: customer.customerNumber,
    company: customer.company ?? null,
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    roleId: role?.roleId ?? null,
    roleName: role?.roleName ?? null,
    current: customer.id === ctx.customer?.id,
  };
}

export function employeeRoutes(host: HostRuntime) {
  return [...employeeCrudRoutes(host), ...employeeListAndSwitchRoutes(host)];
}

/** An employee: add (with an invitation), create, read, update, delete. */
function employeeCrudRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee/add',
      operationId: 'addEmployee',
      summary:
        'Adds an employee (e-mail and role; names optional) without a password and mails them an activation link to set one.',
      description:
        'An e-mail that has a login already (another customer’s employee) gets an invitation only: the person is linked when they accept it.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'employee.manage',
      rateLimit: { name: 'employee-add', limit: 200, windowSeconds: 3600, by: ['ip'] },
      schemas: { body: addEmployeeBody, responses: { 200: addEmployeeResponse } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const email = normaliseEmail(body.email);
        const invitationId = await inTransaction(host.db, async (trx) => {
          await assignableRole(trx, ctx, customer.id, body.roleId);
          const existing = await findEmployeeByEmail(trx, email);
          if (existing && (await isLinked(trx, existing.id, customer.id)))
            throw Errors.badRequest('SUITE__EMPLOYEE_EXISTS', 'This person is an employee of the company already.', {
              pointer: '/email',
            });
          let employeeId: string | null = null;
          if (!existing) {
            if (await host.customers.findByEmail(trx, email)) throw emailTaken();
            // Names not given stay empty until the person accepts the invitation and gives them.
            employeeId = await insertEmployee(host, trx, customer.id, {
              ...body,
              firstName: body.firstName ?? '',
              lastName: body.lastName ?? '',
              email,
              passwordHash: null,
            });
          }
          return createInvitation(host, trx, ctx, customer.id, { ...body, email, employeeId });
        });
        return { success: true, invitationId };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee',
      operationId: 'createEmployee',
      summary: 'Creates an employee with a password; they can log in at once.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'employee.manage',
      schemas: { body: createEmployeeBody, responses: { 200: employeeSchema } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const passwordHash = await host.auth.hashPassword(body.password);
        return inTransaction(host.db, async (trx) => {
          await assignableRole(trx, ctx, customer.id, body.roleId);
          const id = await insertEmployee(host, trx, customer.id, { ...body, passwordHash });
          return getEmployee(trx, customer.id, id);
        });
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/employee/{id}',
      operationId: 'readEmployee',
      summary: 'One employee of the customer.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'employee.read',
      schemas: { params: pathParams('id'), responses: { 200: employeeSchema } },
      async handler({ ctx, params }) {
        return getEmployee(host.db, declaredCustomer(ctx).id, params.id);
      },
    }),
    defineStoreRoute({
      method: 'PATCH',
      path: '/b2b/employee/{id}',
      operationId: 'updateEmployee',
      summary: 'Changes an employee: name, e-mail, department, role, active. Deactivating ends their sessions.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'employee.manage',
      schemas: { params: pathParams('id'), body: patchEmployeeBody, responses: { 200: employeeResultResponse } },
      async handler({ ctx, params, body }) {
        const customer = declaredCustomer(ctx);
        const employee = await inTransaction(host.db, (trx) =>
          updateEmployee(host, trx, ctx, customer.id, params.id, body),
        );
        return { success: true, employee };
      },
    }),
    defineStoreRoute({
      method: 'DELETE',
      path: '/b2b/employee/{id}',
      operationId: 'deleteEmployee',
      summary: 'Removes an employee from the customer and ends their sessions.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'employee.manage',
      schemas: { params: pathParams('id'), responses: { 200: successResponse } },
      async handler({ ctx, params }) {
        const customer = declaredCustomer(ctx);
        await inTransaction(host.db, (trx) => deleteEmployee(host, trx, ctx, customer.id, params.id));
        return { success: true };
      },
    }),
  ];
}

/** The employee lists, the login targets and switching the customer an employee acts for. */
function employeeListAndSwitchRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employees',
      operationId: 'listEmployees',
      summary: 'The customer’s employees (criteria: filter, sort, term, paging).',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'employee.read',
      schemas: { body: employeeSearchBody, responses: { 200: employeeListResponse } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const page = await searchEmployees(host.db, customer.id, body);
        return storeList(page.rows.map(toEmployeeView), page);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee-customers',
      operationId: 'listEmployeeCustomers',
      summary: 'The customers the caller may act for, marking the current one.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { body: employeeCustomersBody, responses: { 200: customerTargetList } },
      async handler({ ctx, body }) {
        const { scope, roles } = await loginTargets(host, ctx);
        const page = await host.customers.search(host.db, scope, termAsFilter(body, TARGET_TERM_FIELDS));
        return storeList(
          page.elements.map((customer) => toTarget(ctx, customer, roles)),
          page,
        );
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/login-targets',
      operationId: 'listLoginTargets',
      summary: 'Every customer the caller may act for (switch with POST /b2b/employee-customer/switch).',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { responses: { 200: customerTargetList } },
      async handler({ ctx }) {
        const { scope, roles } = await loginTargets(host, ctx);
        const customers: CustomerRef[] = [];
        for (let page = 1; customers.length < MAX_LOGIN_TARGETS; page++) {
          const found = await host.customers.search(host.db, scope, {
            page,
            limit: MAX_LIMIT,
            'total-count-mode': 'none',
          });
          customers.push(...found.elements);
          if (found.elements.length < MAX_LIMIT) break;
        }
        const targets = customers.slice(0, MAX_LOGIN_TARGETS);
        return storeListOf(targets.map((customer) => toTarget(ctx, customer, roles)));
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee-customer/switch',
      operationId: 'switchEmployeeCustomer',
      summary: 'An employee linked to several customers chooses the one they act for; returns a context token for it.',
      tags: [TAG],
      auth: 'login',
      actors: ['employee'],
      permission: null,
      schemas: { body: switchCustomerBody, responses: { 200: contextTokenResponse } },
      async handler({ ctx, body, headers }) {
        const employee = declaredEmployee(ctx);
        const session = await inTransaction(host.db, async (trx) => {
          const [link] = await activeLinks(host, trx, employee.id, ctx.salesChannel.id, body.customerId);
          if (!link) throw Errors.notFound('customer', body.customerId);
          const row = await findEmployeeRecord(trx, employee.id);
          // The context enricher read this login for the request; it is gone only if deleted since.
          if (!row) throw Errors.notFound('employee', employee.id);
          return host.auth.createSession(trx, {
            ...employeeIdentity(row, body.customerId),
            salesChannelId: ctx.salesChannel.id,
          });
        });
        headers.setHeader(CONTEXT_TOKEN_HEADER, session.token);
        return { contextToken: session.token, customerId: body.customerId };
      },
    }),
  ];
}
