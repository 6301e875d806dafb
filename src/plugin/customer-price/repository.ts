import { readInt, type Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';

export const CUSTOMER_PRICES = 'suite_customer_prices';
/** The Admin API speaks money with two decimals, as the host's Admin API does for product prices. */
export const ADMIN_MONEY_PRECISION = 2;

export type PriceScope = 'customer' | 'customerGroup';

export interface CustomerPriceRecord {
  id: string;
  customerId: string | null;
  customerGroupId: string | null;
  productId: string;
  minQuantity: number;
  /** net unit price, minor units */
  priceNet: number;
  createdAt: string;
  updatedAt: string | null;
}

export function toRecord(row: Record<string, any>): CustomerPriceRecord {
  return {
    id: row.id,
    customerId: row.customer_id ?? null,
    customerGroupId: row.customer_group_id ?? null,
    productId: row.product_id,
    minQuantity: readInt(row.min_quantity),
    priceNet: readInt(row.price_net),
    createdAt: fromDbTime(row.created_at)!,
    updatedAt: fromDbTime(row.updated_at),
  };
}

/** The price row for a quantity: the highest minimum quantity not above it, of one customer or one group. */
export async function priceFor(executor: Executor, scope: PriceScope, scopeId: string, productId: string, quantity: number): Promise<number | null> {
  const row = await executor(CUSTOMER_PRICES)
    .where(scope === 'customer' ? 'customer_id' : 'customer_group_id', scopeId)
    .where('product_id', productId)
    .where('min_quantity', '<=', quantity)
    .orderBy('min_quantity', 'desc')
    .first('price_net');
  return row ? readInt(row.price_net) : null;
}

/** Whether a customer and its group have any price at all (one cheap query saves one per product for most customers). */
export async function pricesPresent(executor: Executor, customerId: string, groupId: string | null): Promise<{ customer: boolean; group: boolean }> {
  const exists = (column: string, value: string) => executor(CUSTOMER_PRICES).where(column, value).select(executor.raw('1')).limit(1);
  const row = await executor
    .select({ c: exists('customer_id', customerId), g: groupId ? exists('customer_group_id', groupId) : executor.raw('NULL') })
    .first();
  return { customer: row?.c !== null && row?.c !== undefined, group: row?.g !== null && row?.g !== undefined };
}

/** Minimum quantities at which a customer's (or its group's) price changes, per product: the breakpoints of a tier table. */
export async function priceBreakpoints(executor: Executor, customerId: string, groupId: string | null, productIds: string[]): Promise<Map<string, number[]>> {
  const result = new Map<string, number[]>();
  if (productIds.length === 0) return result;
  const rows = await executor(CUSTOMER_PRICES)
    .whereIn('product_id', productIds)
    .where((q) => {
      q.where('customer_id', customerId);
      if (groupId) q.orWhere('customer_group_id', groupId);
    })
    .select('product_id', 'min_quantity');
  for (const row of rows) result.set(row.product_id, [...(result.get(row.product_id) ?? []), readInt(row.min_quantity)]);
  return result;
}

/** Customers, customer groups or products were deleted by the host (contract events): their prices go with them. */
export async function deletePricesOf(executor: Executor, column: 'customer_id' | 'customer_group_id' | 'product_id', ids: string[]): Promise<void> {
  await executor(CUSTOMER_PRICES).whereIn(column, ids).delete();
}
