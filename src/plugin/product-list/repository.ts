import type { Knex } from 'knex';
import type { HostRuntime } from '../../host/contract.js';
import { readInt, readJson, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { fromDbTime } from '../../lib/time.js';

export const LISTS = 'suite_product_lists';
export const ITEMS = 'suite_product_list_items';

export const ITEM_COLUMNS = [
  'items.id',
  'items.product_id',
  'items.quantity',
  'items.comment',
  'items.position',
  'items.custom_fields',
];

/** What ITEM_COLUMNS select of an item row. */
export interface ItemRow {
  id: string;
  product_id: string;
  quantity: unknown;
  comment: string | null;
  position: unknown;
  custom_fields: unknown;
}

/** A row of suite_product_lists. */
export interface ListRow {
  id: string;
  customer_id: string;
  name: string;
  type: string | null;
  created_by_type: string;
  created_by_id: string | null;
  created_at: string;
  updated_at: string | null;
}

export function itemView(row: ItemRow, articleNumber: string) {
  return {
    id: row.id,
    articleNumber,
    productId: row.product_id,
    comment: row.comment ?? null,
    position: readInt(row.position),
    quantity: readInt(row.quantity),
    customFields: readJson<Record<string, unknown>>(row.custom_fields, {}),
  };
}

/** Items of the customer's lists (tenant scope through the list). */
export function itemsQuery(executor: Executor, customerId: string): Knex.QueryBuilder {
  return executor(`${ITEMS} as items`)
    .join(`${LISTS} as lists`, 'lists.id', 'items.product_list_id')
    .where('lists.customer_id', customerId);
}

/** Item rows → views, with the products' numbers read from the host in one call; items of products the host no longer has are left out. */
export async function itemViews(host: HostRuntime, executor: Executor, rows: ItemRow[]) {
  const numbers = new Map(
    (
      await host.catalog.products(
        executor,
        rows.map((row) => row.product_id),
      )
    ).map((p) => [p.id, p.productNumber]),
  );
  return rows.filter((row) => numbers.has(row.product_id)).map((row) => itemView(row, numbers.get(row.product_id)!));
}

/** The customer's list, or 404 (also for another customer's list). */
export async function findList(
  executor: Executor,
  customerId: string,
  id: string,
  lock?: (q: Knex.QueryBuilder) => Knex.QueryBuilder,
): Promise<ListRow> {
  const query = executor(LISTS).where({ id, customer_id: customerId }).first();
  const row = await selectRow<ListRow>(lock ? lock(query) : query);
  if (!row) throw Errors.notFound('Product list', id);
  return row;
}

function summary(row: ListRow, itemCount: number) {
  return {
    id: row.id,
    name: row.name,
    type: row.type ?? null,
    itemCount,
    createdBy: { type: row.created_by_type, id: row.created_by_id ?? null },
    createdAt: fromDbTime(row.created_at)!,
    updatedAt: fromDbTime(row.updated_at),
  };
}

export async function listView(host: HostRuntime, executor: Executor, list: ListRow) {
  const rows = await selectRows<ItemRow>(
    itemsQuery(executor, list.customer_id)
      .where('items.product_list_id', list.id)
      .orderBy('items.position')
      .orderBy('items.id')
      .select(ITEM_COLUMNS),
  );
  const items = await itemViews(host, executor, rows);
  return { ...summary(list, items.length), items };
}

export async function listSummaries(
  executor: Executor,
  customerId: string,
  limit: number,
  page: number,
  type?: string,
) {
  const owned = { customer_id: customerId, ...(type === undefined ? {} : { type }) };
  const [count] = await selectRows<{ n: unknown }>(executor(LISTS).where(owned).count({ n: '*' }));
  const rows = await selectRows<ListRow & { item_count: unknown }>(
    executor(LISTS)
      .where(owned)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .offset((page - 1) * limit)
      .select(
        '*',
        executor(ITEMS)
          .count('*')
          .whereRaw('?? = ??', [`${ITEMS}.product_list_id`, `${LISTS}.id`])
          .as('item_count'),
      ),
  );
  return { total: readInt(count?.n), data: rows.map((row) => summary(row, readInt(row.item_count))) };
}

/** The customers were deleted by the host (contract event): their lists (and items, by foreign key) go with them. */
export async function deleteCustomersLists(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(LISTS).whereIn('customer_id', customerIds).delete();
}

/** The products were deleted by the host (contract event): they leave every list. */
export async function deleteProductsFromLists(executor: Executor, productIds: string[]): Promise<void> {
  await executor(ITEMS).whereIn('product_id', productIds).delete();
}
