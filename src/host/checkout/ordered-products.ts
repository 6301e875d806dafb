import { readInt, selectRows, type Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';
import type { HostRuntime, OrderedProduct } from '../../contract/index.js';

/** orders.orderedProductIds: per product of a customer's orders (cancelled orders excluded), the last order date, the quantity and the number of orders. */
export const orderedProductIds: HostRuntime['orders']['orderedProductIds'] = async (
  executor: Executor,
  { customerId, placedBy, limit },
): Promise<OrderedProduct[]> => {
  const query = executor('order_line_items as oli')
    .join('orders', 'orders.id', 'oli.order_id')
    .where('orders.customer_id', customerId)
    .whereNot('orders.state', 'cancelled')
    .whereNotNull('oli.product_id')
    .groupBy('oli.product_id')
    .select(
      'oli.product_id',
      executor.raw('MAX(orders.order_date) as last_order_date'),
      executor.raw('SUM(oli.quantity) as total_quantity'),
      executor.raw('COUNT(DISTINCT orders.id) as order_count'),
    )
    .orderBy('last_order_date', 'desc')
    .orderBy('oli.product_id')
    .limit(Math.max(0, Math.floor(limit)));
  if (placedBy) query.where('orders.placed_by_type', placedBy.type).where('orders.placed_by_id', placedBy.id);
  const rows = await selectRows<{
    product_id: string;
    last_order_date: string | Date;
    total_quantity: unknown;
    order_count: unknown;
  }>(query);
  return rows.map((row) => ({
    productId: row.product_id,
    lastOrderDate: fromDbTime(row.last_order_date)!,
    totalQuantity: readInt(row.total_quantity),
    orderCount: readInt(row.order_count),
  }));
};
