import type { Knex } from 'knex';
import { readInt, readJson, selectRow, selectRows, writeJson, type Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';
import { itemsQuery } from '../product-list/index.js';
import type { IntervalUnit, Schedule } from './schedule.js';

export const RECURRING_ORDERS = 'suite_recurring_orders';
export const RECURRING_ITEMS = 'suite_recurring_order_items';
export const OCCURRENCES = 'suite_recurring_order_occurrences';

export type RecurringStatus = 'active' | 'paused' | 'cancelled' | 'ended';
export type OccurrenceStatus = 'placed' | 'approval' | 'held' | 'failed' | 'skipped';
/** What an occurrence does when a product can no longer be ordered: place the rest, or place nothing and ask. */
export type UnavailableProducts = 'leave-out' | 'hold';

/** A row of suite_recurring_orders as the drivers return it. */
export interface RecurringRow {
  id: string;
  customer_id: string;
  sales_channel_id: string;
  owner_type: string;
  owner_id: string;
  owner_name: string;
  owner_email: string | null;
  name: string;
  source: string;
  source_id: string | null;
  interval_unit: string;
  interval_count: unknown;
  start_date: string;
  end_date: string | null;
  next_date: string | null;
  status: string;
  billing_address_id: string | null;
  shipping_address_id: string | null;
  comment: string | null;
  unavailable_products: string;
  occurrence_count: unknown;
  created_at: string;
  updated_at: string | null;
}

export interface ItemRow {
  id: string;
  recurring_order_id: string;
  product_id: string;
  label: string;
  quantity: unknown;
  position: unknown;
  last_unit_net: unknown;
}

export interface OccurrenceRow {
  id: string;
  recurring_order_id: string;
  customer_id: string;
  due_date: string;
  status: string;
  reason: string | null;
  error_code: string | null;
  order_id: string | null;
  order_number: string | null;
  approval_id: string | null;
  changes: unknown;
  created_at: string;
}

/** One thing that differs from the last occurrence, as mailed and answered. */
export interface OccurrenceChange {
  kind: 'price-changed' | 'not-available' | 'quantity-adjusted';
  productId: string;
  label: string;
  /** price-changed: unit net prices (minor units); quantity-adjusted: quantities */
  before?: number;
  after?: number;
}

export function scheduleOf(row: RecurringRow): Schedule {
  return {
    unit: row.interval_unit as IntervalUnit,
    count: readInt(row.interval_count),
    startDate: row.start_date,
    endDate: row.end_date ?? null,
  };
}

/** Who may see a recurring order: the company admin all of the company's, an employee their own. */
export function scoped(executor: Executor, customerId: string, ownerId: string | null): Knex.QueryBuilder {
  const query = executor(RECURRING_ORDERS).where('customer_id', customerId);
  return ownerId === null ? query : query.where({ owner_type: 'employee', owner_id: ownerId });
}

export async function findRecurring(
  executor: Executor,
  customerId: string,
  ownerId: string | null,
  id: string,
): Promise<RecurringRow | undefined> {
  return selectRow<RecurringRow>(scoped(executor, customerId, ownerId).where('id', id).first());
}

export async function itemsOf(executor: Executor, ids: string[]): Promise<Map<string, ItemRow[]>> {
  const rows = ids.length
    ? await selectRows<ItemRow>(
        executor(RECURRING_ITEMS).whereIn('recurring_order_id', ids).orderBy('position').orderBy('id'),
      )
    : [];
  const byOrder = new Map<string, ItemRow[]>(ids.map((id) => [id, []]));
  for (const row of rows) byOrder.get(row.recurring_order_id)!.push(row);
  return byOrder;
}

export async function occurrencesOf(executor: Executor, id: string, limit = 50): Promise<OccurrenceRow[]> {
  return selectRows<OccurrenceRow>(
    executor(OCCURRENCES).where('recurring_order_id', id).orderBy('due_date', 'desc').limit(limit),
  );
}

export function occurrenceView(row: OccurrenceRow) {
  return {
    id: row.id,
    dueDate: row.due_date,
    status: row.status as OccurrenceStatus,
    reason: row.reason ?? null,
    errorCode: row.error_code ?? null,
    orderId: row.order_id ?? null,
    orderNumber: row.order_number ?? null,
    approvalId: row.approval_id ?? null,
    changes: readJson<OccurrenceChange[]>(row.changes, []),
    createdAt: fromDbTime(row.created_at)!,
  };
}

export function recurringView(row: RecurringRow, items: ItemRow[], occurrences: OccurrenceRow[]) {
  return {
    id: row.id,
    name: row.name,
    status: row.status as RecurringStatus,
    source: row.source,
    sourceId: row.source_id ?? null,
    owner: { type: row.owner_type, id: row.owner_id, name: row.owner_name, email: row.owner_email ?? null },
    interval: { unit: row.interval_unit as IntervalUnit, count: readInt(row.interval_count) },
    startDate: row.start_date,
    endDate: row.end_date ?? null,
    nextDate: row.next_date ?? null,
    billingAddressId: row.billing_address_id ?? null,
    shippingAddressId: row.shipping_address_id ?? null,
    comment: row.comment ?? null,
    unavailableProducts: (row.unavailable_products === 'hold' ? 'hold' : 'leave-out') satisfies UnavailableProducts,
    occurrenceCount: readInt(row.occurrence_count),
    items: items.map((item) => ({
      id: item.id,
      productId: item.product_id,
      label: item.label,
      quantity: readInt(item.quantity),
    })),
    occurrences: occurrences.map(occurrenceView),
    createdAt: fromDbTime(row.created_at)!,
    updatedAt: fromDbTime(row.updated_at),
  };
}

export type RecurringView = ReturnType<typeof recurringView>;

export async function insertOccurrence(
  executor: Executor,
  row: Omit<OccurrenceRow, 'changes'> & { changes: OccurrenceChange[] },
): Promise<void> {
  await executor(OCCURRENCES).insert({ ...row, changes: writeJson(row.changes) });
}

/** Which of `dates` have an occurrence of the recurring order already (placed, approval, failed or skipped). */
export async function recordedDates(executor: Executor, id: string, dates: string[]): Promise<Set<string>> {
  if (dates.length === 0) return new Set();
  const rows = await selectRows<{ due_date: string }>(
    executor(OCCURRENCES).where('recurring_order_id', id).whereIn('due_date', dates).select('due_date'),
  );
  return new Set(rows.map((row) => row.due_date));
}

/** The dates on or after `from` that have an occurrence of the recurring order already. */
export async function recordedDatesFrom(executor: Executor, id: string, from: string): Promise<Set<string>> {
  const rows = await selectRows<{ due_date: string }>(
    executor(OCCURRENCES).where('recurring_order_id', id).where('due_date', '>=', from).select('due_date'),
  );
  return new Set(rows.map((row) => row.due_date));
}

/** The recurring order's status and next date as committed now. */
export async function currentSchedule(
  executor: Executor,
  id: string,
): Promise<{ status: string; next_date: string | null } | undefined> {
  return selectRow<{ status: string; next_date: string | null }>(
    executor(RECURRING_ORDERS).where('id', id).first('status', 'next_date'),
  );
}

/** Active recurring orders due on `today` or before, soonest first, at most `limit`. */
export async function dueRecurringOrders(executor: Executor, today: string, limit: number): Promise<RecurringRow[]> {
  return selectRows<RecurringRow>(
    executor(RECURRING_ORDERS)
      .where('status', 'active')
      .whereNotNull('next_date')
      .where('next_date', '<=', today)
      .orderBy('next_date')
      .orderBy('id')
      .limit(limit),
  );
}

/**
 * Moves the recurring order on from the status and next date it was read with (a conditional
 * write: 0 when another write came first), adding `occurrencesAdded` to its count when given.
 */
export async function moveOnFrom(
  executor: Executor,
  read: { id: string; status: string; nextDate: string | null },
  values: Record<string, unknown>,
  occurrencesAdded?: number,
): Promise<number> {
  return executor(RECURRING_ORDERS)
    .where({ id: read.id, status: read.status, next_date: read.nextDate })
    .update({
      ...values,
      ...(occurrencesAdded === undefined
        ? {}
        : { occurrence_count: executor.raw('?? + ?', ['occurrence_count', occurrencesAdded]) }),
    });
}

/** Writes `values` on the recurring order if its status is still `status`: 0 when a concurrent change came first. */
export async function updateIfStatus(
  executor: Executor,
  id: string,
  status: string,
  values: Record<string, unknown>,
): Promise<number> {
  return executor(RECURRING_ORDERS).where({ id, status }).update(values);
}

/** How many recurring orders the customer has. */
export async function recurringCountOf(executor: Executor, customerId: string): Promise<number> {
  const count = await selectRow<{ n: unknown }>(
    executor(RECURRING_ORDERS).where('customer_id', customerId).count({ n: '*' }).first(),
  );
  return readInt(count?.n);
}

/** A new recurring order (its columns as written) and its items. */
export async function insertRecurring(
  executor: Executor,
  row: Omit<RecurringRow, 'interval_count' | 'occurrence_count'> & { interval_count: number; occurrence_count: number },
  items: Array<Omit<ItemRow, 'quantity' | 'position' | 'last_unit_net'> & { quantity: number; position: number }>,
): Promise<void> {
  await executor(RECURRING_ORDERS).insert(row);
  await executor(RECURRING_ITEMS).insert(items.map((item) => ({ ...item, last_unit_net: null })));
}

/** The unit prices the items were last ordered at (what the next occurrence compares with). */
export async function rememberPrices(
  executor: Executor,
  lines: Array<{ lineItemId: string; unitNet: number }>,
): Promise<void> {
  for (const line of lines)
    await executor(RECURRING_ITEMS).where('id', line.lineItemId).update({ last_unit_net: line.unitNet });
}

/** The customer's recurring orders are gone with the customer (contract event). */
export async function deleteCustomersRecurringOrders(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(RECURRING_ORDERS).whereIn('customer_id', customerIds).delete();
}

/** A product list's items (product and quantity) in the list's order; the list is the customer's (product-list's `itemsQuery`). */
export async function productListItems(
  executor: Executor,
  customerId: string,
  listId: string,
): Promise<Array<{ product_id: string; quantity: unknown }>> {
  return selectRows<{ product_id: string; quantity: unknown }>(
    itemsQuery(executor, customerId)
      .where('items.product_list_id', listId)
      .orderBy('items.position')
      .select('items.product_id', 'items.quantity'),
  );
}
