import {
  defineStoreRoute,
  type HostRuntime,
  type OrderedProduct,
  type PropertyValue,
  type StoreContext,
} from '../../contract/index.js';
import { criteriaSchema, DEFAULT_LIMIT, leafMatches, resolveFiltersToIds, type Criteria } from '../../lib/criteria.js';
import { routeAlias } from '../../lib/routes.js';
import { Errors } from '../../lib/errors.js';
import { emptyBody, pathParams } from '../../lib/schemas.js';
import { priceView } from '../../lib/price-view.js';
import { customerNumberCache, visibleProductsByNumber } from '../customer-product-number/index.js';
import { addToCart } from './add-to-cart.js';
import { productViews, searchProducts, type SearchOptions } from './catalog.js';
import {
  addToCartBody,
  addToCartResponse,
  ORDERED_PRODUCT_FIELDS,
  orderedProductList,
  productCriteriaBodies,
  productList,
  productListing,
  productPriceParams,
  productPriceResponse,
  SIMILAR_DEFAULT_LIMIT,
  similarProductList,
  similarProductsQuery,
  SUGGEST_DEFAULT_LIMIT,
  suggestBody,
  TAG,
  variantList,
} from './schemas.js';
import { PRODUCT_LISTING_ALIAS, SEARCH_RESULT_ALIAS, storeList } from '../../lib/store-list.js';
import { declaredCustomer } from '../declared.js';

/** Fast order is a tool for placing orders: its search, details, table and add-to-cart need this key. */
const ORDERING = 'orders.create';
/** The ordered-products list looks at this many of the most recently ordered products. */
export const ORDERED_PRODUCTS_MAX = 5000;

async function searchViews(
  host: HostRuntime,
  ctx: StoreContext,
  criteria: Criteria,
  options: SearchOptions = {},
  apiAlias = SEARCH_RESULT_ALIAS,
) {
  const page = await searchProducts(host, ctx, criteria, options);
  return storeList(
    await productViews(host, ctx, page.elements, { withTiers: options.withTiers }),
    { total: page.total, page: criteria.page, limit: criteria.limit },
    apiAlias,
  );
}

const orderedFigures: Record<string, { type: 'date' | 'number'; of: (p: OrderedProduct) => number | string }> = {
  lastOrderDate: { type: 'date', of: (p) => p.lastOrderDate },
  totalQuantity: { type: 'number', of: (p) => p.totalQuantity },
  orderCount: { type: 'number', of: (p) => p.orderCount },
};

/**
 * Products the caller ordered before: the host sums the orders the caller may read (the customer's,
 * only their own without orders.read-all, as the host's order routes); filters and sorts on those
 * sums are resolved here to ids and sort keys, the rest is the host's product search.
 */
async function orderedProducts(host: HostRuntime, ctx: StoreContext, criteria: Criteria) {
  const customer = declaredCustomer(ctx);
  const placedBy = ctx.can('orders.read-all') ? undefined : { type: ctx.actor.type, id: ctx.actor.id ?? '' };
  const ordered = await host.orders.orderedProductIds(host.db, {
    customerId: customer.id,
    placedBy,
    limit: ORDERED_PRODUCTS_MAX,
  });
  const filter = await resolveFiltersToIds(criteria.filter, new Set(ORDERED_PRODUCT_FIELDS), 'id', (leaf) => {
    const figure = orderedFigures[leaf.field]!;
    leafMatches(figure.type, null, leaf); // checks the operands even when nothing was ordered
    return Promise.resolve({
      in: ordered.filter((p) => leafMatches(figure.type, figure.of(p), leaf)).map((p) => p.productId),
    });
  });
  const orderings = Object.fromEntries(
    Object.entries(orderedFigures).map(([field, figure]) => [
      field,
      new Map(
        ordered.map((p) => [
          p.productId,
          figure.type === 'date' ? new Date(figure.of(p)).getTime() : Number(figure.of(p)),
        ]),
      ),
    ]),
  );
  const page = await searchProducts(
    host,
    ctx,
    { ...criteria, filter },
    { within: ordered.map((p) => p.productId), orderings, defaultSort: [{ field: 'lastOrderDate', order: 'desc' }] },
  );
  const byId = new Map(ordered.map((p) => [p.productId, p]));
  const views = await productViews(host, ctx, page.elements);
  const elements = views.map((view) => {
    const { lastOrderDate, totalQuantity, orderCount } = byId.get(view.id)!;
    return { ...view, lastOrderDate, totalQuantity, orderCount };
  });
  return storeList(elements, { total: page.total, page: criteria.page, limit: criteria.limit });
}

