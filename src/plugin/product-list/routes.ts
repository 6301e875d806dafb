import { defineStoreRoute, type HostRuntime } from '../../contract/index.js';
import { DEFAULT_LIMIT, searchByCriteria } from '../../lib/criteria.js';
import { Errors } from '../../lib/errors.js';
import { pathParams, successResponse } from '../../lib/schemas.js';
import { narrowByProductFields } from '../product-fields.js';
import {
  findList,
  findListItem,
  ITEM_COLUMNS,
  itemsOfListQuery,
  itemViews,
  listSummaries,
  listView,
  type ItemRow,
} from './repository.js';
import {
  changedResponse,
  createBody,
  createdResponse,
  deleteItemsBody,
  itemCriteriaBody,
  itemCriteriaSpec,
  itemProductFields,
  itemList,
  itemSchema,
  listSchema,
  listsResponse,
  newItemsBody,
  overviewBody,
  replaceItemsBody,
  TAG,
  updateItemsBody,
  updateListBody,
} from './schemas.js';
import type { ProductListService } from './service.js';
import { storeList } from '../../lib/store-list.js';
import { declaredCustomer } from '../declared.js';

const MANAGE = 'product-list.manage';
const common = { tags: [TAG], auth: 'login' as const, needsCustomer: true, permission: MANAGE };
const listParams = pathParams('id');
/** The product list routes: changing a list's items, the lists themselves, reading items. */
export function productListRoutes(host: HostRuntime, service: ProductListService) {
  // In this order: `GET /product-lists/create` before `GET /product-lists/{id}`, which would take "create" for an id.
  return [...itemChangeRoutes(service), ...listRoutes(host, service), ...itemReadRoutes(host)];
}

/** Adding, replacing, changing and removing the items of a list. */
function itemChangeRoutes(service: ProductListService) {
  return [
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/product-lists/{id}/items',
      operationId: 'addProductListItems',
      summary:
        'Adds items (by productId, or articleNumber: a shop or customer product number); a product already on the list gets the quantity added.',
      schemas: { params: listParams, body: newItemsBody, responses: { 200: changedResponse } },
      handler: ({ ctx, params, body }) => service.add(ctx, params.id, body.items),
    }),
    defineStoreRoute({
      ...common,
      method: 'PUT',
      path: '/product-lists/{id}/items',
      operationId: 'replaceProductListItems',
      summary: 'Replaces all items of the list by the given ones (an empty array empties it).',
      schemas: { params: listParams, body: replaceItemsBody, responses: { 200: changedResponse } },
      handler: ({ ctx, params, body }) => service.replace(ctx, params.id, body.items),
    }),
    defineStoreRoute({
      ...common,
      method: 'PATCH',
      path: '/product-lists/{id}/items',
      operationId: 'updateProductListItems',
      summary: 'Changes quantity, comment, position or custom fields of items of the list (by item id).',
      schemas: { params: listParams, body: updateItemsBody, responses: { 200: changedResponse } },
      handler: ({ ctx, params, body }) => service.update(ctx, params.id, body.items),
    }),
    defineStoreRoute({
      ...common,
      method: 'DELETE',
      path: '/product-lists/{id}/items',
      operationId: 'deleteProductListItems',
      summary: 'Removes items from the list (by item id); an id not on the list is a 404 and removes nothing.',
      schemas: { params: listParams, body: deleteItemsBody, responses: { 200: changedResponse } },
      handler: ({ ctx, params, body }) =>
        service.removeItems(
          ctx,
          params.id,
          body.items.map((i) => i.id),
        ),
    }),
    defineStoreRoute({
      ...common,
      method: 'DELETE',
      path: '/product-lists/{id}/product/{productId}',
      operationId: 'deleteProductListProduct',
      summary: 'Removes a product from the list.',
      schemas: { params: pathParams('id', 'productId'), responses: { 200: changedResponse } },
      handler: ({ ctx, params }) => service.removeProduct(ctx, params.id, params.productId),
    }),
  ];
}

/** The lists: creating, listing, reading, renaming and deleting them. */
function listRoutes(host: HostRuntime, service: ProductListService) {
  return [
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/product-lists/create',
      operationId: 'prepareProductListCreate',
      summary:
        "Whether the caller may create product lists: the spec's success response (the lists themselves: POST /product-lists).",
      schemas: { responses: { 200: successResponse } },
      handler: () => Promise.resolve({ success: true }),
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/product-lists',
      operationId: 'listProductLists',
      summary:
        "The customer's product lists (what a 'create list / add to list' dialog shows), oldest first, with their item counts; optionally of one type.",
      schemas: { body: overviewBody, responses: { 200: listsResponse } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const limit = body.limit ?? DEFAULT_LIMIT;
        const page = body.page ?? 1;
        const lists = await listSummaries(host.db, customer.id, limit, page, body.type);
        return storeList(lists.data, { total: lists.total, page, limit });
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/product-lists/create',
      operationId: 'createProductList',
      summary: 'Creates a product list for the customer (name optional: "Product list n"), optionally with items.',
      schemas: { body: createBody, responses: { 200: createdResponse } },
      async handler({ ctx, body }) {
        const created = await service.create(ctx, body);
        return { ...created, id: created.productList.id };
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/product-lists/{id}',
      operationId: 'readProductList',
      summary: 'A product list with its items in position order.',
      schemas: { params: listParams, responses: { 200: listSchema } },
      async handler({ ctx, params }) {
        const customer = declaredCustomer(ctx);
        return listView(host, host.db, await findList(host.db, customer.id, params.id));
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'DELETE',
      path: '/product-lists/{id}',
      operationId: 'deleteProductList',
      summary: 'Deletes a product list and its items.',
      schemas: { params: listParams, responses: { 200: successResponse } },
      async handler({ ctx, params }) {
        await service.remove(ctx, params.id);
        return { success: true };
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'PATCH',
      path: '/product-lists/{id}',
      operationId: 'updateProductList',
      summary: 'Renames a product list; answers the list.',
      schemas: { params: listParams, body: updateListBody, responses: { 200: listSchema } },
      handler: ({ ctx, params, body }) => service.rename(ctx, params.id, body.name),
    }),
  ];
}

/** Reading items: a list's items by criteria, one item of any of the customer's lists. */
function itemReadRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/product-list/{id}/items',
      operationId: 'searchProductListItems',
      summary: 'The items of a list, searched by criteria (term: article number, product name, comment).',
      schemas: { params: listParams, body: itemCriteriaBody, responses: { 200: itemList } },
      async handler({ ctx, params, body }) {
        const customer = declaredCustomer(ctx);
        const list = await findList(host.db, customer.id, params.id);
        const base = itemsOfListQuery(host.db, customer.id, list.id);
        const narrowed = await narrowByProductFields(host, null, base, body, itemCriteriaSpec, itemProductFields);
        const page = await searchByCriteria<ItemRow>(base, narrowed.criteria, itemCriteriaSpec, (qb) =>
          narrowed.order(qb.select(ITEM_COLUMNS)),
        );
        return storeList(await itemViews(host, host.db, page.rows), page);
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/product-list-item/{id}',
      operationId: 'readProductListItem',
      summary: 'One item of one of the customer’s product lists.',
      schemas: { params: listParams, responses: { 200: itemSchema } },
      async handler({ ctx, params }) {
        const customer = declaredCustomer(ctx);
        const row = await findListItem(host.db, customer.id, params.id);
        const [view] = row ? await itemViews(host, host.db, [row]) : [];
        if (!view) throw Errors.notFound('Product list item', params.id);
        return view;
      },
    }),
  ];
}
