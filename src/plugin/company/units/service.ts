import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { searchByCriteria, type Criteria } from '../../../lib/criteria.js';
import { inTransaction, isRowReferencedError, type Executor, type Trx } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { criteriaList, storeListOf } from '../../../lib/store-list.js';
import { fromDbTime } from '../../../lib/time.js';
import { declaredCustomer } from '../../declared.js';
import { findEmployees, listEmployees } from '../employee-directory.js';
import { depthFirst, subtree, withAncestors, type UnitNode } from './directory.js';
import {
  attachmentCounts,
  deleteUnitRow,
  findUnit,
  insertUnit,
  lockCompanyUnits,
  memberships,
  moveEverything,
  putMember,
  removeMember,
  unitRows,
  unitsQuery,
  updateUnit,
  UNITS,
  type Membership,
  type UnitRow,
} from './repository.js';
import { UNIT_CRITERIA } from './schemas.js';

const toNode = (row: UnitRow): UnitNode => ({ id: row.id, parentId: row.parent_id, name: row.name });

/** Everything the views of a company's units are built from, read once. */
interface CompanyUnits {
  rows: UnitRow[];
  members: Membership[];
  people: Map<string, { name: string; email: string }>;
}

async function readCompany(executor: Executor, customerId: string): Promise<CompanyUnits> {
  const [rows, members, employees] = await Promise.all([
    unitRows(executor, customerId),
    memberships(executor, customerId),
    listEmployees(executor, customerId),
  ]);
  return { rows, members, people: new Map(employees.map((e) => [e.id, { name: e.name, email: e.email }])) };
}

function unitView(company: CompanyUnits, row: UnitRow) {
  const tree = company.rows.map(toNode);
  const byId = new Map(company.rows.map((r) => [r.id, r]));
  const chain = withAncestors(tree, [row.id]).reverse();
  const members = company.members
    .filter((m) => m.unitId === row.id)
    .map((m) => ({
      employeeId: m.employeeId,
      name: company.people.get(m.employeeId)?.name ?? '',
      email: company.people.get(m.employeeId)?.email ?? '',
      isManager: m.isManager,
    }));
  let managerIds: string[] = [];
  for (const id of [...chain].reverse()) {
    managerIds = company.members
      .filter((m) => m.unitId === id && m.isManager)
      .map((m) => m.employeeId)
      .sort();
    if (managerIds.length) break;
  }
  return {
    id: row.id,
    parentId: row.parent_id ?? null,
    name: row.name,
    path: chain.map((id) => byId.get(id)?.name ?? ''),
    depth: chain.length - 1,
    childIds: company.rows.filter((r) => r.parent_id === row.id).map((r) => r.id),
    members,
    managerIds,
    createdAt: fromDbTime(row.created_at as string)!,
    updatedAt: fromDbTime(row.updated_at as string | null),
  };
}

export type UnitView = ReturnType<typeof unitView>;

export async function unitTreeViews(executor: Executor, customerId: string): Promise<UnitView[]> {
  const company = await readCompany(executor, customerId);
  return depthFirst(company.rows, (row) => row.parent_id).map((row) => unitView(company, row));
}

export async function listUnits(host: HostRuntime, ctx: StoreContext, criteria: Criteria) {
  const customer = declaredCustomer(ctx);
  const page = await searchByCriteria<UnitRow>(unitsQuery(host.db, customer.id), criteria, UNIT_CRITERIA, (qb) =>
    qb.select(`${UNITS}.*`),
  );
  const company = await readCompany(host.db, customer.id);
  return criteriaList({ total: page.total, data: page.rows.map((row) => unitView(company, row)) }, criteria);
}

export async function unitTreeList(host: HostRuntime, ctx: StoreContext) {
  return storeListOf(await unitTreeViews(host.db, declaredCustomer(ctx).id));
}

export async function readUnit(executor: Executor, customerId: string, id: string): Promise<UnitView> {
  const company = await readCompany(executor, customerId);
  const row = company.rows.find((r) => r.id === id);
  if (!row) throw Errors.notFound('Organisation unit', id);
  return unitView(company, row);
}

