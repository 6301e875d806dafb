import type { Knex } from 'knex';
import type { HostRuntime } from '../../host/contract.js';
import { readInt, readJson, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { fromDbTime } from '../../lib/time.js';

export const LISTS = 'suite_product_lists';
export const ITEMS = 'suite_product_list_items';

export const ITEM_COLUMNS = ['items.id', 'items.product_id', 'items.quantity', 'items.comment', 'items.position', 'items.custom_fields'];

export function itemView(row: Record<string, any>, articleNumber: string) {
  return {
    id: String(row.id),
    articleNumber,
    productId: String(row.product_id),
    comment: (row.comment as string | null) ?? null,
    position: readInt(row.position),
    quantity: readInt(row.quantity),
    customFields: readJson<Record<string, unknown>>(row.custom_fields, {}),
  };
}

/** Items of the customer's lists (tenant scope through the list). */
export function itemsQuery(executor: Executor, customerId: string): Knex.QueryBuilder {
  return executor(`${ITEMS} as items`).join(`${LISTS} as lists`, 'lists.id', 'items.product_list_id').where('lists.customer_id', customerId);
}

/** Item rows → views, with the products' numbers read from the host in one call; items of products the host no longer has are left out. */
export async function itemViews(host: HostRuntime, executor: Executor, rows: Array<Record<string, any>>) {
  const numbers = new Map((await host.catalog.products(executor, rows.map((row) => String(row.product_id)))).map((p) => [p.id, p.productNumber]));
  return rows.filter((row) => numbers.has(String(row.product_id))).map((row) => itemView(row, numbers.get(String(row.product_id))!));
}

/** The customer's list, or 404 (also for another customer's list). */
export async function findList(executor: Executor, customerId: string, id: string, lock?: (q: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<Record<string, any>> {
  const query = executor(LISTS).where({ id, customer_id: customerId }).first();
  const row = await (lock ? lock(query) : query);
  if (!row) throw Errors.notFound('Product list', id);
  return row;
}

function summary(row: Record<string, any>, itemCount: number) {
  return {
    id: String(row.id),
    name: String(row.name),
    type: (row.type as string | null) ?? null,
    itemCount,
    createdBy: { type: String(row.created_by_type), id: (row.created_by_id as string | null) ?? null },
    createdAt: fromDbTime(row.created_at)!,
    updatedAt: fromDbTime(row.updated_at),
  };
}

export async function listView(host: HostRuntime, executor: Executor, list: Record<string, any>) {
  const rows = await itemsQuery(executor, list.customer_id).where('items.product_list_id', list.id).orderBy('items.position').orderBy('items.id').select(ITEM_COLUMNS);
  const items = await itemViews(host, executor, rows);
  return { ...summary(list, items.length), items };
}

export async function listSummaries(executor: Executor, customerId: string, limit: number, page: number, type?: string) {
  const owned = { customer_id: customerId, ...(type === undefined ? {} : { type }) };
  const [count] = await executor(LISTS).where(owned).count({ n: '*' });
  const rows = await executor(LISTS)
    .where(owned)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .offset((page - 1) * limit)
    .select('*', executor(ITEMS).count('*').whereRaw('?? = ??', [`${ITEMS}.product_list_id`, `${LISTS}.id`]).as('item_count'));
  return { total: readInt(count?.n), data: rows.map((row: Record<string, any>) => summary(row, readInt(row.item_count))) };
}

/** The customers were deleted by the host (contract event): their lists (and items, by foreign key) go with them. */
export async function deleteCustomersLists(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(LISTS).whereIn('customer_id', customerIds).delete();
}

/** The products were deleted by the host (contract event): they leave every list. */
export async function deleteProductsFromLists(executor: Executor, productIds: string[]): Promise<void> {
  await executor(ITEMS).whereIn('product_id', productIds).delete();
}
