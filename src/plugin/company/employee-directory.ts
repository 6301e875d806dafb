import { readBool, selectRows, type Executor } from '../../lib/db.js';
import { effectivePermissions, employeesOfCustomer, rolePermissionsOf } from '../employee/index.js';

/** What budgets and approvals need to know about a customer's employees (names, mail, role flags). */
export interface DirectoryEmployee {
  id: string;
  name: string;
  email: string;
  /** account and link active */
  active: boolean;
  requiresApproval: boolean;
  permissions: ReadonlySet<string> | 'all';
}

/** What `directoryQuery` selects. */
interface DirectoryRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  employee_active: unknown;
  link_active: unknown;
  role_id: string | null;
  role_permissions: unknown;
  requires_approval: unknown;
}

function toDirectoryEmployee(row: DirectoryRow): DirectoryEmployee {
  return {
    id: row.id,
    name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim(),
    email: row.email,
    active: readBool(row.employee_active) && readBool(row.link_active),
    requiresApproval: readBool(row.requires_approval),
    permissions: row.role_id ? effectivePermissions(rolePermissionsOf(row)) : new Set<string>(),
  };
}

function directoryQuery(executor: Executor, customerId: string) {
  return employeesOfCustomer(executor, customerId)
    .select(
      'e.id',
      'e.email',
      'e.first_name',
      'e.last_name',
      'e.active as employee_active',
      'ec.active as link_active',
      'ec.role_id',
      'r.permissions as role_permissions',
      'r.requires_approval',
    )
    .orderBy('e.last_name')
    .orderBy('e.first_name')
    .orderBy('e.id');
}

/** Employees of the customer among `ids` (others' and unknown ids are absent). */
export async function findEmployees(
  executor: Executor,
  customerId: string,
  ids: string[],
): Promise<DirectoryEmployee[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  return (await selectRows<DirectoryRow>(directoryQuery(executor, customerId).whereIn('e.id', wanted))).map(
    toDirectoryEmployee,
  );
}

export async function listEmployees(executor: Executor, customerId: string): Promise<DirectoryEmployee[]> {
  return (await selectRows<DirectoryRow>(directoryQuery(executor, customerId))).map(toDirectoryEmployee);
}

export function holds(employee: DirectoryEmployee, permission: string): boolean {
  return employee.permissions === 'all' || employee.permissions.has(permission);
}

export function isAdmin(employee: DirectoryEmployee): boolean {
  return employee.permissions === 'all';
}
