import type { Knex } from 'knex';
import { readBool, readInt, readJson, selectRow, selectRows, type Executor } from '../../../lib/db.js';
import { fromDbTime } from '../../../lib/time.js';
import { searchByCriteria, type Criteria, type CriteriaSpec, type Page } from '../../../lib/criteria.js';

export const ROLES = 'b2b_employee_roles';

/** A role row with its employee count, as `selectRoleColumns` reads it. */
export interface RoleRow {
  id: string;
  customer_id: string;
  name: string;
  description: string | null;
  permissions: unknown;
  requires_approval: unknown;
  employee_count: unknown;
  created_at: string;
  updated_at: string | null;
}

export interface RoleView {
  id: string;
  name: string;
  description: string | null;
  permissions: string[];
  requiresApproval: boolean;
  employeeCount: number;
  createdAt: string;
  updatedAt: string | null;
}

export const roleCriteria: CriteriaSpec = {
  fields: {
    id: { column: 'r.id', type: 'id' },
    name: { column: 'r.name', type: 'string' },
    requiresApproval: { column: 'r.requires_approval', type: 'boolean' },
    createdAt: { column: 'r.created_at', type: 'date' },
  },
  termColumns: ['r.name', 'r.description'],
  defaultSort: [
    { column: 'r.name', order: 'asc' },
    { column: 'r.id', order: 'asc' },
  ],
  idColumn: 'r.id',
};

export function rolesOfCustomer(executor: Executor, customerId: string): Knex.QueryBuilder {
  return executor(`${ROLES} as r`).where('r.customer_id', customerId);
}

/** Adds the employee count to a roles query. */
export function selectRoleColumns(executor: Executor, qb: Knex.QueryBuilder): Knex.QueryBuilder {
  return qb.select(
    'r.*',
    executor('b2b_employee_customers as ec').count('*').whereRaw('ec.role_id = r.id').as('employee_count'),
  );
}

export function toRoleView(row: RoleRow): RoleView {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? null,
    permissions: readJson<string[]>(row.permissions, []),
    requiresApproval: readBool(row.requires_approval),
    employeeCount: readInt(row.employee_count),
    createdAt: fromDbTime(row.created_at)!,
    updatedAt: fromDbTime(row.updated_at),
  };
}

export async function findRole(executor: Executor, customerId: string, roleId: string): Promise<RoleView | null> {
  const row = await selectRow<RoleRow>(
    selectRoleColumns(executor, rolesOfCustomer(executor, customerId).where('r.id', roleId)).first(),
  );
  return row ? toRoleView(row) : null;
}

export async function findRoleByName(executor: Executor, customerId: string, name: string): Promise<RoleView | null> {
  const row = await selectRow<RoleRow>(
    selectRoleColumns(
      executor,
      rolesOfCustomer(executor, customerId).whereRaw('LOWER(r.name) = ?', [name.trim().toLowerCase()]),
    ).first(),
  );
  return row ? toRoleView(row) : null;
}

/** A new row of b2b_employee_roles (permissions as JSON). */
export interface NewRoleRow {
  id: string;
  customer_id: string;
  name: string;
  description: string | null;
  permissions: string;
  requires_approval: boolean;
  created_at: string;
}

export async function insertRoles(executor: Executor, rows: NewRoleRow | NewRoleRow[]): Promise<void> {
  await executor(ROLES).insert(rows);
}

export async function updateRole(
  executor: Executor,
  customerId: string,
  roleId: string,
  changes: Record<string, unknown>,
): Promise<void> {
  await executor(ROLES).where({ id: roleId, customer_id: customerId }).update(changes);
}

export async function deleteRole(executor: Executor, customerId: string, roleId: string): Promise<void> {
  await executor(ROLES).where({ id: roleId, customer_id: customerId }).delete();
}

/** The customer's roles, filtered, sorted and paged by the criteria. */
export async function searchRoles(executor: Executor, customerId: string, criteria: Criteria): Promise<Page<RoleRow>> {
  return searchByCriteria<RoleRow>(rolesOfCustomer(executor, customerId), criteria, roleCriteria, (qb) =>
    selectRoleColumns(executor, qb),
  );
}

/** The customer's first roles by name and id. */
export async function rolesOfCustomerByName(executor: Executor, customerId: string, limit: number): Promise<RoleRow[]> {
  return selectRows<RoleRow>(
    selectRoleColumns(executor, rolesOfCustomer(executor, customerId))
      .orderBy([{ column: 'r.name' }, { column: 'r.id' }])
      .limit(limit),
  );
}

/** Every role of the customer, in no particular order. */
export async function allRolesOfCustomer(executor: Executor, customerId: string): Promise<RoleRow[]> {
  return selectRows<RoleRow>(selectRoleColumns(executor, rolesOfCustomer(executor, customerId)));
}
