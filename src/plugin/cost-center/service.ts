import type { HostRuntime, OrderDraft, StoreContext } from '../../contract/index.js';
import type { Criteria } from '../../lib/criteria.js';
import { inTransaction, isDuplicateKeyError, readBool, type Executor, type Trx } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { criteriaList } from '../../lib/store-list.js';
import { declaredCustomer } from '../declared.js';
import { findEmployeeRow } from '../employee/index.js';
import { unitTree } from '../company/index.js';
import { isAssigned } from '../sales-representative/index.js';
import {
  costCenterRef,
  costCenterView,
  customerOfCostCenter,
  defaultOf,
  deleteCostCenter,
  findCostCenter,
  inheritedCostCenter,
  insertCostCenter,
  searchCostCenters,
  selectionOf,
  setDefault,
  setSelection,
  setUnitCostCenter,
  unitCostCenter,
  updateCostCenter,
  type ActorKey,
  type CostCenterRow,
} from './repository.js';
import { MANAGE, READ } from './schemas.js';

/** The key of the order custom field that holds the order's cost center `{id, number, name}`. */
export const ORDER_FIELD = 'costCenter';

function actorKey(ctx: StoreContext): ActorKey {
  const customer = declaredCustomer(ctx);
  return { customerId: customer.id, actorType: ctx.actor.type, actorId: ctx.actor.id ?? customer.id };
}

const duplicateNumber = () =>
  Errors.badRequest('SUITE__DUPLICATE_COST_CENTER_NUMBER', 'The company has a cost center with this number already.', {
    pointer: '/number',
  });

async function viewOf(executor: Executor, ctx: StoreContext, id: string) {
  const key = actorKey(ctx);
  const row = await findCostCenter(executor, key.customerId, id);
  if (!row) throw Errors.notFound('Cost center', id);
  return costCenterView(row, (await defaultOf(executor, key))?.id ?? null);
}

/**
 * The context a /b2b cost center call acts in (decision 0048). `customerId` (the
 * connector's body) names the company: the caller's own, or — for a sales representative — one of
 * its assigned customers, which it then acts for as after switch-customer; anything else is a 404,
 * as another tenant's id is. Without it, the caller's context.
 */
export async function contextForCustomer(host: HostRuntime, ctx: StoreContext, customerId?: string) {
  const own = declaredCustomer(ctx);
  if (customerId === undefined || customerId === own.id) return ctx;
  const representative = ctx.actor.type === 'salesRepresentative' ? ctx.salesRepresentative : null;
  if (representative && (await isAssigned(host, host.db, representative.id, ctx.salesChannel.id, customerId))) {
    const customer = await host.customers.get(host.db, customerId);
    if (customer) return { ...ctx, customer };
  }
  throw Errors.notFound('Customer', customerId);
}

/** The context for a cost center by id: a sales representative reads and changes those of all its customers. */
export async function contextForCostCenter(host: HostRuntime, ctx: StoreContext, id: string) {
  if (ctx.actor.type !== 'salesRepresentative') return ctx;
  const customerId = await customerOfCostCenter(host.db, id);
  if (!customerId) throw Errors.notFound('Cost center', id);
  try {
    return await contextForCustomer(host, ctx, customerId);
  } catch {
    throw Errors.notFound('Cost center', id);
  }
}

/** Who may see inactive cost centers: those who read or manage them; the others see what they may choose. */
export async function listCostCenters(host: HostRuntime, ctx: StoreContext, criteria: Criteria) {
  const key = actorKey(ctx);
  const page = await searchCostCenters(host.db, key.customerId, criteria, !(ctx.can(READ) || ctx.can(MANAGE)));
  const defaultId = (await defaultOf(host.db, key))?.id ?? null;
  return criteriaList({ total: page.total, data: page.rows.map((row) => costCenterView(row, defaultId)) }, criteria);
}

/** One cost center; an inactive one is a 404 for a login that may only see what it may choose (as in the list). */
export async function readCostCenter(host: HostRuntime, ctx: StoreContext, id: string) {
  const view = await viewOf(host.db, ctx, id);
  if (!view.active && !(ctx.can(READ) || ctx.can(MANAGE))) throw Errors.notFound('Cost center', id);
  return view;
}

export async function createCostCenter(
  host: HostRuntime,
  ctx: StoreContext,
  body: { number: string; name: string; description?: string | null; active?: boolean },
) {
  const customer = declaredCustomer(ctx);
  let id: string;
  try {
    id = await insertCostCenter(host.db, customer.id, body);
  } catch (error) {
    if (isDuplicateKeyError(error)) throw duplicateNumber();
    throw error;
  }
  return { success: true as const, costCenter: await viewOf(host.db, ctx, id) };
}

export async function changeCostCenter(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  body: { number?: string; name?: string; description?: string | null; active?: boolean },
) {
  const customer = declaredCustomer(ctx);
  let changed: number;
  try {
    changed = await updateCostCenter(host.db, customer.id, id, body);
  } catch (error) {
    if (isDuplicateKeyError(error)) throw duplicateNumber();
    throw error;
  }
  if (changed === 0) throw Errors.notFound('Cost center', id);
  return { success: true as const, costCenter: await viewOf(host.db, ctx, id) };
}

