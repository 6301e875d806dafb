import type { CancelledOrder, PlacedOrder } from '../../host/contract.js';
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
      .insert({ order_id: order.id, product_id: productId, customer_id: order.customerId, quantity, order_date: date })
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

/** A page of "my assortment": the most recently ordered first (index order of suite_assortments_list_idx). */
export function assortmentPage(db: Executor, customerId: string, limit: number, offset: number) {
  return selectRows<AssortmentRow>(
    db(ASSORTMENTS)
      .where({ customer_id: customerId })
      .orderBy('last_order_date', 'desc')
      .orderBy('product_id', 'desc')
      .limit(limit)
      .offset(offset)
      .select('product_id', 'order_count', 'total_quantity', 'last_quantity', 'last_order_date'),
  );
}

export async function assortmentCount(db: Executor, customerId: string): Promise<number> {
  const [row] = await selectRows<{ n: unknown }>(db(ASSORTMENTS).where({ customer_id: customerId }).count({ n: '*' }));
  return readInt(row?.n);
}

export interface FrequentRow {
  product_id: string;
  order_count: unknown;
  total_quantity: unknown;
  last_order_date: string | Date;
}

/** "Frequently ordered": per product the orders (and quantity) within [from, to], most orders first. */
export function frequentPage(
  db: Executor,
  customerId: string,
  from: string,
  to: string,
  limit: number,
  offset: number,
) {
  return selectRows<FrequentRow>(
    db(ORDERED)
      .where({ customer_id: customerId })
      .where('order_date', '>=', from)
      .where('order_date', '<=', to)
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

export async function forgetCustomers(trx: Trx, ids: string[]): Promise<void> {
  await trx(ORDERED).whereIn('customer_id', ids).delete();
  await trx(ASSORTMENTS).whereIn('customer_id', ids).delete();
}
