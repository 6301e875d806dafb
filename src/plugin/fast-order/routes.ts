import type { HostRuntime, StoreContext, StoreRoute } from '../../host/contract.js';
import { searchByCriteria, type Criteria } from '../../lib/criteria.js';
import { readInt } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { emptyBody } from '../../lib/schemas.js';
import { fromDbTime } from '../../lib/time.js';
import { priceView } from '../../lib/price-view.js';
import { productIdsByNumber, visibleProductsByNumber } from '../customer-product-number/index.js';
import { requireCustomer } from '../employee/common.js';
import { addToCart } from './add-to-cart.js';
import { PRODUCT_SELECT, productViews, termMatch, visibleProducts, type ViewOptions } from './catalog.js';
import {
  addToCartBody,
  addToCartResponse,
  orderedProductCriteriaBody,
  orderedProductCriteriaSpec,
  orderedProductList,
  productCriteriaBody,
  productCriteriaSpec,
  productDetailsBody,
  productList,
  productPriceParams,
  productPriceResponse,
  suggestBody,
  TAG,
} from './schemas.js';

/** Fast order is a tool for placing orders: its search, details, table and add-to-cart need this key. */
const ORDERING = 'orders.create';

async function searchProducts(host: HostRuntime, ctx: StoreContext, criteria: Criteria, options: ViewOptions = {}) {
  const { query } = await visibleProducts(host, ctx);
  const { term, ...rest } = criteria;
  const match = termMatch(host, ctx, term);
  match?.where(query);
  const page = await searchByCriteria<Record<string, any>>(query, rest, productCriteriaSpec, (qb) => {
    if (!rest.sort?.length) match?.rank(qb);
    return qb.select(PRODUCT_SELECT);
  });
  return { total: page.total, data: await productViews(host, ctx, page.rows, options) };
}

/** Orders the caller may read: the customer's, only their own without orders.read-all (as the host's order routes). */
function orderedLines(host: HostRuntime, ctx: StoreContext) {
  const customer = requireCustomer(ctx);
  const lines = host
    .db('order_line_items as oli')
    .join('orders', 'orders.id', 'oli.order_id')
    .where('orders.customer_id', customer.id)
    .whereNotNull('oli.product_id')
    .groupBy('oli.product_id')
    .select('oli.product_id', host.db.raw('MAX(orders.order_date) as last_order_date'), host.db.raw('SUM(oli.quantity) as total_quantity'), host.db.raw('COUNT(DISTINCT orders.id) as order_count'));
  if (!ctx.can('orders.read-all')) lines.where('orders.placed_by_type', ctx.actor.type).where('orders.placed_by_id', ctx.actor.id ?? '');
  return lines;
}

