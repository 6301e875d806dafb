import type { Knex } from 'knex';
import { inTransaction } from '../../lib/db.js';
import { searchByCriteria, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import { Errors } from '../../lib/errors.js';
import { pathParams, successResponse } from '../../lib/schemas.js';
import type { HostRuntime, StoreContext, StoreRoute } from '../../host/contract.js';
import { normaliseEmail, requireCustomer, requireEmployee, TAG } from './common.js';
import { createInvitation } from './invitation/service.js';
import { activeLinks, employeeCriteria, employeeIdentity, employeesOfCustomer, EMPLOYEES, findEmployeeByEmail, selectEmployeeColumns, toEmployeeView, LINKS } from './repository.js';
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

const CONTEXT_TOKEN_HEADER = 'suite-context-token';

const customerCriteria: CriteriaSpec = {
  fields: {
    id: { column: 'c.id', type: 'id' },
    customerNumber: { column: 'c.customer_number', type: 'string' },
    company: { column: 'c.company', type: 'string' },
  },
  termColumns: ['c.company', 'c.customer_number'],
  defaultSort: [
    { column: 'c.company', order: 'asc' },
    { column: 'c.id', order: 'asc' },
  ],
  idColumn: 'c.id',
};

/** The customers the caller may act for: an employee's active links in this sales channel, else the current customer. */
function loginTargets(host: HostRuntime, ctx: StoreContext): { base: Knex.QueryBuilder; select: (qb: Knex.QueryBuilder) => Knex.QueryBuilder } {
  const customer = requireCustomer(ctx);
  const columns = ['c.id', 'c.customer_number', 'c.company', 'c.first_name', 'c.last_name', 'c.email'];
  if (ctx.actor.type === 'employee' && ctx.employee) {
    return {
      base: activeLinks(host.db, ctx.employee.id, ctx.salesChannel.id).leftJoin('b2b_employee_roles as r', 'r.id', 'ec.role_id'),
      select: (qb) => qb.select(...columns, 'ec.role_id', 'r.name as role_name'),
    };
  }
  return {
    base: host.db('customers as c').where('c.id', customer.id),
    select: (qb) => qb.select(...columns, host.db.raw('NULL as role_id'), host.db.raw('NULL as role_name')),
  };
}

function toTarget(ctx: StoreContext, row: Record<string, any>) {
  return {
    id: row.id,
    customerNumber: row.customer_number,
    company: row.company ?? null,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    roleId: row.role_id ?? null,
    roleName: row.role_name ?? null,
    current: row.id === ctx.customer?.id,
  };
}

export function employeeRoutes(host: HostRuntime): StoreRoute[] {
  return [
    {
      method: 'POST',
      path: '/b2b/employee/add',
      operationId: 'addEmployee',
      summary: 'Adds an employee without a password and mails them an activation link to set one.',
      description: 'An e-mail that has a login already (another customer’s employee) gets an invitation only: the person is linked when they accept it.',
      tags: [TAG],
      auth: 'login',
      permission: 'employee.manage',
      rateLimit: { name: 'employee-add', limit: 200, windowSeconds: 3600, by: ['ip'] },
      schemas: { body: addEmployeeBody, responses: { 200: addEmployeeResponse } },
      async handler({ ctx, body }) {
        const customer = requireCustomer(ctx);
        const email = normaliseEmail(body.email);
        const invitationId = await inTransaction(host.db, async (trx) => {
          await assignableRole(trx, ctx, customer.id, body.roleId);
          const existing = await findEmployeeByEmail(trx, email);
          if (existing && (await trx(LINKS).where({ employee_id: existing.id, customer_id: customer.id }).first('id')))
            throw Errors.badRequest('SUITE__EMPLOYEE_EXISTS', 'This person is an employee of the company already.', { pointer: '/email' });
          let employeeId: string | null = null;
          if (!existing) {
            if (await host.customers.findByEmail(trx, email)) throw emailTaken();
            employeeId = await insertEmployee(host, trx, customer.id, { ...body, email, passwordHash: null });
          }
          return createInvitation(host, trx, ctx, customer.id, { ...body, email, employeeId });
        });
        return { success: true, invitationId };
      },
    },
    {
      method: 'POST',
      path: '/b2b/employee',
      operationId: 'createEmployee',
      summary: 'Creates an employee with a password; they can log in at once.',
      tags: [TAG],
      auth: 'login',
      permission: 'employee.manage',
      schemas: { body: createEmployeeBody, responses: { 200: employeeSchema } },
      async handler({ ctx, body }) {
        const customer = requireCustomer(ctx);
        const passwordHash = await host.auth.hashPassword(body.password);
        return inTransaction(host.db, async (trx) => {
          await assignableRole(trx, ctx, customer.id, body.roleId);
          const id = await insertEmployee(host, trx, customer.id, { ...body, passwordHash });
          return getEmployee(trx, customer.id, id);
        });
      },
    },
    {
      method: 'GET',
      path: '/b2b/employee/{id}',
      operationId: 'readEmployee',
      summary: 'One employee of the customer.',
      tags: [TAG],
      auth: 'login',
      permission: 'employee.read',
      schemas: { params: pathParams('id'), responses: { 200: employeeSchema } },
      async handler({ ctx, params }) {
        return getEmployee(host.db, requireCustomer(ctx).id, params.id);
      },
    },
    {
      method: 'PATCH',
      path: '/b2b/employee/{id}',
      operationId: 'updateEmployee',
      summary: 'Changes an employee: name, e-mail, department, role, active. Deactivating ends their sessions.',
      tags: [TAG],
      auth: 'login',
      permission: 'employee.manage',
      schemas: { params: pathParams('id'), body: patchEmployeeBody, responses: { 200: employeeResultResponse } },
      async handler({ ctx, params, body }) {
        const customer = requireCustomer(ctx);
        const employee = await inTransaction(host.db, (trx) => updateEmployee(host, trx, ctx, customer.id, params.id, body));
        return { success: true, employee };
      },
    },
    {
      method: 'DELETE',
      path: '/b2b/employee/{id}',
      operationId: 'deleteEmployee',
      summary: 'Removes an employee from the customer and ends their sessions.',
      tags: [TAG],
      auth: 'login',
      permission: 'employee.manage',
      schemas: { params: pathParams('id'), responses: { 200: successResponse } },
      async handler({ ctx, params }) {
        const customer = requireCustomer(ctx);
        await inTransaction(host.db, (trx) => deleteEmployee(host, trx, ctx, customer.id, params.id));
        return { success: true };
      },
    },
    {
      method: 'POST',
      path: '/b2b/employees',
      operationId: 'listEmployees',
      summary: 'The customer’s employees (criteria: filter, sort, term, paging).',
      tags: [TAG],
      auth: 'login',
      permission: 'employee.read',
      schemas: { body: employeeSearchBody, responses: { 200: employeeListResponse } },
      async handler({ ctx, body }) {
        const customer = requireCustomer(ctx);
        const page = await searchByCriteria<Record<string, any>>(employeesOfCustomer(host.db, customer.id), body as Criteria, employeeCriteria, (qb) => selectEmployeeColumns(host.db, qb));
        return { total: page.total, data: page.rows.map(toEmployeeView) };
      },
    },
    {
      method: 'POST',
      path: '/b2b/employee-customers',
      operationId: 'listEmployeeCustomers',
      summary: 'The customers the caller may act for, marking the current one.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { body: employeeCustomersBody, responses: { 200: customerTargetList } },
      async handler({ ctx, body }) {
        const { base, select } = loginTargets(host, ctx);
        const page = await searchByCriteria<Record<string, any>>(base, body as Criteria, customerCriteria, select);
        return { total: page.total, data: page.rows.map((row) => toTarget(ctx, row)) };
      },
    },
    {
      method: 'GET',
      path: '/login-targets',
      operationId: 'listLoginTargets',
      summary: 'Every customer the caller may act for (switch with POST /b2b/employee-customer/switch).',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { responses: { 200: customerTargetList } },
      async handler({ ctx }) {
        const { base, select } = loginTargets(host, ctx);
        const rows = await select(base).orderBy('c.company').orderBy('c.id').limit(1000);
        return { total: rows.length, data: rows.map((row: Record<string, any>) => toTarget(ctx, row)) };
      },
    },
    {
      method: 'POST',
      path: '/b2b/employee-customer/switch',
      operationId: 'switchEmployeeCustomer',
      summary: 'An employee linked to several customers chooses the one they act for; returns a context token for it.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { body: switchCustomerBody, responses: { 200: contextTokenResponse } },
      async handler({ ctx, body, res }) {
        const employee = requireEmployee(ctx);
        const session = await inTransaction(host.db, async (trx) => {
          const link = await activeLinks(trx, employee.id, ctx.salesChannel.id).where('ec.customer_id', body.customerId).first('ec.customer_id');
          if (!link) throw Errors.notFound('customer', body.customerId);
          const row = await trx(EMPLOYEES).where({ id: employee.id }).first();
          return host.auth.createSession(trx, { ...employeeIdentity(row, body.customerId), salesChannelId: ctx.salesChannel.id });
        });
        res.setHeader(CONTEXT_TOKEN_HEADER, session.token);
        return { contextToken: session.token, customerId: body.customerId };
      },
    },
  ];
}

