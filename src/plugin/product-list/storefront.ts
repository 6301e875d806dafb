import type { HostRuntime, ProductRecord, StoreContext, StorefrontPage } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { isId } from '../../lib/ids.js';
import { fastOrderRoutes } from '../fast-order/index.js';
import type { SchemaInput } from '../../lib/routes.js';
import {
  attempt,
  dateText,
  noticeOf,
  page,
  routeCaller,
  routesByName,
  text,
  wholeNumber,
  type PageResult,
  type PageApi,
} from '../storefront-kit.js';
import { productListRoutes } from './routes.js';
import { MAX_LISTS_PER_CUSTOMER, MAX_QUANTITY, type listSummarySchema } from './schemas.js';
import type { ProductListService } from './service.js';

type Api = PageApi<typeof productListRoutes | typeof fastOrderRoutes>;

const LISTS_PATH = '/account/product-lists';
/** Linked from the product page (?productId=) and the cart (?fromCart=1): choose a list, or name a new one. */
const ADD_PATH = `${LISTS_PATH}/add`;
const MANAGE = 'product-list.manage';
const listPath = (id: string) => `${LISTS_PATH}/${id}`;

/** What the pages read of the Store API's answers (the response schemas' types). */
type ListSummary = SchemaInput<typeof listSummarySchema>;

const NOTICES: Record<string, string> = {
  created: 'The product list was created.',
  added: 'The product was put on the list.',
  saved: 'The list was saved.',
  removed: 'The product was taken off the list.',
  deleted: 'The product list was deleted.',
  'from-cart': 'The cart was saved as a product list.',
};

/**
 * Product lists in the account: the company's lists, one list with its products (add by number,
 * remove, rename, delete, everything to the cart), and the "add to a list" page the product page
 * and the cart link to. Lists are the add-on's Store API routes; "to the cart" is fast order's
 * add-to-cart route (so it needs orders.create too, and reports what could not be added).
 */
export function productListStorefrontPages(host: HostRuntime, service: ProductListService): StorefrontPage[] {
  const api: Api = {
    routes: routesByName([...productListRoutes(host, service), ...fastOrderRoutes(host)]),
    call: routeCaller(),
  };
  // In this order: the add page before `/account/product-lists/:id`, which would take "add" for an id.
  return [...listsPages(api), ...addToListPages(host, api), ...listPages(host, api)];
}

async function allLists(api: Api, ctx: StoreContext): Promise<ListSummary[]> {
  const { call, routes } = api;
  return (await call(ctx, routes.listProductLists, { body: { limit: MAX_LISTS_PER_CUSTOMER, page: 1 } })).elements;
}

const redirectTo = (id: string, done: string) => ({ redirect: `${listPath(id)}?done=${done}` });

/** The company's lists: the overview and a new list. */
function listsPages(api: Api): StorefrontPage[] {
  const { call, routes } = api;
  async function listsPage(
    ctx: StoreContext,
    query: Record<string, unknown>,
    extra: { error?: string; name?: string } = {},
    status = 200,
  ): Promise<PageResult> {
    const lists = await allLists(api, ctx);
    return {
      template: 'b2b/product-lists',
      status,
      data: {
        title: 'Product lists',
        lists: lists.map((list) => ({ ...list, url: listPath(list.id), createdAtText: dateText(ctx, list.createdAt) })),
        name: extra.name ?? '',
        error: extra.error ?? null,
        notice: noticeOf(query, NOTICES),
      },
    };
  }

  return [
    {
      path: LISTS_PATH,
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      handler: ({ ctx, query }) => listsPage(ctx, query),
    },
    {
      path: LISTS_PATH,
      method: 'POST',
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      async handler({ ctx, form }) {
        const name = text(form, 'name', 255);
        const result = await attempt(() => call(ctx, routes.createProductList, { body: name ? { name } : {} }));
        if ('error' in result) return listsPage(ctx, {}, { error: result.error, name }, 400);
        return redirectTo(result.ok.productList.id, 'created');
      },
    },
  ];
}

