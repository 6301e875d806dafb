import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import { inTransaction, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { jsonApiList, jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { nullable, objectSchema, pathParams } from '../../lib/schemas.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import {
  findCustomerInvitation,
  findInvitation,
  openInvitationsOf,
  type InvitationRow,
} from './invitation/repository.js';
import { invitationStatus, issueInvitation } from './invitation/service.js';
import {
  countEmployeesOfCustomer,
  employeesOfCustomerByName,
  findEmployeeRow,
  toEmployeeView,
  updateEmployeeLink,
} from './repository.js';
import { rolesOfCustomerByName, toRoleView } from './role/repository.js';
import { employeeSchema } from './schemas.js';

/**
 * The operator's view of a company's people (the console's company page): its employees,
 * roles and open invitations, and the two things an operator must be able to do for a customer —
 * deactivate (or reactivate) an employee's access and resend an invitation. The company's own
 * administrators do the rest in the storefront.
 */
const TAGS = ['Companies'];
const BASE = '/suite-company/{customerId}';
const time = { type: 'string', format: 'date-time' } as const;
const MAX_ROWS = 500;

const employeeResource = objectSchema(
  { id: { type: 'string' }, type: { const: 'b2b_employee' }, attributes: employeeSchema },
  ['id', 'type', 'attributes'],
);
const roleResource = objectSchema(
  {
    id: { type: 'string' },
    type: { const: 'b2b_employee_role' },
    attributes: objectSchema(
      {
        name: { type: 'string' },
        description: nullable({ type: 'string' }),
        permissions: { type: 'array', items: { type: 'string' } },
        requiresApproval: { type: 'boolean' },
        employeeCount: { type: 'integer' },
      },
      ['name', 'description', 'permissions', 'requiresApproval', 'employeeCount'],
    ),
  },
  ['id', 'type', 'attributes'],
);
const invitationResource = objectSchema(
  {
    id: { type: 'string' },
    type: { const: 'b2b_employee_invitation' },
    attributes: objectSchema(
      {
        email: { type: 'string' },
        firstName: nullable({ type: 'string' }),
        lastName: nullable({ type: 'string' }),
        status: { enum: ['pending', 'expired'] },
        expiresAt: time,
        createdAt: time,
      },
      ['email', 'firstName', 'lastName', 'status', 'expiresAt', 'createdAt'],
    ),
  },
  ['id', 'type', 'attributes'],
);
const list = <const R extends Record<string, unknown>>(resource: R) =>
  objectSchema({ data: { type: 'array', items: resource } }, ['data']);

function invitationToResource(row: InvitationRow) {
  return {
    id: row.id,
    type: 'b2b_employee_invitation' as const,
    attributes: {
      email: row.email,
      firstName: row.first_name ?? null,
      lastName: row.last_name ?? null,
      status: invitationStatus(row) as 'pending' | 'expired',
      expiresAt: fromDbTime(row.expires_at)!,
      createdAt: fromDbTime(row.created_at)!,
    },
  };
}

/** The customer (company) the route names, or a 404. */
async function company(host: HostRuntime, executor: Executor, customerId: string) {
  const customer = await host.customers.get(executor, customerId);
  if (!customer) throw Errors.notFound('customer', customerId);
  return customer;
}

export function employeeAdminRoutes(host: HostRuntime) {
  return [...companyListAdminRoutes(host), ...companyEmployeeActionRoutes(host)];
}

/** A company's employees, roles and invitations (lists). */
function companyListAdminRoutes(host: HostRuntime) {
  return [
    defineAdminRoute({
      method: 'GET',
      path: `${BASE}/employee`,
      operationId: 'listCompanyEmployees',
      summary: "A customer's employees with their role on this customer, by last name (JSON:API, paged).",
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        params: pathParams('customerId'),
        query: objectSchema(jsonApiPageQuery),
        responses: { 200: jsonApiListSchema(employeeResource) },
      },
      async handler({ params, query }) {
        await company(host, host.db, params.customerId);
        const total = await countEmployeesOfCustomer(host.db, params.customerId);
        const rows = await employeesOfCustomerByName(
          host.db,
          params.customerId,
          query.limit,
          (query.page - 1) * query.limit,
        );
        const data = rows.map((row) => ({
          id: row.id,
          type: 'b2b_employee' as const,
          attributes: toEmployeeView(row),
        }));
        return jsonApiList(data, {
          path: `/suite-company/${params.customerId}/employee`,
          page: query.page,
          limit: query.limit,
          total,
        });
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: `${BASE}/role`,
      operationId: 'listCompanyRoles',
      summary:
        "A customer's employee roles with their permissions and how many employees hold each (by name, at most 500).",
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('customerId'), responses: { 200: list(roleResource) } },
      async handler({ params }) {
        await company(host, host.db, params.customerId);
        const rows = await rolesOfCustomerByName(host.db, params.customerId, MAX_ROWS);
        return {
          data: rows.map(toRoleView).map((role) => ({
            id: role.id,
            type: 'b2b_employee_role' as const,
            attributes: {
              name: role.name,
              description: role.description,
              permissions: role.permissions,
              requiresApproval: role.requiresApproval,
              employeeCount: role.employeeCount,
            },
          })),
        };
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: `${BASE}/invitation`,
      operationId: 'listCompanyInvitations',
      summary: "A customer's invitations not accepted yet (pending or expired), newest first (at most 500).",
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('customerId'), responses: { 200: list(invitationResource) } },
      async handler({ params }) {
        await company(host, host.db, params.customerId);
        const rows = await openInvitationsOf(host.db, params.customerId, MAX_ROWS);
        return { data: rows.map(invitationToResource) };
      },
    }),
  ];
}

