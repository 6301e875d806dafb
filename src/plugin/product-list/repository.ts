import type { Knex } from 'knex';
import type { HostRuntime } from '../../contract/index.js';
import { forUpdate, readInt, readJson, selectRow, selectRows, type Executor, type Trx } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { fromDbTime, nowDb } from '../../lib/time.js';

export const LISTS = 'suite_product_lists';
export const ITEMS = 'suite_product_list_items';
const LIST_OWNERS = 'suite_product_list_owners';

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

/** The items of one of the customer's lists, for a criteria search (the search selects ITEM_COLUMNS). */
export function itemsOfListQuery(executor: Executor, customerId: string, listId: string): Knex.QueryBuilder {
  return itemsQuery(executor, customerId).where('items.product_list_id', listId);
}

/** One item of one of the customer's lists, or undefined. */
export async function findListItem(
  executor: Executor,
  customerId: string,
  itemId: string,
): Promise<ItemRow | undefined> {
  return selectRow<ItemRow>(itemsQuery(executor, customerId).where('items.id', itemId).first(ITEM_COLUMNS));
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

/**
 * The customer's row of suite_product_list_owners, on which list creation is serialised (never the
 * host's customer row). An idempotent insert, in its own statement before the transaction, so
 * concurrent first creates do not deadlock over a shared lock on the new key.
 */
export async function ensureListOwner(executor: Executor, customerId: string): Promise<void> {
  await executor(LIST_OWNERS)
    .insert({ customer_id: customerId, created_at: nowDb() })
    .onConflict('customer_id')
    .ignore();
}

/** Locks the customer's owner row until the transaction ends. */
export async function lockListOwner(trx: Trx, customerId: string): Promise<void> {
  await forUpdate(trx(LIST_OWNERS).where({ customer_id: customerId }).first('customer_id'), trx);
}

/** A new row of suite_product_lists. */
export type NewListRow = Omit<ListRow, 'updated_at'>;

export async function insertList(executor: Executor, row: NewListRow): Promise<void> {
  await executor(LISTS).insert(row);
}

export async function countListsOf(executor: Executor, customerId: string): Promise<number> {
  const [row] = await selectRows<{ n: unknown }>(executor(LISTS).where({ customer_id: customerId }).count({ n: '*' }));
  return readInt(row?.n);
}

/** Sets the list's updated_at to now. */
export async function touchList(executor: Executor, listId: string): Promise<void> {
  await executor(LISTS).where({ id: listId }).update({ updated_at: nowDb() });
}

export async function renameList(executor: Executor, listId: string, name: string): Promise<void> {
  await executor(LISTS).where({ id: listId }).update({ name });
}

/** Deletes the customer's list (its items go by foreign key); how many lists were deleted (0: none of the customer's). */
export async function deleteCustomerList(executor: Executor, customerId: string, listId: string): Promise<number> {
  return executor(LISTS).where({ id: listId, customer_id: customerId }).delete();
}

/** An item row as it is written. */
export interface NewItemRow {
  id: string;
  product_list_id: string;
  product_id: string;
  quantity: number;
  comment: string | null;
  position: number;
  custom_fields: string;
  created_at: string;
}

/** The columns of an item a change writes. */
export interface ItemChanges {
  quantity?: number;
  comment?: string | null;
  position?: number;
  custom_fields?: string;
  updated_at: string;
}

/** What addItems reads of an item row. */
export interface StoredItem {
  id: string;
  product_id: string;
  quantity: unknown;
}

export async function countItemsOf(executor: Executor, listId: string): Promise<number> {
  const [row] = await selectRows<{ n: unknown }>(executor(ITEMS).where({ product_list_id: listId }).count({ n: '*' }));
  return readInt(row?.n);
}

/** The list's items of these products. */
export async function itemsOfProducts(executor: Executor, listId: string, productIds: string[]): Promise<StoredItem[]> {
  return selectRows<StoredItem>(
    executor(ITEMS)
      .where({ product_list_id: listId })
      .whereIn('product_id', productIds)
      .select('id', 'product_id', 'quantity'),
  );
}

/** The highest position on the list, or null when it has no items. */
export async function maxItemPosition(executor: Executor, listId: string): Promise<number | null> {
  const [max] = await selectRows<{ p: unknown }>(
    executor(ITEMS).where({ product_list_id: listId }).max({ p: 'position' }),
  );
  return max?.p === null || max?.p === undefined ? null : readInt(max.p);
}

/** The ids among `itemIds` of items on the list. */
export async function itemIdsOnList(executor: Executor, listId: string, itemIds: string[]): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(
    executor(ITEMS).where({ product_list_id: listId }).whereIn('id', itemIds).select('id'),
  );
  return rows.map((row) => row.id);
}

export async function insertItems(executor: Executor, rows: NewItemRow | NewItemRow[]): Promise<void> {
  await executor(ITEMS).insert(rows);
}

export async function updateItem(executor: Executor, itemId: string, changes: ItemChanges): Promise<void> {
  await executor(ITEMS).where({ id: itemId }).update(changes);
}

export async function updateItemOnList(
  executor: Executor,
  listId: string,
  itemId: string,
  changes: ItemChanges,
): Promise<void> {
  await executor(ITEMS).where({ id: itemId, product_list_id: listId }).update(changes);
}

/** Deletes the list's items: the given ones, or all of them. */
export async function deleteListItems(executor: Executor, listId: string, itemIds?: string[]): Promise<void> {
  const query = executor(ITEMS).where({ product_list_id: listId });
  if (itemIds) query.whereIn('id', itemIds);
  await query.delete();
}

/** Takes the product off the list; how many items were deleted. */
export async function deleteProductFromList(executor: Executor, listId: string, productId: string): Promise<number> {
  return executor(ITEMS).where({ product_list_id: listId, product_id: productId }).delete();
}