/** "Add to a product list", linked from the product page and the cart: choose a list, or name a new one. */
function addToListPages(host: HostRuntime, api: Api): StorefrontPage[] {
  const { call, routes } = api;
  async function addPage(
    ctx: StoreContext,
    query: Record<string, unknown>,
    extra: { error?: string } = {},
    status = 200,
  ): Promise<PageResult> {
    const fromCart = query.fromCart === '1';
    let product: ProductRecord | null = null;
    if (!fromCart) {
      const productId = typeof query.productId === 'string' ? query.productId : '';
      if (!isId(productId)) throw Errors.notFound('Product', productId);
      product = (await host.catalog.visibleProducts(host.db, ctx, [productId]))[0] ?? null;
      if (!product) throw Errors.notFound('Product', productId);
    }
    const cart = fromCart ? await host.cart.current(host.db, ctx) : null;
    return {
      template: 'b2b/product-list-add',
      status,
      data: {
        title: fromCart ? 'Save the cart as a product list' : 'Add to a product list',
        product: product
          ? { id: product.id, name: product.name, productNumber: product.productNumber, url: `/product/${product.id}` }
          : null,
        fromCart,
        cartCount: cart ? cart.lineItems.filter((line) => line.productId).length : 0,
        quantity: wholeNumber(query.quantity, 1, MAX_QUANTITY) ?? 1,
        lists: fromCart ? [] : await allLists(api, ctx),
        error: extra.error ?? null,
      },
    };
  }

  return [
    {
      path: ADD_PATH,
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      handler: ({ ctx, query }) => addPage(ctx, query),
    },
    {
      path: ADD_PATH,
      method: 'POST',
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      async handler({ ctx, form }) {
        const listId = text(form, 'listId', 64);
        const name = text(form, 'name', 255);
        if (text(form, 'fromCart') === '1') {
          const cart = await host.cart.current(host.db, ctx);
          const items = cart.lineItems
            .filter((line) => line.productId)
            .map((line) => ({ productId: line.productId!, quantity: line.quantity }));
          if (items.length === 0)
            return addPage(ctx, { fromCart: '1' }, { error: 'Your cart is empty: there is nothing to save.' }, 400);
          const result = await attempt(() =>
            call(ctx, routes.createProductList, { body: { ...(name ? { name } : {}), items } }),
          );
          if ('error' in result) return addPage(ctx, { fromCart: '1' }, { error: result.error }, 400);
          return redirectTo(result.ok.productList.id, 'from-cart');
        }
        const productId = text(form, 'productId', 64);
        const quantity = wholeNumber(text(form, 'quantity'), 1, MAX_QUANTITY);
        const query = { productId, quantity: text(form, 'quantity') };
        if (!quantity) return addPage(ctx, query, { error: `Enter a quantity from 1 to ${MAX_QUANTITY}.` }, 400);
        const items = [{ productId, quantity }];
        const result =
          listId === '' || listId === 'new'
            ? await attempt(() => call(ctx, routes.createProductList, { body: { ...(name ? { name } : {}), items } }))
            : isId(listId)
              ? await attempt(() => call(ctx, routes.addProductListItems, { params: { id: listId }, body: { items } }))
              : null;
        if (result === null) throw Errors.notFound('Product list', listId);
        if ('error' in result) return addPage(ctx, query, { error: result.error }, 400);
        return redirectTo(result.ok.productList.id, 'added');
      },
    },
  ];
}

/** One list's page (read through the declared route, the products' names from the catalog), shown again on a refusal. */
function listPageOf(host: HostRuntime, api: Api) {
  const { call, routes } = api;
  return async function listPage(
    ctx: StoreContext,
    id: string,
    query: Record<string, unknown>,
    extra: { error?: string; errors?: string[]; articleNumber?: string } = {},
    status = 200,
  ): Promise<PageResult> {
    if (!isId(id)) throw Errors.notFound('Product list', id);
    const list = await call(ctx, routes.readProductList, { params: { id } });
    const products = new Map(
      (
        await host.catalog.visibleProducts(
          host.db,
          ctx,
          list.items.map((item) => item.productId),
        )
      ).map((product) => [product.id, product]),
    );
    return {
      template: 'b2b/product-list',
      status,
      data: {
        title: list.name,
        list: {
          ...list,
          items: list.items.map((item) => {
            const product = products.get(item.productId);
            return {
              ...item,
              name: product?.name ?? null,
              productUrl: product ? `/product/${product.id}` : null,
              removeUrl: `${listPath(list.id)}/items/${item.id}/remove`,
            };
          }),
        },
        mayOrder: ctx.can('orders.create'),
        // The recurring-order add-on's form for this list (its page answers 403 to whoever may not).
        recurringUrl:
          ctx.can('orders.create') && ctx.can('recurring-orders.manage')
            ? `/account/recurring-orders?productListId=${list.id}`
            : null,
        articleNumber: extra.articleNumber ?? '',
        error: extra.error ?? null,
        errors: extra.errors ?? [],
        notice: noticeOf(query, NOTICES),
        listsUrl: LISTS_PATH,
      },
    };
  };
}

