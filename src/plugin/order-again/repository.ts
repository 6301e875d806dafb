import type { Knex } from 'knex';
import type { CancelledOrder, PlacedOrder } from '../../contract/index.js';
import { forUpdate, readInt, selectRows, type Executor, type Trx } from '../../lib/db.js';
import { fromDbTime, nowDb, toDbTime } from '../../lib/time.js';

export const ORDERED = 'suite_ordered_products';
export const ASSORTMENTS = 'suite_assortments';

/** The product lines of an order summed per product. */
function quantitiesByProduct(order: PlacedOrder): Map<string, number> {
  const sums = new Map<string, number>();
  for (const line of order.lines)
    if (line.productId) sums.set(line.productId, (sums.get(line.productId) ?? 0) + line.quantity);
  return sums;
}

/**
 * Order placed (in its transaction): its products join the customer's assortment. The summary row
 * is made if missing and then changed by one conditional UPDATE, which reads the committed row under
 * its lock, so concurrent orders of the same customer both count. `last_quantity` is assigned before
 * `last_order_date` (MySQL applies SET assignments left to right; SQLite and PostgreSQL read the old row).
 */
export async function recordOrder(trx: Trx, order: PlacedOrder): Promise<void> {
  const date = nowDb();
  for (const [productId, quantity] of quantitiesByProduct(order)) {
    await trx(ORDERED)
      .insert({
        order_id: order.id,
        product_id: productId,
        customer_id: order.customerId,
        quantity,
        order_date: date,
        placed_by_type: order.actor.type,
        placed_by_id: order.actor.id,
      })
      .onConflict(['order_id', 'product_id'])
      .ignore();
    await trx(ASSORTMENTS)
      .insert({
        customer_id: order.customerId,
        product_id: productId,
        order_count: 0,
        total_quantity: 0,
        last_quantity: 0,
        last_order_date: date,
      })
      .onConflict(['customer_id', 'product_id'])
      .ignore();
    await trx(ASSORTMENTS)
      .where({ customer_id: order.customerId, product_id: productId })
      .update({
        order_count: trx.raw('order_count + 1'),
        total_quantity: trx.raw('total_quantity + ?', [quantity]),
        last_quantity: trx.raw('case when last_order_date <= ? then ? else last_quantity end', [date, quantity]),
        last_order_date: trx.raw('case when last_order_date <= ? then ? else last_order_date end', [date, date]),
      });
  }
}

/**
 * Order cancelled (in its transaction): its rows go; per product the count and total drop, the row
 * goes when no other order has the product, else its last order is read again (a locking read, so
 * on MySQL/MariaDB it sees what concurrent orders committed).
 */
export async function forgetOrder(trx: Trx, order: CancelledOrder): Promise<void> {
  const rows = await selectRows<{ product_id: string; quantity: unknown }>(
    forUpdate(trx(ORDERED).where({ order_id: order.id }).select('product_id', 'quantity'), trx),
  );
  if (rows.length === 0) return;
  await trx(ORDERED).where({ order_id: order.id }).delete();
  for (const row of rows) {
    const key = { customer_id: order.customerId, product_id: row.product_id };
    await trx(ASSORTMENTS)
      .where(key)
      .update({
        order_count: trx.raw('order_count - 1'),
        total_quantity: trx.raw('total_quantity - ?', [readInt(row.quantity)]),
      });
    const [last] = await selectRows<{ quantity: unknown; order_date: string | Date }>(
      forUpdate(
        trx(ORDERED)
          .where(key)
          .orderBy('order_date', 'desc')
          .orderBy('order_id', 'desc')
          .limit(1)
          .select('quantity', 'order_date'),
        trx,
      ),
    );
    if (!last) await trx(ASSORTMENTS).where(key).delete();
    else
      await trx(ASSORTMENTS)
        .where(key)
        .update({ last_quantity: readInt(last.quantity), last_order_date: toDbTime(fromDbTime(last.order_date)!) });
  }
}

export interface AssortmentRow {
  product_id: string;
  order_count: unknown;
  total_quantity: unknown;
  last_quantity: unknown;
  last_order_date: string | Date;
}

export interface FrequentRow {
  product_id: string;
  order_count: unknown;
  total_quantity: unknown;
  last_order_date: string | Date;
}

/** Whose orders a list reads: the company's, or only those one actor placed (decision 0045). */
export interface ListScope {
  customerId: string;
  placedBy?: { type: string; id: string };
}

/** Which of the scope's products a list shows: all, only these, or all but these (the caller's visibility). */
export type ProductNarrowing = { only: string[] } | { except: string[] } | null;

/** A window of order dates, [from, to] in storage form. */
export interface Window {
  from: string;
  to: string;
}

function narrowed(qb: Knex.QueryBuilder, narrowing: ProductNarrowing): Knex.QueryBuilder {
  if (!narrowing) return qb;
  return 'only' in narrowing ? qb.whereIn('product_id', narrowing.only) : qb.whereNotIn('product_id', narrowing.except);
}

