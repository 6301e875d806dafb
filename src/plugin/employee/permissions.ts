import { Errors } from '../../lib/errors.js';
import type { StoreContext } from '../../contract/index.js';

export interface PermissionDefinition {
  key: string;
  group: string;
  description: string;
}

/** Every permission key a role can hold; plugin.json lists the same (a test keeps them equal). */
export const PERMISSIONS: readonly PermissionDefinition[] = [
  {
    key: 'employee.read',
    group: 'employees',
    description: 'See the company’s employees, their roles and export them.',
  },
  {
    key: 'employee.manage',
    group: 'employees',
    description: 'Create, change, deactivate, delete and import employees.',
  },
  { key: 'invitation.manage', group: 'employees', description: 'Invite employees and see or withdraw invitations.' },
  { key: 'role.read', group: 'roles', description: 'See roles and the permission list.' },
  { key: 'role.manage', group: 'roles', description: 'Create, change and delete roles.' },
  { key: 'orders.read', group: 'orders', description: 'See the orders one placed oneself.' },
  { key: 'orders.read-all', group: 'orders', description: 'See all orders of the company.' },
  { key: 'orders.create', group: 'orders', description: 'Place orders.' },
  { key: 'budget.read', group: 'budgets', description: 'See budgets and their orders.' },
  { key: 'budget.manage', group: 'budgets', description: 'Create, change and delete budgets.' },
  { key: 'order-approval.request', group: 'order-approval', description: 'Ask for an order approval.' },
  { key: 'order-approval.approve', group: 'order-approval', description: 'Approve or decline order approvals.' },
  { key: 'order-approval.manage-settings', group: 'order-approval', description: 'Change who approves orders.' },
  {
    key: 'order-approval.manage-rules',
    group: 'order-approval',
    description:
      'See, create, change and delete approval rules (when an order needs approval and who approves it in which levels).',
  },
  { key: 'offer.request', group: 'offers', description: 'Ask for offers.' },
  { key: 'offer.read', group: 'offers', description: 'See, accept and decline the company’s offers.' },
  { key: 'product-list.manage', group: 'product-lists', description: 'Create and change product lists.' },
  {
    key: 'recurring-orders.manage',
    group: 'recurring-orders',
    description:
      'Set up, change, pause, skip and cancel one’s own recurring orders (the company admin sees all of the company’s).',
  },
  {
    key: 'customer-product-number.manage',
    group: 'customer-product-numbers',
    description: 'Maintain and import customer product numbers.',
  },
  {
    key: 'cost-center.read',
    group: 'cost-centers',
    description: 'See the company’s cost centers, also the inactive ones.',
  },
  {
    key: 'cost-center.manage',
    group: 'cost-centers',
    description: 'Create, change and delete cost centers and set employees’ default cost centers.',
  },
  {
    key: 'organisation-unit.read',
    group: 'organisation-units',
    description: 'See the company’s organisation units and their members.',
  },
  {
    key: 'organisation-unit.manage',
    group: 'organisation-units',
    description:
      'Create, rename, move and delete organisation units, move employees between them, import and export them.',
  },
  {
    key: 'orders.read-unit',
    group: 'orders',
    description: 'See the orders placed by the employees of one’s organisation units and the units below them.',
  },
  {
    key: 'address.manage',
    group: 'addresses',
    description:
      'Create, change and delete the company’s addresses and those of one’s organisation units, and set the units’ default addresses.',
  },
  {
    key: 'event.register',
    group: 'events',
    description: 'Register colleagues for events and see the company’s participants.',
  },
  { key: 'admin', group: 'admin', description: 'Company administrator: may do everything the customer login may.' },
];

export const PERMISSION_KEYS: readonly string[] = PERMISSIONS.map((p) => p.key);
export const ADMIN_PERMISSION = 'admin';

/** Holding the left key grants the right ones too (managing implies reading; all orders include one’s own). */
const IMPLIES: Record<string, string[]> = {
  'employee.manage': ['employee.read'],
  'role.manage': ['role.read'],
  'budget.manage': ['budget.read'],
  'cost-center.manage': ['cost-center.read'],
  'orders.read-all': ['orders.read', 'orders.read-unit'],
  'orders.read-unit': ['orders.read'],
  // Moving employees between units means seeing them.
  'organisation-unit.manage': ['organisation-unit.read', 'employee.read'],
};

/** The keys a role grants: 'all' with the admin permission, else the keys plus what they imply (unknown keys dropped). */
export function effectivePermissions(keys: readonly string[]): ReadonlySet<string> | 'all' {
  if (keys.includes(ADMIN_PERMISSION)) return 'all';
  const result = new Set<string>();
  for (const key of keys) {
    if (!PERMISSION_KEYS.includes(key)) continue;
    result.add(key);
    for (const implied of IMPLIES[key] ?? []) result.add(implied);
  }
  return result;
}

/** Whether the caller holds every key of `keys` (after implications). */
export function holdsAll(ctx: StoreContext, keys: readonly string[]): boolean {
  const wanted = effectivePermissions(keys);
  if (ctx.permissions === 'all') return true;
  if (wanted === 'all') return false;
  return [...wanted].every((key) => ctx.can(key));
}

/** No privilege escalation: a caller may only hand out (or take from others) permissions they hold themselves. */
export function assertCanGrant(ctx: StoreContext, keys: readonly string[]): void {
  if (!holdsAll(ctx, keys))
    throw Errors.forbidden(
      'You cannot grant or change permissions you do not hold yourself.',
      'SUITE__PERMISSION_ESCALATION',
    );
}
