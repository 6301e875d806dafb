import type { Knex } from 'knex';
import type { HostRuntime, StoreContext } from '../../host/contract.js';
import type { Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';

export const CUSTOMER_PRODUCT_NUMBERS = 'suite_customer_product_numbers';
const CHUNK = 500;

/** Customer product numbers compare trimmed and case-insensitively. */
export function numberKey(value: string): string {
  return value.trim().toLowerCase();
}

export function toView(row: Record<string, any>) {
  return {
    id: String(row.id),
    productId: String(row.product_id),
    productNumber: String(row.catalog_product_number),
    productName: String(row.product_name),
    customerProductNumber: String(row.product_number),
    createdAt: fromDbTime(row.created_at)!,
    updatedAt: fromDbTime(row.updated_at),
  };
}

/** The customer's numbers joined to the products they name, only products the context may see. */
export async function visibleNumbersQuery(host: HostRuntime, ctx: StoreContext, customerId: string, executor: Executor = host.db): Promise<{ query: Knex.QueryBuilder }> {
  const query = executor(`${CUSTOMER_PRODUCT_NUMBERS} as cpn`)
    .join('products', 'products.id', 'cpn.product_id')
    .where('cpn.customer_id', customerId)
    .where('products.active', true);
  await host.catalog.applyVisibility(ctx, 'product', query, 'products.id');
  return { query };
}

export const VIEW_COLUMNS = ['cpn.id', 'cpn.product_id', 'cpn.product_number', 'cpn.created_at', 'cpn.updated_at', 'products.product_number as catalog_product_number', 'products.name as product_name'];

export async function numbersOf(executor: Executor, customerId: string, productIds: string[]): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  const unique = [...new Set(productIds)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await executor(CUSTOMER_PRODUCT_NUMBERS).where('customer_id', customerId).whereIn('product_id', unique.slice(i, i + CHUNK)).select('product_id', 'product_number');
    for (const row of rows) result.set(row.product_id, row.product_number);
  }
  return result;
}

/** Product ids by customer product number key. */
export async function productIdsByNumber(executor: Executor, customerId: string, numbers: string[]): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  const keys = [...new Set(numbers.map(numberKey).filter(Boolean))];
  for (let i = 0; i < keys.length; i += CHUNK) {
    const rows = await executor(CUSTOMER_PRODUCT_NUMBERS).where('customer_id', customerId).whereIn('number_key', keys.slice(i, i + CHUNK)).select('number_key', 'product_id');
    for (const row of rows) result.set(row.number_key, row.product_id);
  }
  return result;
}

/**
 * Visible, active products by catalog product number: an exact match first, else one that differs
 * only in case (numbers are looked up as typed, upper- and lower-cased, so the unique index serves).
 */
export async function visibleProductsByNumber(host: HostRuntime, ctx: StoreContext, numbers: string[], executor: Executor = host.db): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  const wanted = [...new Set(numbers.map((n) => n.trim()).filter(Boolean))];
  const variants = [...new Set(wanted.flatMap((n) => [n, n.toUpperCase(), n.toLowerCase()]))];
  const found = new Map<string, string>();
  for (let i = 0; i < variants.length; i += CHUNK) {
    const query = executor('products').whereIn('products.product_number', variants.slice(i, i + CHUNK)).where('products.active', true);
    await host.catalog.applyVisibility(ctx, 'product', query, 'products.id');
    for (const row of await query.select('products.id', 'products.product_number')) found.set(row.product_number, row.id);
  }
  for (const number of wanted) {
    const id = found.get(number) ?? found.get(number.toUpperCase()) ?? found.get(number.toLowerCase());
    if (id) result.set(number, id);
  }
  return result;
}
