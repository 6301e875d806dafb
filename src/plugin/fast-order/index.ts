import type { HostRuntime } from '../../contract/index.js';
import { fastOrderRoutes } from './routes.js';
import { fastOrderStorefrontPages } from './storefront.js';

/** Fast order and product search: search, ordered products, product table, add to cart by number, details, suggest, price. */
export function registerFastOrder(host: HostRuntime): void {
  for (const route of fastOrderRoutes(host)) host.storeApi.route(route);
  for (const page of fastOrderStorefrontPages(host)) host.storefront.page(page);
}

/** For the representative's fast order (sales-representative add-on): the same add-by-number and its schemas. */
export { addToCart } from './add-to-cart.js';
export { addToCartBody, addToCartResponse } from './schemas.js';

/** For pages of other add-ons that call the fast-order routes (product-list's and order-again's storefront). */
export { fastOrderRoutes } from './routes.js';