/** One list: its products (add by number, remove), rename, delete, everything to the cart. */
function listPages(host: HostRuntime, api: Api): StorefrontPage[] {
  const { call, routes } = api;
  const listPage = listPageOf(host, api);
  return [
    page({
      path: `${LISTS_PATH}/:id`,
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      handler: ({ ctx, params, query }) => listPage(ctx, params.id, query),
    }),
    page({
      path: `${LISTS_PATH}/:id/items`,
      method: 'POST',
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      async handler({ ctx, params, form }) {
        const id = params.id;
        if (!isId(id)) throw Errors.notFound('Product list', id);
        const articleNumber = text(form, 'articleNumber', 64);
        const quantity = wholeNumber(text(form, 'quantity'), 1, MAX_QUANTITY);
        if (!articleNumber || !quantity)
          return listPage(
            ctx,
            id,
            {},
            { error: `Enter a product number and a quantity from 1 to ${MAX_QUANTITY}.`, articleNumber },
            400,
          );
        const result = await attempt(() =>
          call(ctx, routes.addProductListItems, { params: { id }, body: { items: [{ articleNumber, quantity }] } }),
        );
        if ('error' in result) return listPage(ctx, id, {}, { error: result.error, articleNumber }, 400);
        return redirectTo(id, 'added');
      },
    }),
    page({
      path: `${LISTS_PATH}/:id/items/:itemId/remove`,
      method: 'POST',
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      async handler({ ctx, params }) {
        const { id, itemId } = params;
        if (!isId(id) || !isId(itemId)) throw Errors.notFound('Product list item', itemId);
        await call(ctx, routes.deleteProductListItems, { params: { id }, body: { items: [{ id: itemId }] } });
        return redirectTo(id, 'removed');
      },
    }),
    page({
      path: `${LISTS_PATH}/:id/rename`,
      method: 'POST',
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      async handler({ ctx, params, form }) {
        const id = params.id;
        if (!isId(id)) throw Errors.notFound('Product list', id);
        const result = await attempt(() =>
          call(ctx, routes.updateProductList, { params: { id }, body: { name: text(form, 'name', 255) } }),
        );
        if ('error' in result) return listPage(ctx, id, {}, { error: result.error }, 400);
        return redirectTo(id, 'saved');
      },
    }),
    page({
      path: `${LISTS_PATH}/:id/delete`,
      method: 'POST',
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      async handler({ ctx, params }) {
        const id = params.id;
        if (!isId(id)) throw Errors.notFound('Product list', id);
        await call(ctx, routes.deleteProductList, { params: { id } });
        return { redirect: `${LISTS_PATH}?done=deleted` };
      },
    }),
    page({
      path: `${LISTS_PATH}/:id/to-cart`,
      method: 'POST',
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      async handler({ ctx, params }) {
        const id = params.id;
        if (!isId(id)) throw Errors.notFound('Product list', id);
        const list = await call(ctx, routes.readProductList, { params: { id } });
        const items = list.items.map((item) => ({ productId: item.productId, quantity: item.quantity }));
        if (items.length === 0) return listPage(ctx, id, {}, { error: 'The list is empty.' }, 400);
        const added = await call(ctx, routes.fastOrderAddToCart, { body: { items } });
        if (added.success) return { redirect: '/cart?done=added' };
        const errors = added.items
          .filter((item) => !item.added)
          .map((item) => `${list.items[item.index]?.articleNumber ?? ''}: ${item.error?.detail ?? 'not added'}`);
        return listPage(
          ctx,
          id,
          {},
          { error: `${errors.length} products could not be put into the cart; the others are there.`, errors },
          400,
        );
      },
    }),
  ];
}