const nameTaken = () =>
  Errors.badRequest('SUITE__UNIT_NAME_TAKEN', 'A unit with this name exists under the same parent already.', {
    pointer: '/name',
  });

function assertNameFree(rows: UnitRow[], name: string, parentId: string | null, exceptId?: string): void {
  const wanted = name.trim().toLowerCase();
  if (
    rows.some((r) => r.id !== exceptId && (r.parent_id ?? null) === parentId && r.name.trim().toLowerCase() === wanted)
  )
    throw nameTaken();
}

function assertParent(rows: UnitRow[], parentId: string | null): void {
  if (parentId !== null && !rows.some((r) => r.id === parentId)) throw Errors.notFound('Organisation unit', parentId);
}

/** Creates a unit (in its own transaction, or the caller's, e.g. a CSV import). */
export async function createUnitIn(
  trx: Trx,
  customerId: string,
  body: { name: string; parentId?: string | null },
  id?: string,
): Promise<string> {
  const rows = await lockCompanyUnits(trx, customerId);
  const parentId = body.parentId ?? null;
  assertParent(rows, parentId);
  assertNameFree(rows, body.name, parentId);
  return insertUnit(trx, customerId, body.name.trim(), parentId, id);
}

export async function createUnit(
  host: HostRuntime,
  ctx: StoreContext,
  body: { name: string; parentId?: string | null },
) {
  const customer = declaredCustomer(ctx);
  const id = await inTransaction(host.db, (trx) => createUnitIn(trx, customer.id, body));
  return { success: true as const, unit: await readUnit(host.db, customer.id, id) };
}

/** Renames or moves a unit; a move under the unit itself or one of its descendants would cut the subtree off the tree and is refused. */
export async function changeUnitIn(
  trx: Trx,
  customerId: string,
  id: string,
  body: { name?: string; parentId?: string | null },
): Promise<void> {
  const rows = await lockCompanyUnits(trx, customerId);
  const row = rows.find((r) => r.id === id);
  if (!row) throw Errors.notFound('Organisation unit', id);
  const parentId = body.parentId === undefined ? (row.parent_id ?? null) : body.parentId;
  if (body.parentId !== undefined) {
    assertParent(rows, parentId);
    if (parentId !== null && subtree(rows.map(toNode), id).includes(parentId))
      throw Errors.badRequest('SUITE__UNIT_CYCLE', 'A unit cannot move under itself or one of its own sub-units.', {
        pointer: '/parentId',
      });
  }
  assertNameFree(rows, body.name ?? row.name, parentId, id);
  await updateUnit(trx, customerId, id, { name: body.name?.trim(), parentId: body.parentId });
}

export async function changeUnit(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  body: { name?: string; parentId?: string | null },
) {
  const customer = declaredCustomer(ctx);
  await inTransaction(host.db, (trx) => changeUnitIn(trx, customer.id, id, body));
  return { success: true as const, unit: await readUnit(host.db, customer.id, id) };
}

/**
 * Deletes a unit. One with sub-units, members or attachments (budgets, addresses, defaults, a
 * default cost center) is refused unless `moveTo` names the unit they go to (not the unit itself
 * nor one below it): a budget or address of a deleted unit must not silently start to apply to the
 * whole company, nor employees lose their place in the tree unnoticed.
 */
export async function deleteUnit(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  moveTo: string | undefined,
): Promise<void> {
  const customer = declaredCustomer(ctx);
  await inTransaction(host.db, async (trx) => {
    const rows = await lockCompanyUnits(trx, customer.id);
    if (!rows.some((r) => r.id === id)) throw Errors.notFound('Organisation unit', id);
    if (moveTo !== undefined) {
      if (!rows.some((r) => r.id === moveTo)) throw Errors.notFound('Organisation unit', moveTo);
      if (subtree(rows.map(toNode), id).includes(moveTo))
        throw Errors.badRequest(
          'SUITE__UNIT_CYCLE',
          'The sub-units and members of a deleted unit cannot move to the unit itself or below it.',
          { pointer: '/moveTo' },
        );
      for (const child of rows.filter((r) => r.parent_id === id)) assertNameFree(rows, child.name, moveTo, child.id);
      await moveEverything(trx, customer.id, id, moveTo);
    } else {
      const counts = await attachmentCounts(trx, id);
      const children = rows.filter((r) => r.parent_id === id).length;
      const held = Object.entries({ 'sub-units': children, ...counts }).filter(([, n]) => n > 0);
      if (held.length)
        throw Errors.badRequest(
          'SUITE__UNIT_NOT_EMPTY',
          `The unit still has ${held.map(([what, n]) => `${n} ${what}`).join(', ')}; move them first or name a unit to move them to (moveTo).`,
          {
            meta: Object.fromEntries(held),
          },
        );
    }
    try {
      await deleteUnitRow(trx, customer.id, id);
    } catch (error) {
      // Another add-on's row still names the unit (e.g. an approval rule's condition): refused like the attachments above.
      if (isRowReferencedError(error))
        throw Errors.badRequest(
          'SUITE__UNIT_NOT_EMPTY',
          'Something else of the company (e.g. an approval rule) still names the unit; change it first.',
        );
      throw error;
    }
  });
}

