import { inTransaction } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import type { RateLimitRule } from '../../../lib/routes.js';
import { nullable, objectSchema, pathParams, successResponse } from '../../../lib/schemas.js';
import { storeList, storeListResponse } from '../../../lib/store-list.js';
import { fromDbTime } from '../../../lib/time.js';
import { defineStoreRoute, type HostRuntime } from '../../../contract/index.js';
import {
  emailSchema,
  hashParam,
  nameSchema,
  normaliseEmail,
  optionalText,
  passwordSchema,
  storefrontUrlSchema,
  TAG,
} from '../common.js';
import { findEmployeeByEmail, isLinked } from '../repository.js';
import { assignableRole } from '../service.js';
import {
  countInvitationsOf,
  deleteCustomerInvitation,
  findListedInvitation,
  listedInvitationsPage,
  type ListedInvitationRow,
} from './repository.js';
import { acceptInvitation, createInvitation, invitationStatus } from './service.js';
import { declaredCustomer } from '../../declared.js';

const time = { type: 'string', format: 'date-time' } as const;
const invitationSchema = objectSchema(
  {
    id: { type: 'string' },
    email: { type: 'string' },
    firstName: nullable({ type: 'string' }),
    lastName: nullable({ type: 'string' }),
    department: nullable({ type: 'string' }),
    roleId: nullable({ type: 'string' }),
    roleName: nullable({ type: 'string' }),
    employeeId: nullable({ type: 'string' }),
    status: { enum: ['pending', 'accepted', 'expired'] },
    expiresAt: time,
    acceptedAt: nullable(time),
    createdAt: time,
  },
  [
    'id',
    'email',
    'firstName',
    'lastName',
    'department',
    'roleId',
    'roleName',
    'employeeId',
    'status',
    'expiresAt',
    'acceptedAt',
    'createdAt',
  ],
);

function toInvitationView(row: ListedInvitationRow) {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name ?? null,
    lastName: row.last_name ?? null,
    department: row.department ?? null,
    roleId: row.role_id ?? null,
    roleName: row.role_name ?? null,
    employeeId: row.employee_id ?? null,
    status: invitationStatus(row),
    expiresAt: fromDbTime(row.expires_at)!,
    acceptedAt: fromDbTime(row.accepted_at),
    createdAt: fromDbTime(row.created_at)!,
  };
}

export type InvitationView = ReturnType<typeof toInvitationView>;

/** Shared with the storefront invitation page, so both doors count against one limit. */
export const ACCEPT_INVITATION_RATE_LIMIT: RateLimitRule = {
  name: 'accept-invitation',
  limit: 30,
  windowSeconds: 15 * 60,
  by: ['ip'],
};

export function invitationRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/create-invitation',
      operationId: 'createEmployeeInvitation',
      summary:
        'Invites a person by e-mail to work for the customer; the mail carries an activation link valid 7 days. Inviting the same e-mail again renews it.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'invitation.manage',
      rateLimit: { name: 'create-invitation', limit: 200, windowSeconds: 3600, by: ['ip'] },
      schemas: {
        body: objectSchema(
          {
            email: emailSchema,
            firstName: nameSchema,
            lastName: nameSchema,
            department: optionalText,
            roleId: nullable({ type: 'string', pattern: '^[0-9a-f]{32}$' }),
            storefrontUrl: storefrontUrlSchema,
          },
          ['email'],
        ),
        responses: { 200: objectSchema({ success: { const: true }, id: { type: 'string' } }, ['success', 'id']) },
      },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const email = normaliseEmail(body.email);
        const id = await inTransaction(host.db, async (trx) => {
          await assignableRole(trx, ctx, customer.id, body.roleId);
          const existing = await findEmployeeByEmail(trx, email);
          if (existing && (await isLinked(trx, existing.id, customer.id)))
            throw Errors.badRequest('SUITE__EMPLOYEE_EXISTS', 'This person is an employee of the company already.', {
              pointer: '/email',
            });
          return createInvitation(host, trx, ctx, customer.id, { ...body, email });
        });
        return { success: true, id };
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/employee-invitations',
      operationId: 'listEmployeeInvitations',
      summary: 'The customer’s invitations, newest first.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'invitation.manage',
      schemas: {
        query: objectSchema({
          page: { type: 'integer', minimum: 1, default: 1 },
          limit: { type: 'integer', minimum: 1, maximum: 500, default: 25 },
        }),
        responses: { 200: storeListResponse(invitationSchema) },
      },
      async handler({ ctx, query }) {
        const customerId = declaredCustomer(ctx).id;
        const total = await countInvitationsOf(host.db, customerId);
        const rows = await listedInvitationsPage(host.db, customerId, query.limit, (query.page - 1) * query.limit);
        return storeList(rows.map(toInvitationView), {
          total,
          page: query.page,
          limit: query.limit,
        });
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/employee-invitation/{id}',
      operationId: 'readEmployeeInvitation',
      summary: 'One invitation of the customer.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'invitation.manage',
      schemas: { params: pathParams('id'), responses: { 200: invitationSchema } },
      async handler({ ctx, params }) {
        const row = await findListedInvitation(host.db, declaredCustomer(ctx).id, params.id);
        if (!row) throw Errors.notFound('invitation', params.id);
        return toInvitationView(row);
      },
    }),
    defineStoreRoute({
      method: 'DELETE',
      path: '/b2b/employee-invitation/{id}',
      operationId: 'deleteEmployeeInvitation',
      summary: 'Withdraws an invitation: its link stops working.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'invitation.manage',
      schemas: { params: pathParams('id'), responses: { 200: successResponse } },
      async handler({ ctx, params }) {
        const deleted = await deleteCustomerInvitation(host.db, declaredCustomer(ctx).id, params.id);
        if (!deleted) throw Errors.notFound('invitation', params.id);
        return { success: true };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/invitation-employee/{hash}',
      operationId: 'acceptEmployeeInvitation',
      summary:
        'Accepts an invitation with the secret from its mail: creates the employee (with the password given) or links an existing login to the customer.',
      description:
        'A person who has a login already keeps their password; `password` is required only for a new login.',
      tags: [TAG],
      auth: 'public',
      permission: null,
      rateLimit: ACCEPT_INVITATION_RATE_LIMIT,
      schemas: {
        params: objectSchema({ hash: hashParam }, ['hash']),
        body: objectSchema({ password: passwordSchema, firstName: nameSchema, lastName: nameSchema }),
        responses: {
          200: objectSchema(
            { success: { const: true }, employeeId: { type: 'string' }, customerId: { type: 'string' } },
            ['success', 'employeeId', 'customerId'],
          ),
        },
      },
      async handler({ ctx, params, body }) {
        const passwordHash = body.password ? await host.auth.hashPassword(body.password) : null;
        const accepted = await inTransaction(host.db, (trx) =>
          acceptInvitation(host, trx, ctx.salesChannel.id, params.hash, {
            passwordHash,
            firstName: body.firstName,
            lastName: body.lastName,
          }),
        );
        return { success: true as const, ...accepted };
      },
    }),
  ];
}
