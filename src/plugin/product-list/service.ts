import type { HostRuntime, StoreContext } from '../../contract/index.js';
import { forUpdate, inTransaction, isForeignKeyError, readInt, writeJson, type Trx } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import { numberKey, productIdsByNumber, visibleProductsByNumber } from '../customer-product-number/index.js';
import {
  countItemsOf,
  countListsOf,
  deleteCustomerList,
  deleteListItems,
  deleteProductFromList,
  ensureListOwner,
  findList,
  insertItems,
  insertList,
  itemIdsOnList,
  itemsOfProducts,
  listView,
  lockListOwner,
  maxItemPosition,
  renameList,
  touchList,
  updateItem,
  updateItemOnList,
  type ListRow,
  type StoredItem,
} from './repository.js';
import {
  MAX_CUSTOM_FIELDS_CHARS,
  MAX_ITEMS_PER_LIST,
  MAX_LISTS_PER_CUSTOMER,
  MAX_QUANTITY,
  type createBody,
  type newItemsBody,
  type updateItemsBody,
} from './schemas.js';
import type { SchemaInput } from '../../lib/routes.js';
import { declaredCustomer } from '../declared.js';

/** An item to put on a list, and a change of an item: what the route bodies admit (their schemas' types). */
export type NewItem = SchemaInput<typeof newItemsBody>['items'][number];
export type ItemChange = SchemaInput<typeof updateItemsBody>['items'][number];

function checkCustomFields(value: Record<string, unknown> | undefined, pointer: string): void {
  if (value !== undefined && JSON.stringify(value).length > MAX_CUSTOM_FIELDS_CHARS)
    throw Errors.badRequest(
      'SUITE__CUSTOM_FIELDS_TOO_LARGE',
      `customFields may hold at most ${MAX_CUSTOM_FIELDS_CHARS} characters of JSON.`,
      { pointer },
    );
}

const productNotAvailable = (what: string, pointer: string) =>
  Errors.badRequest('SUITE__PRODUCT_NOT_AVAILABLE', `The product "${what}" is not available.`, { pointer });

/**
 * Product lists belong to the customer: every login of the company with product-list.manage sees
 * and changes the same lists. Each change locks the list row, so concurrent changes queue up.
 */
export class ProductListService {
  constructor(private readonly host: HostRuntime) {}

  private async withList<T>(
    ctx: StoreContext,
    listId: string,
    work: (trx: Trx, list: ListRow) => Promise<T>,
  ): Promise<T> {
    const customer = declaredCustomer(ctx);
    await ctx.ruleIds();
    return this.mapProductGone(() =>
      inTransaction(this.host.db, async (trx) => {
        await findList(trx, customer.id, listId, (q) => forUpdate(q, trx));
        await touchList(trx, listId);
        return work(trx, await findList(trx, customer.id, listId));
      }),
    );
  }

