import type { AbandonedCart } from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { fromDbTime, toDbTime } from '../../lib/time.js';
import { LINE_COLUMNS, toLineItem, type LineColumns } from './cart-service.js';

interface IdleCartRow {
  token: string;
  customer_id: string;
  actor_type: string | null;
  actor_id: string | null;
  updated_at: string | Date;
}

/**
 * Open carts (no order) of the customers with at least one line, untouched since `idleSince`. A
 * cart's updated_at is touched at most once a minute (cart-service), precise enough for hours of idleness.
 */
export async function abandonedCarts(
  executor: Executor,
  customerIds: string[],
  idleSince: Date,
  limit: number,
): Promise<AbandonedCart[]> {
  if (customerIds.length === 0 || limit <= 0) return [];
  const carts: IdleCartRow[] = await executor('carts as c')
    .whereIn('c.customer_id', customerIds)
    .whereNull('c.order_id')
    .where('c.updated_at', '<', toDbTime(idleSince))
    .whereExists(executor('cart_line_items as l').select(executor.raw('1')).whereRaw('l.cart_token = c.token'))
    .orderBy('c.updated_at', 'desc')
    .orderBy('c.token', 'desc')
    .limit(limit)
    .select('c.token', 'c.customer_id', 'c.actor_type', 'c.actor_id', 'c.updated_at');
  if (carts.length === 0) return [];
  const lines: Array<LineColumns & { cart_token: string }> = await executor('cart_line_items')
    .whereIn(
      'cart_token',
      carts.map((cart) => cart.token),
    )
    .orderBy('position')
    .orderBy('id')
    .select('cart_token', ...LINE_COLUMNS);
  return carts.map((cart) => ({
    token: cart.token,
    customerId: cart.customer_id,
    actor: cart.actor_type && cart.actor_id ? { type: cart.actor_type, id: cart.actor_id } : null,
    updatedAt: fromDbTime(cart.updated_at) ?? '',
    lineItems: lines.filter((line) => line.cart_token === cart.token).map(toLineItem),
  }));
}
