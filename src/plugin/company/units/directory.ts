import { readBool, type Executor } from '../../../lib/db.js';
import { companyMemberRows, customerIdOfUnit, unitIdsOfEmployee, unitTreeRows } from './repository.js';

/**
 * What budgets, approval rules, addresses and the other things hung on organisation units need to
 * know about a company's unit tree. A company has tens to a few hundred units, so the tree is read
 * whole and walked in memory rather than with recursive SQL (which SQLite, MariaDB and PostgreSQL
 * spell alike, but which would be one more query per question).
 */
export interface UnitNode {
  id: string;
  parentId: string | null;
  name: string;
}

export async function unitTree(executor: Executor, customerId: string): Promise<UnitNode[]> {
  const rows = await unitTreeRows(executor, customerId);
  return rows.map((row) => ({ id: row.id, parentId: row.parent_id, name: row.name }));
}

/** A unit by its id alone (an operator's route names no company): its company, or null. */
export async function unitCompany(executor: Executor, unitId: string): Promise<{ customerId: string } | null> {
  const customerId = await customerIdOfUnit(executor, unitId);
  return customerId === undefined ? null : { customerId };
}

/** `unitIds` and every unit above them (deduplicated, the given ones first). */
export function withAncestors(tree: readonly UnitNode[], unitIds: readonly string[]): string[] {
  const parentOf = new Map(tree.map((unit) => [unit.id, unit.parentId]));
  const seen = new Set<string>();
  for (const start of unitIds) {
    let current: string | null | undefined = start;
    while (current && !seen.has(current) && parentOf.has(current)) {
      seen.add(current);
      current = parentOf.get(current);
    }
  }
  return [...seen];
}

/**
 * Units depth first (each before its sub-units, siblings in the order given — by name as the tree is
 * read): the order a tree is drawn in.
 */
export function depthFirst<T extends { id: string }>(units: readonly T[], parentOf: (unit: T) => string | null): T[] {
  const ordered: T[] = [];
  const visit = (parentId: string | null) => {
    for (const unit of units)
      if ((parentOf(unit) ?? null) === parentId) {
        ordered.push(unit);
        visit(unit.id);
      }
  };
  visit(null);
  return ordered;
}

/** `unitId` and every unit below it. */
export function subtree(tree: readonly UnitNode[], unitId: string): string[] {
  const result = [unitId];
  for (let i = 0; i < result.length; i++)
    for (const unit of tree) if (unit.parentId === result[i]) result.push(unit.id);
  return tree.some((unit) => unit.id === unitId) ? result : [];
}

/** The units an employee is a member of within one company (direct memberships only). */
export async function unitsOfEmployee(executor: Executor, customerId: string, employeeId: string): Promise<string[]> {
  return unitIdsOfEmployee(executor, customerId, employeeId);
}

/**
 * The units whose attachments (budgets, addresses, rules …) apply to an employee: the employee's own
 * units and all units above them. Empty for a login that is no employee (the company admin).
 */
export async function unitScopeOfEmployee(
  executor: Executor,
  customerId: string,
  employeeId: string,
): Promise<string[]> {
  const direct = await unitsOfEmployee(executor, customerId, employeeId);
  if (direct.length === 0) return [];
  return withAncestors(await unitTree(executor, customerId), direct);
}

/**
 * The managers responsible for a unit: its own managers, or, where it has none, those of the nearest
 * unit above that has some (a team without a lead answers to its department's).
 */
export async function managersOfUnit(executor: Executor, customerId: string, unitId: string): Promise<string[]> {
  const tree = await unitTree(executor, customerId);
  const rows = await companyMemberRows(executor, customerId);
  const managers = new Map<string, string[]>();
  for (const row of rows)
    if (readBool(row.is_manager)) managers.set(row.unit_id, [...(managers.get(row.unit_id) ?? []), row.employee_id]);
  for (const id of withAncestors(tree, [unitId])) {
    const found = managers.get(id);
    if (found?.length) return found.sort();
  }
  return [];
}

/**
 * The employees whose orders a holder of `orders.read-unit` sees: every member of the units of the
 * employee's units' subtrees (their own units and all units below them), the employee included.
 */
export async function colleaguesInUnitSubtrees(
  executor: Executor,
  customerId: string,
  employeeId: string,
): Promise<string[]> {
  const own = await unitsOfEmployee(executor, customerId, employeeId);
  if (own.length === 0) return [employeeId];
  const tree = await unitTree(executor, customerId);
  const units = new Set(own.flatMap((id) => subtree(tree, id)));
  const rows = await companyMemberRows(executor, customerId);
  return [
    ...new Set([employeeId, ...rows.filter((row) => units.has(row.unit_id)).map((row) => row.employee_id)]),
  ].sort();
}
