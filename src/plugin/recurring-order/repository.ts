import type { Knex } from 'knex';
import { readInt, readJson, selectRow, selectRows, writeJson, type Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';
import type { IntervalUnit, Schedule } from './schedule.js';

export const RECURRING_ORDERS = 'suite_recurring_orders';
export const RECURRING_ITEMS = 'suite_recurring_order_items';
export const OCCURRENCES = 'suite_recurring_order_occurrences';

export type RecurringStatus = 'active' | 'paused' | 'cancelled' | 'ended';
export type OccurrenceStatus = 'placed' | 'approval' | 'failed' | 'skipped';

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