const propertyValueView = (value: PropertyValue) => ({
  groupId: value.groupId,
  group: value.groupName,
  optionId: value.optionId,
  option: value.optionName,
});

/** A product's variants the caller may see, with the caller's prices and stock (the variant list / order matrix). */
async function variantListOf(host: HostRuntime, ctx: StoreContext, productId: string) {
  const family = await host.catalog.variants(host.db, ctx, productId);
  if (!family) throw Errors.notFound('Product', productId);
  const views = await productViews(host, ctx, family.variants);
  const elements = views.map((view, index) => ({
    ...view,
    parentId: family.main.id,
    options: family.variants[index]!.options.map(propertyValueView),
  }));
  return {
    ...storeList(elements, { total: elements.length, page: 1, limit: elements.length }, PRODUCT_LISTING_ALIAS),
    parentId: family.main.id,
  };
}

/** The visible products sharing the most property values with the product (the host ranks them). */
async function similarProductsOf(host: HostRuntime, ctx: StoreContext, productId: string, limit: number) {
  const similar = await host.catalog.propertySimilarProducts(host.db, ctx, productId, { limit });
  if (!similar) throw Errors.notFound('Product', productId);
  const views = await productViews(
    host,
    ctx,
    similar.products.map((p) => p.product),
  );
  const elements = views.map((view, index) => {
    const shared = similar.products[index]!.shared;
    return { ...view, sharedPropertyCount: shared.length, sharedProperties: shared.map(propertyValueView) };
  });
  return {
    ...storeList(elements, { total: elements.length, page: 1, limit }, PRODUCT_LISTING_ALIAS),
    properties: similar.properties.map(propertyValueView),
  };
}

export function fastOrderRoutes(host: HostRuntime) {
  return [...fastOrderSearchAndCartRoutes(host), ...fastOrderProductRoutes(host), ...variantListRoutes(host)];
}

