import type { Knex } from 'knex';
import { forUpdate, readBool, selectRows, type Executor } from '../../../lib/db.js';
import { newId } from '../../../lib/ids.js';
import { nowDb } from '../../../lib/time.js';

export const UNITS = 'b2b_organisation_units';
export const MEMBERS = 'b2b_organisation_unit_members';
export const BUDGET_UNITS = 'suite_budget_units';
export const COST_CENTER_UNITS = 'suite_cost_center_units';
export const UNIT_ADDRESSES = 'b2b_unit_addresses';
export const UNIT_ADDRESS_DEFAULTS = 'b2b_unit_address_defaults';
/** Partial-assortment rules an operator attached to a unit (migration 028); they go with the unit. */
export const UNIT_RULES = 'b2b_unit_partial_assortment_rules';

export interface UnitRow {
  id: string;
  customer_id: string;
  parent_id: string | null;
  name: string;
  created_at: unknown;
  updated_at: unknown;
}

export interface MemberRow {
  unit_id: string;
  employee_id: string;
  is_manager: unknown;
}

export interface Membership {
  unitId: string;
  employeeId: string;
  isManager: boolean;
}

/**
 * Locks the company's unit rows for the rest of the transaction: moves, creations and deletions of
 * one company queue here, so two concurrent moves can never build a cycle between them (each checks
 * the tree after the other's move). A company has at most a few hundred units.
 */
export async function lockCompanyUnits(trx: Executor, customerId: string): Promise<UnitRow[]> {
  return selectRows<UnitRow>(forUpdate(trx(UNITS).where({ customer_id: customerId }).orderBy('id').select('*'), trx));
}

/** The company's units as its tree needs them (id, parent, name), by name. */
export async function unitTreeRows(
  executor: Executor,
  customerId: string,
): Promise<Array<Pick<UnitRow, 'id' | 'parent_id' | 'name'>>> {
  return selectRows<Pick<UnitRow, 'id' | 'parent_id' | 'name'>>(
    executor(UNITS).where({ customer_id: customerId }).select('id', 'parent_id', 'name').orderBy('name').orderBy('id'),
  );
}

/** The company a unit belongs to, by the unit's id alone; undefined when there is no such unit. */
export async function customerIdOfUnit(executor: Executor, unitId: string): Promise<string | undefined> {
  const [row] = await selectRows<{ customer_id: string }>(executor(UNITS).where({ id: unitId }).select('customer_id'));
  return row?.customer_id;
}

export async function findUnit(executor: Executor, customerId: string, id: string): Promise<UnitRow | null> {
  return ((await executor(UNITS).where({ id, customer_id: customerId }).first()) as UnitRow | undefined) ?? null;
}

export async function unitRows(executor: Executor, customerId: string): Promise<UnitRow[]> {
  return selectRows<UnitRow>(
    executor(UNITS).where({ customer_id: customerId }).orderBy('name').orderBy('id').select('*'),
  );
}

export async function insertUnit(
  executor: Executor,
  customerId: string,
  name: string,
  parentId: string | null,
  id = newId(),
): Promise<string> {
  await executor(UNITS).insert({
    id,
    customer_id: customerId,
    parent_id: parentId,
    name,
    created_at: nowDb(),
    updated_at: null,
  });
  return id;
}

export async function updateUnit(
  executor: Executor,
  customerId: string,
  id: string,
  columns: { name?: string; parentId?: string | null },
): Promise<number> {
  const update: Record<string, unknown> = { updated_at: nowDb() };
  if (columns.name !== undefined) update.name = columns.name;
  if (columns.parentId !== undefined) update.parent_id = columns.parentId;
  return executor(UNITS).where({ id, customer_id: customerId }).update(update);
}

export async function memberships(executor: Executor, customerId: string): Promise<Membership[]> {
  const rows = await selectRows<MemberRow>(
    executor(MEMBERS)
      .where({ customer_id: customerId })
      .orderBy('unit_id')
      .orderBy('employee_id')
      .select('unit_id', 'employee_id', 'is_manager'),
  );
  return rows.map((row) => ({ unitId: row.unit_id, employeeId: row.employee_id, isManager: readBool(row.is_manager) }));
}

/** The units an employee is a direct member of within one company. */
export async function unitIdsOfEmployee(executor: Executor, customerId: string, employeeId: string): Promise<string[]> {
  const rows = await selectRows<{ unit_id: string }>(
    executor(MEMBERS).where({ customer_id: customerId, employee_id: employeeId }).select('unit_id'),
  );
  return rows.map((row) => row.unit_id);
}

/** Every membership of a company's units as stored (in no particular order). */
export async function companyMemberRows(executor: Executor, customerId: string): Promise<MemberRow[]> {
  return selectRows<MemberRow>(
    executor(MEMBERS).where({ customer_id: customerId }).select('unit_id', 'employee_id', 'is_manager'),
  );
}

/** Adds the employee to the unit, or changes the manager flag of an existing membership. */
export async function putMember(
  executor: Executor,
  customerId: string,
  unitId: string,
  employeeId: string,
  isManager: boolean,
): Promise<void> {
  const changed = await executor(MEMBERS)
    .where({ unit_id: unitId, employee_id: employeeId })
    .update({ is_manager: isManager, updated_at: nowDb() });
  if (changed === 0)
    await executor(MEMBERS).insert({
      unit_id: unitId,
      employee_id: employeeId,
      customer_id: customerId,
      is_manager: isManager,
      created_at: nowDb(),
      updated_at: null,
    });
}

