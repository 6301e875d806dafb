import type { Knex } from 'knex';
import { searchByCriteria, type Criteria, type Page } from '../../lib/criteria.js';
import { readBool, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import { unitsOfEmployee, unitTree } from '../company/index.js';
import { COST_CENTER_CRITERIA, COST_CENTERS, DEFAULTS, SELECTIONS, UNIT_DEFAULTS } from './schemas.js';

export interface CostCenterRow {
  id: string;
  customer_id: string;
  number: string;
  name: string;
  description: string | null;
  active: unknown;
  created_at: unknown;
  updated_at: unknown;
}

/** Whose default or choice: the login (employee, company admin, representative) within the customer it acts for. */
export interface ActorKey {
  customerId: string;
  actorType: string;
  actorId: string;
}

export function costCenterView(row: CostCenterRow, defaultId: string | null) {
  return {
    id: row.id,
    costCenterId: row.id,
    customerId: row.customer_id,
    number: String(row.number),
    name: String(row.name),
    description: row.description ?? null,
    active: readBool(row.active),
    isDefault: row.id === defaultId,
    createdAt: fromDbTime(row.created_at as string)!,
    updatedAt: fromDbTime(row.updated_at as string | null),
  };
}

/** What an order keeps of its cost center. */
export const costCenterRef = (row: CostCenterRow) => ({
  id: row.id,
  number: String(row.number),
  name: String(row.name),
});

const keyOf = (key: ActorKey) => ({ customer_id: key.customerId, actor_type: key.actorType, actor_id: key.actorId });

export function searchCostCenters(
  executor: Executor,
  customerId: string,
  criteria: Criteria,
  activeOnly: boolean,
): Promise<Page<CostCenterRow>> {
  const base = executor(COST_CENTERS).where(`${COST_CENTERS}.customer_id`, customerId);
  if (activeOnly) base.where(`${COST_CENTERS}.active`, true);
  return searchByCriteria<CostCenterRow>(base, criteria, COST_CENTER_CRITERIA, (qb) => qb.select(`${COST_CENTERS}.*`));
}

/** The customer's cost center, or null (also for another customer's). */
/** The company a cost center belongs to, whoever asks (the representative's look-up, decision 0048); null when unknown. */
export async function customerOfCostCenter(executor: Executor, id: string): Promise<string | null> {
  const row = await selectRow<{ customer_id: string }>(executor(COST_CENTERS).where({ id }).first('customer_id'));
  return row?.customer_id ?? null;
}

export async function findCostCenter(
  executor: Executor,
  customerId: string,
  id: string,
  lock?: (q: Knex.QueryBuilder) => Knex.QueryBuilder,
): Promise<CostCenterRow | null> {
  const query = executor(COST_CENTERS).where({ id, customer_id: customerId }).first();
  return ((await (lock ? lock(query) : query)) as CostCenterRow | undefined) ?? null;
}

export async function insertCostCenter(
  executor: Executor,
  customerId: string,
  input: { number: string; name: string; description?: string | null; active?: boolean },
): Promise<string> {
  const id = newId();
  await executor(COST_CENTERS).insert({
    id,
    customer_id: customerId,
    number: input.number.trim(),
    name: input.name.trim(),
    description: input.description ?? null,
    active: input.active ?? true,
    created_at: nowDb(),
    updated_at: null,
  });
  return id;
}

/** Answers the number of rows changed (0: not the customer's). */
export async function updateCostCenter(
  executor: Executor,
  customerId: string,
  id: string,
  input: { number?: string; name?: string; description?: string | null; active?: boolean },
): Promise<number> {
  const columns: Record<string, unknown> = { updated_at: nowDb() };
  if (input.number !== undefined) columns.number = input.number.trim();
  if (input.name !== undefined) columns.name = input.name.trim();
  if (input.description !== undefined) columns.description = input.description;
  if (input.active !== undefined) columns.active = input.active;
  return executor(COST_CENTERS).where({ id, customer_id: customerId }).update(columns);
}

/** Deletes it with the defaults and choices naming it (foreign keys cascade); orders keep their snapshot. */
export async function deleteCostCenter(executor: Executor, customerId: string, id: string): Promise<number> {
  await executor(DEFAULTS).where({ cost_center_id: id, customer_id: customerId }).delete();
  await executor(SELECTIONS).where({ cost_center_id: id, customer_id: customerId }).delete();
  await executor(UNIT_DEFAULTS).where({ cost_center_id: id, customer_id: customerId }).delete();
  return executor(COST_CENTERS).where({ id, customer_id: customerId }).delete();
}

async function linkedCostCenter(executor: Executor, table: string, key: ActorKey): Promise<CostCenterRow | null> {
  const row: unknown = await executor(`${table} as link`)
    .join(`${COST_CENTERS} as cc`, 'cc.id', 'link.cost_center_id')
    .where({ 'link.customer_id': key.customerId, 'link.actor_type': key.actorType, 'link.actor_id': key.actorId })
    .where('cc.customer_id', key.customerId)
    .first('cc.*');
  return (row as CostCenterRow | undefined) ?? null;
}

async function setLink(executor: Executor, table: string, key: ActorKey, costCenterId: string | null): Promise<void> {
  await executor(table).where(keyOf(key)).delete();
  if (costCenterId) await executor(table).insert({ ...keyOf(key), cost_center_id: costCenterId, updated_at: nowDb() });
}

export const defaultOf = (executor: Executor, key: ActorKey) => linkedCostCenter(executor, DEFAULTS, key);
export const setDefault = (executor: Executor, key: ActorKey, costCenterId: string | null) =>
  setLink(executor, DEFAULTS, key, costCenterId);
export const selectionOf = (executor: Executor, key: ActorKey) => linkedCostCenter(executor, SELECTIONS, key);
export const setSelection = (executor: Executor, key: ActorKey, costCenterId: string | null) =>
  setLink(executor, SELECTIONS, key, costCenterId);

/** A unit's own default cost center, or null. */
export async function unitCostCenter(
  executor: Executor,
  customerId: string,
  unitId: string,
): Promise<CostCenterRow | null> {
  const row: unknown = await executor(`${UNIT_DEFAULTS} as link`)
    .join(`${COST_CENTERS} as cc`, 'cc.id', 'link.cost_center_id')
    .where({ 'link.customer_id': customerId, 'link.unit_id': unitId })
    .first('cc.*');
  return (row as CostCenterRow | undefined) ?? null;
}

export async function setUnitCostCenter(
  executor: Executor,
  customerId: string,
  unitId: string,
  costCenterId: string | null,
): Promise<void> {
  await executor(UNIT_DEFAULTS).where({ unit_id: unitId }).delete();
  if (costCenterId)
    await executor(UNIT_DEFAULTS).insert({
      unit_id: unitId,
      customer_id: customerId,
      cost_center_id: costCenterId,
      updated_at: nowDb(),
    });
}

/**
 * The default cost center an employee gets from their organisation units: that of the nearest unit
 * with one — their own units first (by id, for a stable answer), then the units above, level by level.
 */
export async function inheritedCostCenter(
  executor: Executor,
  customerId: string,
  employeeId: string,
): Promise<CostCenterRow | null> {
  const own = (await unitsOfEmployee(executor, customerId, employeeId)).sort();
  if (own.length === 0) return null;
  const tree = await unitTree(executor, customerId);
  const links = new Map(
    (
      await selectRows<{ unit_id: string; cost_center_id: string }>(
        executor(UNIT_DEFAULTS).where({ customer_id: customerId }).select('unit_id', 'cost_center_id'),
      )
    ).map((row) => [row.unit_id, row.cost_center_id]),
  );
  const order = [...own];
  for (let i = 0; i < order.length; i++) {
    const found = links.get(order[i]!);
    if (found) return findCostCenter(executor, customerId, found);
    const parent = tree.find((unit) => unit.id === order[i])?.parentId;
    if (parent && !order.includes(parent)) order.push(parent);
  }
  return null;
}

/** The customers were deleted by the host (contract event): their cost centers go, with every default and choice. */
export async function deleteCustomersCostCenters(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(DEFAULTS).whereIn('customer_id', customerIds).delete();
  await executor(SELECTIONS).whereIn('customer_id', customerIds).delete();
  await executor(UNIT_DEFAULTS).whereIn('customer_id', customerIds).delete();
  await executor(COST_CENTERS).whereIn('customer_id', customerIds).delete();
}