/** An employee set active or inactive; an invitation sent again. */
function companyEmployeeActionRoutes(host: HostRuntime) {
  return [
    defineAdminRoute({
      method: 'POST',
      path: `/_action${BASE}/employee/{employeeId}/active`,
      operationId: 'setCompanyEmployeeActive',
      summary:
        "Deactivates (active: false) or reactivates an employee's access to this customer; deactivating ends their sessions at once.",
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        params: pathParams('customerId', 'employeeId'),
        body: objectSchema({ active: { type: 'boolean' } }, ['active']),
        responses: { 200: objectSchema({ data: employeeResource }, ['data']) },
      },
      async handler({ params, body }) {
        const employee = await inTransaction(host.db, async (trx) => {
          await company(host, trx, params.customerId);
          const row = await findEmployeeRow(trx, params.customerId, params.employeeId);
          if (!row) throw Errors.notFound('employee', params.employeeId);
          await updateEmployeeLink(trx, row.link_id, { active: body.active, updated_at: nowDb() });
          if (!body.active) await host.auth.revokeActorSessions(trx, 'employee', params.employeeId);
          return toEmployeeView((await findEmployeeRow(trx, params.customerId, params.employeeId))!);
        });
        return { data: { id: employee.id, type: 'b2b_employee' as const, attributes: employee } };
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: `/_action${BASE}/invitation/{invitationId}/resend`,
      operationId: 'resendCompanyInvitation',
      summary:
        'Renews an invitation not accepted yet (a new link, valid 7 days; the old link stops working) and mails it again, with the shop as the inviter.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        params: pathParams('customerId', 'invitationId'),
        body: objectSchema({}),
        responses: { 200: objectSchema({ data: invitationResource }, ['data']) },
      },
      async handler({ params }) {
        const row = await inTransaction(host.db, async (trx) => {
          const customer = await company(host, trx, params.customerId);
          const invitation = await findCustomerInvitation(trx, params.customerId, params.invitationId);
          if (!invitation || invitation.status === 'accepted') throw Errors.notFound('invitation', params.invitationId);
          const salesChannel = await host.customers.salesChannel(trx, invitation.sales_channel_id);
          if (!salesChannel)
            throw Errors.badRequest(
              'SUITE__SALES_CHANNEL_GONE',
              'The invitation’s sales channel does not exist any more.',
            );
          const id = await issueInvitation(
            host,
            trx,
            { salesChannel, inviterName: salesChannel.name, customer },
            params.customerId,
            {
              email: invitation.email,
              firstName: invitation.first_name,
              lastName: invitation.last_name,
              department: invitation.department,
              roleId: invitation.role_id,
              employeeId: invitation.employee_id,
            },
          );
          return (await findInvitation(trx, id))!;
        });
        return { data: invitationToResource(row) };
      },
    }),
  ];
}
