import { inTransaction, isDuplicateKeyError, writeJson, type Trx } from '../../../lib/db.js';
import { criteriaSchema } from '../../../lib/criteria.js';
import { Errors } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { nullable, objectSchema, pathParams, successResponse } from '../../../lib/schemas.js';
import { storeList, storeListOf, storeListResponse } from '../../../lib/store-list.js';
import { nowDb } from '../../../lib/time.js';
import { defineStoreRoute, type HostRuntime } from '../../../contract/index.js';
import { TAG } from '../common.js';
import { assertCanGrant, PERMISSION_KEYS, PERMISSIONS } from '../permissions.js';
import {
  deleteRole,
  findRole,
  findRoleByName,
  insertRoles,
  roleCriteria,
  searchRoles,
  toRoleView,
  updateRole,
} from './repository.js';
import { declaredCustomer } from '../../declared.js';

const time = { type: 'string', format: 'date-time' } as const;
const roleSchema = objectSchema(
  {
    id: { type: 'string' },
    name: { type: 'string' },
    description: nullable({ type: 'string' }),
    permissions: { type: 'array', items: { type: 'string' } },
    requiresApproval: { type: 'boolean' },
    employeeCount: { type: 'integer', minimum: 0 },
    createdAt: time,
    updatedAt: nullable(time),
  },
  ['id', 'name', 'description', 'permissions', 'requiresApproval', 'employeeCount', 'createdAt', 'updatedAt'],
);
const roleResult = objectSchema({ success: { const: true }, role: roleSchema }, ['success', 'role']);
const permissionsField = {
  type: 'array',
  maxItems: 100,
  uniqueItems: true,
  items: { type: 'string', enum: [...PERMISSION_KEYS] },
} as const;
const roleFields = {
  name: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
  description: nullable({ type: 'string', maxLength: 1024 }),
  permissions: permissionsField,
  requiresApproval: { type: 'boolean' },
} as const;
const permissionSchema = objectSchema(
  { key: { type: 'string' }, group: { type: 'string' }, description: { type: 'string' } },
  ['key', 'group', 'description'],
);
/** Listed permissions and groups carry an `id` as every list element does: the key, the group name. */
const listedPermissionSchema = objectSchema(
  { id: { type: 'string' }, key: { type: 'string' }, group: { type: 'string' }, description: { type: 'string' } },
  ['id', 'key', 'group', 'description'],
);
const permissionGroupSchema = objectSchema(
  { id: { type: 'string' }, name: { type: 'string' }, permissions: { type: 'array', items: permissionSchema } },
  ['id', 'name', 'permissions'],
);
const groupFilterBody = objectSchema({ group: { type: 'string', maxLength: 64 } });

const nameTaken = () =>
  Errors.badRequest('SUITE__ROLE_NAME_TAKEN', 'The company has a role with this name already.', { pointer: '/name' });

async function assertNameFree(trx: Trx, customerId: string, name: string, exceptId?: string): Promise<void> {
  const existing = await findRoleByName(trx, customerId, name);
  if (existing && existing.id !== exceptId) throw nameTaken();
}

async function writeRole(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (isDuplicateKeyError(error)) throw nameTaken();
    throw error;
  }
}

export function roleRoutes(host: HostRuntime) {
  return [...roleEditRoutes(host), ...permissionListRoutes()];
}