export async function removeMember(
  executor: Executor,
  customerId: string,
  unitId: string,
  employeeId: string,
): Promise<number> {
  return executor(MEMBERS).where({ unit_id: unitId, employee_id: employeeId, customer_id: customerId }).delete();
}

/** What hangs on a unit, counted: a unit with any of it is only deleted with a target to move it to. */
export async function attachmentCounts(
  executor: Executor,
  unitId: string,
): Promise<{ members: number; budgets: number; addresses: number; defaults: number; costCenters: number }> {
  const count = async (table: string) => {
    const [row] = await selectRows<{ n: unknown }>(executor(table).where({ unit_id: unitId }).count({ n: '*' }));
    return Number(row?.n ?? 0);
  };
  return {
    members: await count(MEMBERS),
    budgets: await count(BUDGET_UNITS),
    addresses: await count(UNIT_ADDRESSES),
    defaults: await count(UNIT_ADDRESS_DEFAULTS),
    costCenters: await count(COST_CENTER_UNITS),
  };
}

/**
 * Moves everything of unit `from` to unit `to` before `from` is deleted: its children, its members
 * (a manager stays a manager; an employee in both keeps the stronger flag), its budgets and
 * addresses; defaults and the default cost center only where `to` has none of its own.
 */
export async function moveEverything(executor: Executor, customerId: string, from: string, to: string): Promise<void> {
  await executor(UNITS)
    .where({ customer_id: customerId, parent_id: from })
    .update({ parent_id: to, updated_at: nowDb() });
  for (const member of await selectRows<MemberRow>(
    executor(MEMBERS).where({ unit_id: from }).select('unit_id', 'employee_id', 'is_manager'),
  )) {
    const [existing] = await selectRows<{ is_manager: unknown }>(
      executor(MEMBERS).where({ unit_id: to, employee_id: member.employee_id }).select('is_manager'),
    );
    await putMember(
      executor,
      customerId,
      to,
      member.employee_id,
      readBool(member.is_manager) || readBool(existing?.is_manager),
    );
  }
  await executor(MEMBERS).where({ unit_id: from }).delete();
  const moveLinks = async (table: string, key: string) => {
    const taken = new Set(
      (await selectRows<Record<string, string>>(executor(table).where({ unit_id: to }).select(key))).map(
        (row) => row[key],
      ),
    );
    const moving = await selectRows<Record<string, string>>(executor(table).where({ unit_id: from }).select(key));
    for (const row of moving)
      if (!taken.has(row[key]))
        await executor(table)
          .where({ unit_id: from, [key]: row[key] })
          .update({ unit_id: to });
    await executor(table).where({ unit_id: from }).delete();
  };
  await moveLinks(BUDGET_UNITS, 'budget_id');
  await moveLinks(UNIT_ADDRESSES, 'address_id');
  await moveLinks(UNIT_ADDRESS_DEFAULTS, 'type');
  const targetHasCostCenter = await selectRows<{ unit_id: string }>(
    executor(COST_CENTER_UNITS).where({ unit_id: to }).select('unit_id'),
  );
  if (targetHasCostCenter.length) await executor(COST_CENTER_UNITS).where({ unit_id: from }).delete();
  else await executor(COST_CENTER_UNITS).where({ unit_id: from }).update({ unit_id: to });
}

export async function deleteUnitRow(executor: Executor, customerId: string, id: string): Promise<number> {
  return executor(UNITS).where({ id, customer_id: customerId }).delete();
}

/** The customers were deleted by the host: their units go, with memberships and attachments (cascades), children before parents. */
export async function deleteCustomersUnits(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(MEMBERS).whereIn('customer_id', customerIds).delete();
  await executor(UNIT_ADDRESSES).whereIn('customer_id', customerIds).delete();
  await executor(UNIT_ADDRESS_DEFAULTS).whereIn('customer_id', customerIds).delete();
  await executor(COST_CENTER_UNITS).whereIn('customer_id', customerIds).delete();
  await executor(UNITS).whereIn('customer_id', customerIds).update({ parent_id: null });
  await executor(UNITS).whereIn('customer_id', customerIds).delete();
}

/** The company's units (the rows of the units list), for criteria to narrow. */
export function unitsQuery(executor: Executor, customerId: string): Knex.QueryBuilder {
  return executor(UNITS).where(`${UNITS}.customer_id`, customerId);
}

/** The partial-assortment rules attached to any unit of the company. */
export async function attachedUnitRules(
  executor: Executor,
  customerId: string,
): Promise<Array<{ unit_id: string; rule_id: string }>> {
  return selectRows<{ unit_id: string; rule_id: string }>(
    executor(UNIT_RULES).where({ customer_id: customerId }).select('unit_id', 'rule_id'),
  );
}

/** The ids of the partial-assortment rules attached to one unit. */
export async function ruleIdsOfUnit(executor: Executor, unitId: string): Promise<string[]> {
  const rows = await selectRows<{ rule_id: string }>(executor(UNIT_RULES).where({ unit_id: unitId }).select('rule_id'));
  return rows.map((row) => row.rule_id);
}

/** Replaces the partial-assortment rules attached to a unit of the company by `ruleIds`. */
export async function replaceUnitRules(
  executor: Executor,
  customerId: string,
  unitId: string,
  ruleIds: string[],
): Promise<void> {
  await executor(UNIT_RULES).where({ unit_id: unitId }).delete();
  if (ruleIds.length > 0)
    await executor(UNIT_RULES).insert(
      ruleIds.map((ruleId) => ({
        unit_id: unitId,
        rule_id: ruleId,
        customer_id: customerId,
        created_at: nowDb(),
      })),
    );
}
