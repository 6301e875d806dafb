import type { Knex } from 'knex';
import { readBool, readInt, readJson, selectRow, type Executor } from '../../../lib/db.js';
import { fromDbTime } from '../../../lib/time.js';
import type { CriteriaSpec } from '../../../lib/criteria.js';

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