/** Employee roles: the list, create, update, delete. */
function roleEditRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee-roles',
      operationId: 'listEmployeeRoles',
      summary: 'The customer’s roles with their permission keys and employee counts.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'role.read',
      schemas: {
        body: criteriaSchema(Object.keys(roleCriteria.fields)),
        responses: { 200: storeListResponse(roleSchema) },
      },
      async handler({ ctx, body }) {
        const page = await searchRoles(host.db, declaredCustomer(ctx).id, body);
        return storeList(page.rows.map(toRoleView), page);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee-roles/create',
      operationId: 'createEmployeeRole',
      summary: 'Creates a role; a caller can only grant permissions they hold.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'role.manage',
      schemas: { body: objectSchema(roleFields, ['name', 'permissions']), responses: { 200: roleResult } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        assertCanGrant(ctx, body.permissions);
        const role = await inTransaction(host.db, async (trx) => {
          const name = body.name.trim();
          await assertNameFree(trx, customer.id, name);
          const id = newId();
          await writeRole(() =>
            insertRoles(trx, {
              id,
              customer_id: customer.id,
              name,
              description: body.description ?? null,
              permissions: writeJson(body.permissions),
              requires_approval: body.requiresApproval ?? false,
              created_at: nowDb(),
            }),
          );
          return (await findRole(trx, customer.id, id))!;
        });
        return { success: true, role };
      },
    }),
    defineStoreRoute({
      method: 'PATCH',
      path: '/b2b/employee-roles/{id}',
      operationId: 'updateEmployeeRole',
      summary: 'Changes a role; its employees get the new permissions with their next request.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'role.manage',
      schemas: {
        params: pathParams('id'),
        body: objectSchema(roleFields, [], { minProperties: 1 }),
        responses: { 200: roleResult },
      },
      async handler({ ctx, params, body }) {
        const customer = declaredCustomer(ctx);
        const role = await inTransaction(host.db, async (trx) => {
          const current = await findRole(trx, customer.id, params.id);
          if (!current) throw Errors.notFound('role', params.id);
          assertCanGrant(ctx, [...current.permissions, ...(body.permissions ?? [])]);
          const changes: Record<string, unknown> = {};
          if (body.name !== undefined) {
            await assertNameFree(trx, customer.id, body.name.trim(), current.id);
            changes.name = body.name.trim();
          }
          if (body.description !== undefined) changes.description = body.description;
          if (body.permissions !== undefined) changes.permissions = writeJson(body.permissions);
          if (body.requiresApproval !== undefined) changes.requires_approval = body.requiresApproval;
          await writeRole(() => updateRole(trx, customer.id, current.id, { ...changes, updated_at: nowDb() }));
          return (await findRole(trx, customer.id, current.id))!;
        });
        return { success: true, role };
      },
    }),
    defineStoreRoute({
      method: 'DELETE',
      path: '/b2b/employee-roles/{id}',
      operationId: 'deleteEmployeeRole',
      summary: 'Deletes a role that no employee holds (reassign them first).',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'role.manage',
      schemas: { params: pathParams('id'), responses: { 200: successResponse } },
      async handler({ ctx, params }) {
        const customer = declaredCustomer(ctx);
        await inTransaction(host.db, async (trx) => {
          const current = await findRole(trx, customer.id, params.id);
          if (!current) throw Errors.notFound('role', params.id);
          assertCanGrant(ctx, current.permissions);
          if (current.employeeCount > 0)
            throw Errors.badRequest(
              'SUITE__ROLE_IN_USE',
              `${current.employeeCount} employee(s) hold this role; give them another role first.`,
            );
          await deleteRole(trx, customer.id, current.id);
        });
        return { success: true };
      },
    }),
  ];
}

/** The permissions and permission groups a role can hold. */
function permissionListRoutes() {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee-permissions',
      operationId: 'listEmployeePermissions',
      summary: 'Every permission key a role can hold, with its group and what it guards.',
      tags: [TAG],
      auth: 'login',
      permission: 'role.read',
      schemas: { body: groupFilterBody, responses: { 200: storeListResponse(listedPermissionSchema) } },
      handler({ body }) {
        return Promise.resolve(
          storeListOf(
            PERMISSIONS.filter((p) => body.group === undefined || p.group === body.group).map((p) => ({
              id: p.key,
              ...p,
            })),
          ),
        );
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee-permission-groups',
      operationId: 'listEmployeePermissionGroups',
      summary: 'The permission keys grouped by add-on.',
      tags: [TAG],
      auth: 'login',
      permission: 'role.read',
      schemas: { body: groupFilterBody, responses: { 200: storeListResponse(permissionGroupSchema) } },
      handler({ body }) {
        const groups = new Map<string, Array<{ key: string; group: string; description: string }>>();
        for (const p of PERMISSIONS)
          if (body.group === undefined || p.group === body.group)
            groups.set(p.group, [...(groups.get(p.group) ?? []), { ...p }]);
        return Promise.resolve(
          storeListOf([...groups].map(([name, permissions]) => ({ id: name, name, permissions }))),
        );
      },
    }),
  ];
}
