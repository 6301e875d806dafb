import { defineAdminRoute, type AdminRoute, type HostRuntime } from '../../host/contract.js';
import { inTransaction, readInt, selectRows, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { jsonApiList, jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { nullable, objectSchema, pathParams } from '../../lib/schemas.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import { INVITATIONS, invitationStatus, issueInvitation, type InvitationRow } from './invitation/service.js';
import {
  employeesOfCustomer,
  findEmployeeRow,
  LINKS,
  selectEmployeeColumns,
  toEmployeeView,
  type EmployeeRow,
} from './repository.js';
import { rolesOfCustomer, selectRoleColumns, toRoleView, type RoleRow } from './role/repository.js';
import { employeeSchema } from './schemas.js';

/**
 * The operator's view of a company's people (issue 28, the console's company page): its employees,
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
const list = (resource: Record<string, unknown>) =>
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

export function employeeAdminRoutes(host: HostRuntime): AdminRoute[] {
  return [...companyListAdminRoutes(host), ...companyEmployeeActionRoutes(host)];
}

/** A company's employees, roles and invitations (lists). */
function companyListAdminRoutes(host: HostRuntime): AdminRoute[] {
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
        const [count] = await selectRows<{ n: unknown }>(
          employeesOfCustomer(host.db, params.customerId).count({ n: '*' }),
        );
        const rows = await selectRows<EmployeeRow>(
          selectEmployeeColumns(host.db, employeesOfCustomer(host.db, params.customerId))
            .orderBy([{ column: 'e.last_name' }, { column: 'e.first_name' }, { column: 'e.id' }])
            .limit(query.limit)
            .offset((query.page - 1) * query.limit),
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
          total: readInt(count?.n),
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
        const rows = await selectRows<RoleRow>(
          selectRoleColumns(host.db, rolesOfCustomer(host.db, params.customerId))
            .orderBy([{ column: 'r.name' }, { column: 'r.id' }])
            .limit(MAX_ROWS),
        );
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
        const rows = await selectRows<InvitationRow>(
          host
            .db(INVITATIONS)
            .where({ customer_id: params.customerId })
            .whereNot({ status: 'accepted' })
            .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
            .limit(MAX_ROWS),
        );
        return { data: rows.map(invitationToResource) };
      },
    }),
  ];
}

/** An employee set active or inactive; an invitation sent again. */
function companyEmployeeActionRoutes(host: HostRuntime): AdminRoute[] {
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
          await trx(LINKS).where({ id: row.link_id }).update({ active: body.active, updated_at: nowDb() });
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
          const invitation = await trx<InvitationRow>(INVITATIONS)
            .where({ id: params.invitationId, customer_id: params.customerId })
            .first();
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
          return (await trx<InvitationRow>(INVITATIONS).where({ id }).first())!;
        });
        return { data: invitationToResource(row) };
      },
    }),
  ];
}