/** The scope's ordered product rows (optionally within a window). */
function orderedRows(db: Executor, scope: ListScope, window?: Window): Knex.QueryBuilder {
  const qb = db(ORDERED).where({ customer_id: scope.customerId });
  if (scope.placedBy) qb.where({ placed_by_type: scope.placedBy.type, placed_by_id: scope.placedBy.id });
  if (window) qb.where('order_date', '>=', window.from).where('order_date', '<=', window.to);
  return qb;
}

/** The products a list could name (before visibility): the candidates the host is asked about. */
export async function listedProductIds(db: Executor, scope: ListScope, window?: Window): Promise<string[]> {
  const base =
    scope.placedBy || window
      ? orderedRows(db, scope, window)
      : db(ASSORTMENTS).where({ customer_id: scope.customerId });
  const rows = await selectRows<{ product_id: string }>(base.distinct('product_id'));
  return rows.map((row) => row.product_id);
}

/** Per product of the page, the quantity of the scope's latest order of it. */
async function lastQuantities(db: Executor, scope: ListScope, productIds: string[]): Promise<Map<string, number>> {
  const last = new Map<string, number>();
  if (productIds.length === 0) return last;
  const rows = await selectRows<{ product_id: string; quantity: unknown }>(
    orderedRows(db, scope)
      .whereIn('product_id', productIds)
      .orderBy('order_date', 'desc')
      .orderBy('order_id', 'desc')
      .select('product_id', 'quantity'),
  );
  for (const row of rows) if (!last.has(row.product_id)) last.set(row.product_id, readInt(row.quantity));
  return last;
}

/**
 * A page of "my assortment", the most recently ordered first: the company's from its summary
 * (index order of suite_assortments_list_idx), one actor's summed from their order rows.
 */
export async function assortmentPage(
  db: Executor,
  scope: ListScope,
  narrowing: ProductNarrowing,
  limit: number,
  offset: number,
): Promise<AssortmentRow[]> {
  if (!scope.placedBy)
    return selectRows<AssortmentRow>(
      narrowed(db(ASSORTMENTS).where({ customer_id: scope.customerId }), narrowing)
        .orderBy('last_order_date', 'desc')
        .orderBy('product_id', 'desc')
        .limit(limit)
        .offset(offset)
        .select('product_id', 'order_count', 'total_quantity', 'last_quantity', 'last_order_date'),
    );
  const rows = await selectRows<FrequentRow>(
    narrowed(orderedRows(db, scope), narrowing)
      .groupBy('product_id')
      .select(
        'product_id',
        db.raw('count(*) as order_count'),
        db.raw('sum(quantity) as total_quantity'),
        db.raw('max(order_date) as last_order_date'),
      )
      .orderBy('last_order_date', 'desc')
      .orderBy('product_id', 'desc')
      .limit(limit)
      .offset(offset),
  );
  const last = await lastQuantities(
    db,
    scope,
    rows.map((row) => row.product_id),
  );
  return rows.map((row) => ({ ...row, last_quantity: last.get(row.product_id) ?? 0 }));
}

export async function assortmentCount(db: Executor, scope: ListScope, narrowing: ProductNarrowing): Promise<number> {
  const base = scope.placedBy ? orderedRows(db, scope) : db(ASSORTMENTS).where({ customer_id: scope.customerId });
  const [row] = await selectRows<{ n: unknown }>(narrowed(base, narrowing).countDistinct({ n: 'product_id' }));
  return readInt(row?.n);
}

/** "Frequently ordered": per product the orders (and quantity) within the window, most orders first. */
export function frequentPage(
  db: Executor,
  scope: ListScope,
  window: Window,
  narrowing: ProductNarrowing,
  limit: number,
  offset: number,
) {
  return selectRows<FrequentRow>(
    narrowed(orderedRows(db, scope, window), narrowing)
      .groupBy('product_id')
      .select(
        'product_id',
        db.raw('count(*) as order_count'),
        db.raw('sum(quantity) as total_quantity'),
        db.raw('max(order_date) as last_order_date'),
      )
      .orderBy('order_count', 'desc')
      .orderBy('product_id')
      .limit(limit)
      .offset(offset),
  );
}

export async function frequentCount(
  db: Executor,
  scope: ListScope,
  window: Window,
  narrowing: ProductNarrowing,
): Promise<number> {
  const [row] = await selectRows<{ n: unknown }>(
    narrowed(orderedRows(db, scope, window), narrowing).countDistinct({ n: 'product_id' }),
  );
  return readInt(row?.n);
}

export async function forgetCustomers(trx: Trx, ids: string[]): Promise<void> {
  await trx(ORDERED).whereIn('customer_id', ids).delete();
  await trx(ASSORTMENTS).whereIn('customer_id', ids).delete();
}