export function fastOrderRoutes(host: HostRuntime): StoreRoute[] {
  return [
    {
      method: 'POST',
      path: '/b2b/fast-order-product-search',
      operationId: 'fastOrderProductSearch',
      summary: 'Finds products for the fast order: term matches a product number prefix, a customer product number prefix or part of the name.',
      description: 'Criteria as everywhere (page, limit, filter, sort, ids). Without a sort, exact and prefix number matches come first. Prices are calculated for the caller (quantity 1).',
      tags: [TAG],
      auth: 'login',
      permission: ORDERING,
      schemas: { body: productCriteriaBody, responses: { 200: productList } },
      async handler({ ctx, body }) {
        requireCustomer(ctx);
        return searchProducts(host, ctx, body as Criteria);
      },
    },
    {
      method: 'POST',
      path: '/ordered-products',
      operationId: 'listOrderedProducts',
      summary: 'Products the customer ordered before, with the last order date, the total quantity and the number of orders (criteria; newest first).',
      description: 'Only orders the caller may read count (their own without orders.read-all); only products the caller may still see are listed.',
      tags: [TAG],
      auth: 'login',
      permission: 'orders.read',
      schemas: { body: orderedProductCriteriaBody, responses: { 200: orderedProductList } },
      async handler({ ctx, body }) {
        const { query } = await visibleProducts(host, ctx, host.db.from(orderedLines(host, ctx).as('op')).join('products', 'products.id', 'op.product_id'));
        const { term, ...criteria } = body as Criteria;
        const match = termMatch(host, ctx, term);
        match?.where(query);
        const page = await searchByCriteria<Record<string, any>>(query, criteria, orderedProductCriteriaSpec, (qb) => {
          if (!criteria.sort?.length) match?.rank(qb);
          return qb.select([...PRODUCT_SELECT, 'op.last_order_date', 'op.total_quantity', 'op.order_count']);
        });
        const byId = new Map(page.rows.map((row) => [String(row.id), row]));
        const views = await productViews(host, ctx, page.rows);
        return {
          total: page.total,
          data: views.map((view) => {
            const row = byId.get(view.id)!;
            return { ...view, lastOrderDate: fromDbTime(row.last_order_date)!, totalQuantity: readInt(row.total_quantity), orderCount: readInt(row.order_count) };
          }),
        };
      },
    },
    {
      method: 'POST',
      path: '/product-table-listing',
      operationId: 'productTableListing',
      summary: "A product table: products (criteria) with the caller's unit price per quantity range in tierPrices.",
      tags: [TAG],
      auth: 'login',
      permission: ORDERING,
      schemas: { body: productCriteriaBody, responses: { 200: productList } },
      async handler({ ctx, body }) {
        requireCustomer(ctx);
        return searchProducts(host, ctx, body as Criteria, { withTiers: true });
      },
    },
    {
      method: 'POST',
      path: '/b2b/add-to-cart',
      operationId: 'fastOrderAddToCart',
      summary: 'Adds items by product id or number (a shop or a customer product number) to the cart; answers per item whether it was added or why not.',
      description: 'Items that can be added are added, the others are reported with their error code (unknown or hidden product, out of stock, …). success is true when every item was added.',
      tags: [TAG],
      auth: 'login',
      permission: ORDERING,
      schemas: { body: addToCartBody, responses: { 200: addToCartResponse } },
      handler: ({ ctx, body }) => addToCart(host, ctx, body.items),
    },
    {
      method: 'POST',
      path: '/b2b/product-details',
      operationId: 'fastOrderProductDetails',
      summary: 'Details of products by ids and/or product numbers (shop or customer numbers): prices per quantity range, stock, customer product number.',
      description: 'Criteria with an extra productNumbers array. Unknown or hidden products are absent from the answer.',
      tags: [TAG],
      auth: 'login',
      permission: ORDERING,
      schemas: { body: productDetailsBody, responses: { 200: productList } },
      async handler({ ctx, body }) {
        const customer = requireCustomer(ctx);
        const { productNumbers, ...criteria } = body as Criteria & { productNumbers?: string[] };
        if (productNumbers?.length) {
          const byShopNumber = await visibleProductsByNumber(host, ctx, productNumbers);
          const byCustomerNumber = await productIdsByNumber(host.db, customer.id, productNumbers);
          const resolved = [...byShopNumber.values(), ...byCustomerNumber.values()];
          criteria.ids = [...new Set([...(criteria.ids ?? []), ...resolved])];
          if (criteria.ids.length === 0) return { total: 0, data: [] };
        }
        return searchProducts(host, ctx, criteria, { withTiers: true });
      },
    },
    {
      method: 'POST',
      path: '/platform-product-search',
      operationId: 'productSuggest',
      summary: 'Suggest: up to `limit` (default 10, at most 50) products for a search term, as the fast order search matches it.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { body: suggestBody, responses: { 200: productList } },
      async handler({ ctx, body }) {
        requireCustomer(ctx);
        return searchProducts(host, ctx, { term: String(body.search), limit: Number(body.limit), 'total-count-mode': 'exact' });
      },
    },
    {
      method: 'POST',
      path: '/product-price/{id}/{quantity}',
      operationId: 'productPrice',
      summary: 'The price of a product for the caller at a quantity (customer, group, tier and list prices applied).',
      description: 'A product the caller may not see is a 404; a quantity that is not a whole number from 1 is a 400.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { params: productPriceParams, body: emptyBody, responses: { 200: productPriceResponse } },
      async handler({ ctx, params }) {
        requireCustomer(ctx);
        const [product] = await host.catalog.visibleProducts(ctx, [String(params.id)]);
        if (!product) throw Errors.notFound('Product', String(params.id));
        const quantity = Number(params.quantity);
        const price = await host.prices.calculate(ctx, product, quantity);
        return { productId: product.id, productNumber: product.productNumber, quantity, calculatedPrice: priceView(price, ctx.salesChannel.currencyPrecision) };
      },
    },
  ];
}