export async function removeCostCenter(host: HostRuntime, ctx: StoreContext, id: string): Promise<void> {
  const customer = declaredCustomer(ctx);
  const deleted = await inTransaction(host.db, (trx) => deleteCostCenter(trx, customer.id, id));
  if (deleted === 0) throw Errors.notFound('Cost center', id);
}

/** A cost center the customer has and that may go on orders, or the error that says why not. */
async function choosable(executor: Executor, customerId: string, id: string): Promise<CostCenterRow> {
  const row = await findCostCenter(executor, customerId, id);
  if (!row) throw Errors.notFound('Cost center', id);
  if (!readBool(row.active))
    throw Errors.badRequest(
      'SUITE__COST_CENTER_INACTIVE',
      'The cost center is inactive and cannot be chosen for orders.',
      { pointer: '/costCenterId' },
    );
  return row;
}

/** Sets the default cost center of the caller, or (with cost-center.manage) of an employee of the company. */
export async function setDefaultCostCenter(
  host: HostRuntime,
  ctx: StoreContext,
  body: { costCenterId: string | null; employeeId?: string },
) {
  let key = actorKey(ctx);
  if (body.employeeId !== undefined && !(ctx.actor.type === 'employee' && ctx.actor.id === body.employeeId)) {
    if (!ctx.can(MANAGE))
      throw Errors.forbidden("Setting another employee's default cost center needs the permission cost-center.manage.");
    if (!(await findEmployeeRow(host.db, key.customerId, body.employeeId)))
      throw Errors.notFound('Employee', body.employeeId);
    key = { customerId: key.customerId, actorType: 'employee', actorId: body.employeeId };
  }
  const row = body.costCenterId ? await choosable(host.db, key.customerId, body.costCenterId) : null;
  await inTransaction(host.db, (trx) => setDefault(trx, key, row?.id ?? null));
  return { actorType: key.actorType, actorId: key.actorId, costCenter: row ? costCenterRef(row) : null };
}

/**
 * The cost center the caller's next order gets: the chosen one, else the (active) default, else —
 * for an employee — the (active) default of their nearest organisation unit with one.
 */
async function effective(executor: Executor, key: ActorKey): Promise<{ row: CostCenterRow | null; chosen: boolean }> {
  const chosen = await selectionOf(executor, key);
  if (chosen) return { row: chosen, chosen: true };
  const fallback =
    (await defaultOf(executor, key)) ??
    (key.actorType === 'employee' ? await inheritedCostCenter(executor, key.customerId, key.actorId) : null);
  return { row: fallback && readBool(fallback.active) ? fallback : null, chosen: false };
}

async function assertUnit(executor: Executor, customerId: string, unitId: string): Promise<void> {
  if (!(await unitTree(executor, customerId)).some((unit) => unit.id === unitId))
    throw Errors.notFound('Organisation unit', unitId);
}

export async function readUnitCostCenter(host: HostRuntime, ctx: StoreContext, unitId: string) {
  const customer = declaredCustomer(ctx);
  await assertUnit(host.db, customer.id, unitId);
  const row = await unitCostCenter(host.db, customer.id, unitId);
  return { unitId, costCenter: row ? costCenterRef(row) : null };
}

/** Sets (or with null removes) a unit's default cost center; an inactive one cannot be a default. */
export async function setUnitDefaultCostCenter(
  host: HostRuntime,
  ctx: StoreContext,
  unitId: string,
  body: { costCenterId: string | null },
) {
  const customer = declaredCustomer(ctx);
  await assertUnit(host.db, customer.id, unitId);
  const row = body.costCenterId ? await choosable(host.db, customer.id, body.costCenterId) : null;
  await inTransaction(host.db, (trx) => setUnitCostCenter(trx, customer.id, unitId, row?.id ?? null));
  return readUnitCostCenter(host, ctx, unitId);
}

export async function checkoutCostCenter(host: HostRuntime, ctx: StoreContext) {
  const { row, chosen } = await effective(host.db, actorKey(ctx));
  return { costCenter: row ? costCenterRef(row) : null, chosen };
}

export async function chooseCheckoutCostCenter(
  host: HostRuntime,
  ctx: StoreContext,
  body: { costCenterId: string | null },
) {
  const key = actorKey(ctx);
  const row = body.costCenterId ? await choosable(host.db, key.customerId, body.costCenterId) : null;
  await inTransaction(host.db, (trx) => setSelection(trx, key, row?.id ?? null));
  return checkoutCostCenter(host, ctx);
}

/**
 * Checkout interceptor: puts the cost center on the order (custom field and invoice line) and
 * consumes the choice, in the order's transaction (a refused order keeps the choice). A chosen
 * cost center that became inactive refuses the order; an inactive default is left out.
 */
export async function interceptCheckout(ctx: StoreContext, draft: OrderDraft, trx: Trx): Promise<void> {
  if (!ctx.customer || ctx.customer.id !== draft.customerId) return;
  const key = actorKey(ctx);
  const { row, chosen } = await effective(trx, key);
  if (!row) return;
  if (!readBool(row.active))
    throw Errors.badRequest(
      'SUITE__COST_CENTER_INACTIVE',
      `The cost center ${row.number} chosen for this order is inactive; choose another one.`,
      { pointer: '/costCenterId' },
    );
  draft.customFields[ORDER_FIELD] = costCenterRef(row);
  draft.invoiceNotes.push(`Cost center: ${row.number} (${row.name})`);
  if (chosen) await setSelection(trx, key, null);
}