async function assertEmployee(executor: Executor, customerId: string, employeeId: string): Promise<void> {
  if ((await findEmployees(executor, customerId, [employeeId])).length === 0)
    throw Errors.notFound('Employee', employeeId);
}

async function unitIdsOf(executor: Executor, customerId: string, employeeId: string): Promise<string[]> {
  return (await memberships(executor, customerId))
    .filter((m) => m.employeeId === employeeId)
    .map((m) => m.unitId)
    .sort();
}

export async function setMember(
  host: HostRuntime,
  ctx: StoreContext,
  unitId: string,
  employeeId: string,
  body: { isManager?: boolean },
) {
  const customer = declaredCustomer(ctx);
  await inTransaction(host.db, async (trx) => {
    if (!(await findUnit(trx, customer.id, unitId))) throw Errors.notFound('Organisation unit', unitId);
    await assertEmployee(trx, customer.id, employeeId);
    await putMember(trx, customer.id, unitId, employeeId, body.isManager ?? false);
  });
  return { success: true as const, employeeId, unitIds: await unitIdsOf(host.db, customer.id, employeeId) };
}

export async function unsetMember(host: HostRuntime, ctx: StoreContext, unitId: string, employeeId: string) {
  const customer = declaredCustomer(ctx);
  if (!(await findUnit(host.db, customer.id, unitId))) throw Errors.notFound('Organisation unit', unitId);
  if ((await removeMember(host.db, customer.id, unitId, employeeId)) === 0)
    throw Errors.notFound('Membership', employeeId);
  return { success: true as const, employeeId, unitIds: await unitIdsOf(host.db, customer.id, employeeId) };
}

/** Moves an employee from one unit to another in one transaction (the storefront's "move employee"). */
export async function moveEmployee(
  host: HostRuntime,
  ctx: StoreContext,
  body: { employeeId: string; fromUnitId: string | null; toUnitId: string; isManager?: boolean },
) {
  const customer = declaredCustomer(ctx);
  await inTransaction(host.db, async (trx) => {
    await assertEmployee(trx, customer.id, body.employeeId);
    if (!(await findUnit(trx, customer.id, body.toUnitId))) throw Errors.notFound('Organisation unit', body.toUnitId);
    let wasManager = false;
    if (body.fromUnitId !== null) {
      if (!(await findUnit(trx, customer.id, body.fromUnitId)))
        throw Errors.notFound('Organisation unit', body.fromUnitId);
      const before = (await memberships(trx, customer.id)).find(
        (m) => m.unitId === body.fromUnitId && m.employeeId === body.employeeId,
      );
      if (!before)
        throw Errors.badRequest('SUITE__NOT_A_MEMBER', 'The employee is not a member of the unit to move from.', {
          pointer: '/fromUnitId',
        });
      wasManager = before.isManager;
      if (body.fromUnitId !== body.toUnitId) await removeMember(trx, customer.id, body.fromUnitId, body.employeeId);
    }
    await putMember(trx, customer.id, body.toUnitId, body.employeeId, body.isManager ?? wasManager);
  });
  return {
    success: true as const,
    employeeId: body.employeeId,
    unitIds: await unitIdsOf(host.db, customer.id, body.employeeId),
  };
}
