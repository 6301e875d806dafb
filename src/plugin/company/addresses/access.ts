import type { StoreContext } from '../../../contract/index.js';
import type { Executor } from '../../../lib/db.js';
import { subtree, unitsOfEmployee, unitTree, withAncestors, type UnitNode } from '../units/directory.js';

/**
 * Who is offered and who may manage which addresses of the company book. An employee is offered the
 * company addresses and those of the units in their unit scope (their units and the units above);
 * they manage (with address.manage) the company addresses and those whose units all lie in the
 * subtrees of their own units. The company admin, employees with the admin permission and sales
 * representatives acting for the company are offered and manage everything.
 */
export interface AddressAccess {
  tree: UnitNode[];
  /** units whose addresses are offered; 'all': every address */
  offeredUnits: ReadonlySet<string> | 'all';
  /** units whose addresses the caller may write; 'all': every unit */
  managedUnits: ReadonlySet<string> | 'all';
  /** the caller's own units (for the defaults), nearest first */
  ownUnits: string[];
}

export function seesEverything(ctx: StoreContext): boolean {
  return ctx.actor.type !== 'employee' || !ctx.actor.id || ctx.permissions === 'all';
}

export async function addressAccess(executor: Executor, ctx: StoreContext, customerId: string): Promise<AddressAccess> {
  const tree = await unitTree(executor, customerId);
  if (seesEverything(ctx)) return { tree, offeredUnits: 'all', managedUnits: 'all', ownUnits: [] };
  const own = await unitsOfEmployee(executor, customerId, ctx.actor.id!);
  return {
    tree,
    offeredUnits: new Set(withAncestors(tree, own)),
    managedUnits: new Set(own.flatMap((id) => subtree(tree, id))),
    ownUnits: own,
  };
}

/** Offered: a company address (no units), or one of its units is in the scope. */
export function isOffered(access: Pick<AddressAccess, 'offeredUnits'>, unitIds: readonly string[]): boolean {
  if (access.offeredUnits === 'all' || unitIds.length === 0) return true;
  const offered = access.offeredUnits;
  return unitIds.some((id) => offered.has(id));
}

/** Manageable (with address.manage): a company address, or all its units are the caller's to manage. */
export function isManageable(ctx: StoreContext, access: AddressAccess, unitIds: readonly string[]): boolean {
  if (!ctx.can('address.manage')) return false;
  if (access.managedUnits === 'all' || unitIds.length === 0) return true;
  const managed = access.managedUnits;
  return unitIds.every((id) => managed.has(id));
}