/** Product search, ordered products, the product table, add to cart, product details. */
function fastOrderSearchAndCartRoutes(host: HostRuntime) {
  const { productCriteriaBody, orderedProductCriteriaBody, productDetailsBody } = productCriteriaBodies(
    host.catalog.productCriteriaFields,
  );

  return [
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/fast-order-product-search',
      operationId: 'fastOrderProductSearch',
      summary:
        'Finds products for the fast order: term matches a product number prefix, a customer product number prefix or part of the name.',
      description:
        'Criteria as everywhere (page, limit, filter, sort, ids). Without a sort, exact and prefix number matches come first. Prices are calculated for the caller (quantity 1).',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: ORDERING,
      schemas: { body: productCriteriaBody, responses: { 200: productList } },
      async handler({ ctx, body }) {
        return searchViews(host, ctx, body);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/ordered-products',
      operationId: 'listOrderedProducts',
      summary:
        'Products the customer ordered before, with the last order date, the total quantity and the number of orders (criteria; newest first).',
      description:
        'Only orders the caller may read count (their own without orders.read-all); only products the caller may still see are listed.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'orders.read',
      schemas: { body: orderedProductCriteriaBody, responses: { 200: orderedProductList } },
      handler: ({ ctx, body }) => orderedProducts(host, ctx, body),
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/product-table-listing',
      operationId: 'productTableListing',
      summary: "A product table: products (criteria) with the caller's unit price per quantity range in tierPrices.",
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: ORDERING,
      schemas: { body: productCriteriaBody, responses: { 200: productListing } },
      async handler({ ctx, body }) {
        return searchViews(host, ctx, body, { withTiers: true }, PRODUCT_LISTING_ALIAS);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/add-to-cart',
      operationId: 'fastOrderAddToCart',
      summary:
        'Adds items by product id or number (a shop or a customer product number) to the cart; answers per item whether it was added or why not.',
      description:
        'Items that can be added are added, the others are reported with their error code (unknown or hidden product, out of stock, …). success is true when every item was added.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: ORDERING,
      schemas: { body: addToCartBody, responses: { 200: addToCartResponse } },
      handler: ({ ctx, body }) => addToCart(host, ctx, body.items),
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/product-details',
      operationId: 'fastOrderProductDetails',
      summary:
        'Details of products by ids and/or product numbers (shop or customer numbers): prices per quantity range, stock, customer product number.',
      description:
        'Criteria with an extra productNumbers array. Unknown or hidden products are absent from the answer.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: ORDERING,
      schemas: { body: productDetailsBody, responses: { 200: productList } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const { productNumbers, ...criteria } = body;
        if (productNumbers?.length) {
          const byShopNumber = await visibleProductsByNumber(host, ctx, productNumbers);
          const byCustomerNumber = await customerNumberCache(host).productIdsByNumber(
            ctx,
            host.db,
            customer.id,
            productNumbers,
          );
          const resolved = [...byShopNumber.values(), ...byCustomerNumber.values()];
          criteria.ids = [...new Set([...(criteria.ids ?? []), ...resolved])];
          if (criteria.ids.length === 0)
            return storeList([], { total: 0, page: criteria.page ?? 1, limit: criteria.limit ?? DEFAULT_LIMIT });
        }
        return searchViews(host, ctx, criteria, { withTiers: true });
      },
    }),
  ];
}

/** Suggestions, a product's price for a quantity, its variants and similar products. */
function fastOrderProductRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/platform-product-search',
      operationId: 'productSuggest',
      summary:
        'Suggest: up to `limit` (default 10, at most 50) products for a search term, as the fast order search matches it.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { body: suggestBody, responses: { 200: productListing } },
      async handler({ ctx, body }) {
        return searchViews(
          host,
          ctx,
          { term: body.search, limit: body.limit ?? SUGGEST_DEFAULT_LIMIT, 'total-count-mode': 'exact' },
          {},
          PRODUCT_LISTING_ALIAS,
        );
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/product-price/{id}/{quantity}',
      operationId: 'productPrice',
      summary: 'The price of a product for the caller at a quantity (customer, group, tier and list prices applied).',
      description:
        "A product the caller may not see is a 404; a quantity the product's purchase steps refuse (the reference host: not a whole number from 1) is a 400 SUITE__QUANTITY_NOT_PURCHASABLE.",
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { params: productPriceParams, body: emptyBody, responses: { 200: productPriceResponse } },
      async handler({ ctx, params }) {
        const [product] = await host.catalog.visibleProducts(host.db, ctx, [params.id]);
        if (!product) throw Errors.notFound('Product', params.id);
        const quantity = params.quantity;
        // The host has no purchase steps of its own: every product is sold in whole units from 1.
        if (!Number.isInteger(quantity) || quantity < 1)
          throw Errors.badRequest(
            'SUITE__QUANTITY_NOT_PURCHASABLE',
            `The product is sold in whole units from 1; ${quantity} cannot be bought.`,
            { pointer: '/quantity' },
          );
        const price = await host.prices.calculate(host.db, ctx, product, quantity);
        return {
          productId: product.id,
          productNumber: product.productNumber,
          quantity,
          calculatedPrice: priceView(price, ctx.salesChannel.currencyPrecision),
        };
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/property-similar-products/{productId}',
      operationId: 'propertySimilarProducts',
      summary: 'The products the caller may see that share the most property values with the product.',
      description:
        `Ranked by the number of shared property values (most first), then product number; at most \`limit\` (default ${SIMILAR_DEFAULT_LIMIT}, at most 50). ` +
        "The product's own variant family is left out; a product without properties has no similar products. A product the caller may not see is a 404 like an unknown id.",
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { params: pathParams('productId'), query: similarProductsQuery, responses: { 200: similarProductList } },
      async handler({ ctx, params, query }) {
        return similarProductsOf(host, ctx, params.productId, query.limit ?? SIMILAR_DEFAULT_LIMIT);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/property-similar-products/{productId}',
      operationId: 'searchPropertySimilarProducts',
      summary:
        "The same as GET /b2b/property-similar-products/{productId}, with `limit` in the body (the method the real product's client uses).",
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { params: pathParams('productId'), body: similarProductsQuery, responses: { 200: similarProductList } },
      async handler({ ctx, params, body }) {
        return similarProductsOf(host, ctx, params.productId, body.limit ?? SIMILAR_DEFAULT_LIMIT);
      },
    }),
  ];
}