  /** A product deleted between the check and the write. */
  private async mapProductGone<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isForeignKeyError(error))
        throw Errors.badRequest('SUITE__PRODUCT_NOT_AVAILABLE', 'A product of the request is not available any more.', {
          pointer: '/items',
        });
      throw error;
    }
  }

  /** Product ids of new items (by id, shop number or customer number), only products the caller may see; else 400 at the item. */
  private async resolve(ctx: StoreContext, trx: Trx, items: NewItem[]): Promise<string[]> {
    const customerId = declaredCustomer(ctx).id;
    const numbers = items.flatMap((i) => (i.articleNumber ? [i.articleNumber] : []));
    const byShopNumber = await visibleProductsByNumber(this.host, ctx, numbers, trx);
    const byCustomerNumber = await productIdsByNumber(trx, customerId, numbers);
    const candidates = [...items.flatMap((i) => (i.productId ? [i.productId] : [])), ...byCustomerNumber.values()];
    const visible = new Set((await this.host.catalog.visibleProducts(trx, ctx, candidates)).map((p) => p.id));
    return items.map((item, index) => {
      checkCustomFields(item.customFields, `/items/${index}/customFields`);
      if (item.productId) {
        if (!visible.has(item.productId)) throw productNotAvailable(item.productId, `/items/${index}/productId`);
        return item.productId;
      }
      const number = item.articleNumber!.trim();
      const own = byCustomerNumber.get(numberKey(number));
      const id = byShopNumber.get(number) ?? (own && visible.has(own) ? own : undefined);
      if (!id) throw productNotAvailable(number, `/items/${index}/articleNumber`);
      return id;
    });
  }

  private async checkSize(trx: Trx, listId: string): Promise<void> {
    if ((await countItemsOf(trx, listId)) > MAX_ITEMS_PER_LIST)
      throw Errors.badRequest('SUITE__PRODUCT_LIST_FULL', `A product list holds at most ${MAX_ITEMS_PER_LIST} items.`, {
        pointer: '/items',
      });
  }

  /** Adds items; a product already on the list gets the quantity added and the given comment, position and custom fields. */
  private async addItems(ctx: StoreContext, trx: Trx, listId: string, items: NewItem[]): Promise<void> {
    const productIds = await this.resolve(ctx, trx, items);
    const existing = new Map<string, StoredItem>(
      (await itemsOfProducts(trx, listId, productIds)).map((row) => [row.product_id, row]),
    );
    const max = await maxItemPosition(trx, listId);
    let nextPosition = max === null ? 0 : max + 1;
    const now = nowDb();
    for (const [index, item] of items.entries()) {
      const productId = productIds[index]!;
      const current = existing.get(productId);
      if (current) {
        const quantity = readInt(current.quantity) + (item.quantity ?? 1);
        if (quantity > MAX_QUANTITY)
          throw Errors.badRequest(
            'SUITE__QUANTITY_LIMIT_EXCEEDED',
            `An item's quantity may be at most ${MAX_QUANTITY}.`,
            { pointer: `/items/${index}/quantity` },
          );
        const changes = {
          quantity,
          ...(item.comment !== undefined ? { comment: item.comment } : {}),
          ...(item.position !== undefined ? { position: item.position } : {}),
          ...(item.customFields !== undefined ? { custom_fields: writeJson(item.customFields) } : {}),
          updated_at: now,
        };
        await updateItem(trx, current.id, changes);
        existing.set(productId, { ...current, ...changes });
        continue;
      }
      const row = {
        id: newId(),
        product_list_id: listId,
        product_id: productId,
        quantity: item.quantity ?? 1,
        comment: item.comment ?? null,
        position: item.position ?? nextPosition++,
        custom_fields: writeJson(item.customFields ?? {}),
        created_at: now,
      };
      await insertItems(trx, row);
      existing.set(productId, row);
    }
    await this.checkSize(trx, listId);
  }

  async overviewName(trx: Trx, customerId: string): Promise<string> {
    const count = await countListsOf(trx, customerId);
    if (count >= MAX_LISTS_PER_CUSTOMER)
      throw Errors.badRequest(
        'SUITE__PRODUCT_LIST_LIMIT',
        `A customer may keep at most ${MAX_LISTS_PER_CUSTOMER} product lists.`,
      );
    return `Product list ${count + 1}`;
  }

  async create(ctx: StoreContext, input: SchemaInput<typeof createBody>) {
    const customer = declaredCustomer(ctx);
    await ctx.ruleIds();
    await ensureListOwner(this.host.db, customer.id);
    return this.mapProductGone(() =>
      inTransaction(this.host.db, async (trx) => {
        // Locks the customer's owner row so the list limit holds under concurrent creates.
        await lockListOwner(trx, customer.id);
        const fallbackName = await this.overviewName(trx, customer.id);
        const id = newId();
        await insertList(trx, {
          id,
          customer_id: customer.id,
          name: input.name?.trim() || fallbackName,
          type: input.type ?? null,
          created_by_type: ctx.actor.type,
          created_by_id: ctx.actor.id,
          created_at: nowDb(),
        });
        if (input.items?.length) await this.addItems(ctx, trx, id, input.items);
        return {
          success: true as const,
          productList: await listView(this.host, trx, await findList(trx, customer.id, id)),
        };
      }),
    );
  }

  async add(ctx: StoreContext, listId: string, items: NewItem[]) {
    return this.withList(ctx, listId, async (trx, list) => {
      await this.addItems(ctx, trx, list.id, items);
      return { success: true as const, productList: await listView(this.host, trx, list) };
    });
  }

  /** Replaces all items by the given ones (positions as given, else in the given order). */
  async replace(ctx: StoreContext, listId: string, items: NewItem[]) {
    return this.withList(ctx, listId, async (trx, list) => {
      const productIds = await this.resolve(ctx, trx, items);
      const seen = new Map<string, number>();
      productIds.forEach((productId, index) => {
        if (seen.has(productId))
          throw Errors.badRequest(
            'SUITE__PRODUCT_LIST_DUPLICATE_PRODUCT',
            `The product of item ${index} is item ${seen.get(productId)} already.`,
            { pointer: `/items/${index}` },
          );
        seen.set(productId, index);
      });
      await deleteListItems(trx, list.id);
      const now = nowDb();
      const rows = items.map((item, index) => ({
        id: newId(),
        product_list_id: list.id,
        product_id: productIds[index]!,
        quantity: item.quantity ?? 1,
        comment: item.comment ?? null,
        position: item.position ?? index,
        custom_fields: writeJson(item.customFields ?? {}),
        created_at: now,
      }));
      for (let i = 0; i < rows.length; i += 200) await insertItems(trx, rows.slice(i, i + 200));
      return { success: true as const, productList: await listView(this.host, trx, list) };
    });
  }

  async update(ctx: StoreContext, listId: string, changes: ItemChange[]) {
    return this.withList(ctx, listId, async (trx, list) => {
      const present = new Set(
        await itemIdsOnList(
          trx,
          list.id,
          changes.map((c) => c.id),
        ),
      );
      const now = nowDb();
      for (const [index, change] of changes.entries()) {
        if (!present.has(change.id)) throw Errors.notFound('Product list item', change.id);
        checkCustomFields(change.customFields, `/items/${index}/customFields`);
        await updateItemOnList(trx, list.id, change.id, {
          ...(change.quantity !== undefined ? { quantity: change.quantity } : {}),
          ...(change.comment !== undefined ? { comment: change.comment } : {}),
          ...(change.position !== undefined ? { position: change.position } : {}),
          ...(change.customFields !== undefined ? { custom_fields: writeJson(change.customFields) } : {}),
          updated_at: now,
        });
      }
      return { success: true as const, productList: await listView(this.host, trx, list) };
    });
  }

  async removeItems(ctx: StoreContext, listId: string, ids: string[]) {
    return this.withList(ctx, listId, async (trx, list) => {
      const unique = [...new Set(ids)];
      const present = new Set(await itemIdsOnList(trx, list.id, unique));
      const missing = unique.find((id) => !present.has(id));
      if (missing) throw Errors.notFound('Product list item', missing);
      await deleteListItems(trx, list.id, unique);
      return { success: true as const, productList: await listView(this.host, trx, list) };
    });
  }

  async removeProduct(ctx: StoreContext, listId: string, productId: string) {
    return this.withList(ctx, listId, async (trx, list) => {
      const deleted = await deleteProductFromList(trx, list.id, productId);
      if (deleted === 0) throw Errors.notFound('Product on the list', productId);
      return { success: true as const, productList: await listView(this.host, trx, list) };
    });
  }

  async rename(ctx: StoreContext, listId: string, name: string) {
    return this.withList(ctx, listId, async (trx, list) => {
      await renameList(trx, list.id, name.trim());
      return listView(this.host, trx, { ...list, name: name.trim() });
    });
  }

  async remove(ctx: StoreContext, listId: string): Promise<void> {
    const customer = declaredCustomer(ctx);
    const deleted = await deleteCustomerList(this.host.db, customer.id, listId);
    if (deleted === 0) throw Errors.notFound('Product list', listId);
  }
}