/** A criteria body for the variant list's POST: paging, ids and a term over number and name (a filter or sort is refused in the handler). */
const variantCriteriaBody = criteriaSchema(['productNumber']);

/**
 * The variant list: GET (the order matrix), and POST with a criteria body, where the real product's
 * storefront connector calls it (decision 0048): the same list, narrowed by `ids`
 * and `term` and paged by `page` and `limit` (a family is small: in memory).
 */
function variantListRoutes(host: HostRuntime) {
  const get = defineStoreRoute({
    method: 'GET',
    path: '/variant-list/{productId}',
    operationId: 'variantList',
    summary:
      "A product's variants with the caller's prices and stock, and the options that make each a variant (the variant order matrix).",
    description:
      "productId names the main product or one of its variants; the answer lists the main product's active variants the caller may see, by product number (empty for a product without variants). " +
      'A product or main product the caller may not see (partial assortments, inactive) is a 404 like an unknown id; hidden variants are left out.',
    tags: [TAG],
    auth: 'login',
    needsCustomer: true,
    permission: ORDERING,
    schemas: { params: pathParams('productId'), responses: { 200: variantList } },
    async handler({ ctx, params }) {
      return variantListOf(host, ctx, params.productId);
    },
  });
  const post = routeAlias(get, {
    method: 'POST',
    path: '/variant-list/{productId}',
    operationId: 'searchVariantList',
    summary:
      "A product's variants as GET /variant-list/{productId} answers them, searched and paged by a criteria body (ids, term over number and name, page, limit), as the real product's clients call it.",
    schemas: { params: pathParams('productId'), body: variantCriteriaBody, responses: { 200: variantList } },
    async handler({ ctx, params, body }: { ctx: StoreContext; params: { productId: string }; body: Criteria }) {
      if (body.filter?.length || body.sort?.length)
        throw Errors.badRequest(
          'SUITE__INVALID_INPUT',
          'The variant list is searched by ids and term and paged; it takes no filter or sort.',
          { pointer: body.filter?.length ? '/filter' : '/sort' },
        );
      const list = await variantListOf(host, ctx, params.productId);
      const term = body.term?.toLowerCase();
      const matching = list.elements.filter(
        (v) =>
          (!body.ids || body.ids.includes(v.id)) &&
          (!term || `${v.productNumber} ${v.name}`.toLowerCase().includes(term)),
      );
      const limit = body.limit ?? DEFAULT_LIMIT;
      const page = body.page ?? 1;
      return {
        ...storeList(
          matching.slice((page - 1) * limit, page * limit),
          { total: matching.length, page, limit },
          PRODUCT_LISTING_ALIAS,
        ),
        parentId: list.parentId,
      };
    },
  });
  return [get, post];
}
