import type { HostRuntime } from '../../contract/index.js';
import { customerProductNumberAdminRoutes } from './admin-routes.js';
import { customerProductNumberProcessor } from './processor.js';
import { CUSTOMER_PRODUCT_NUMBERS_VERSION, customerNumberCache } from './number-cache.js';
import { deleteNumbersOf } from './repository.js';
import { customerProductNumberRoutes } from './routes.js';
import { customerProductNumberStorefrontPages } from './storefront.js';

export { customerNumberCache } from './number-cache.js';
export {
  numberKey,
  numbersOf,
  productIdsByNumber,
  productIdsByNumberPrefix,
  visibleProductsByNumber,
  CUSTOMER_PRODUCT_NUMBERS,
} from './repository.js';

/** Customer product numbers: routes, CSV import, and a line-item processor that carries the number into carts and orders. */
export function registerCustomerProductNumbers(host: HostRuntime): void {
  host.auth.addContextVersion(CUSTOMER_PRODUCT_NUMBERS_VERSION);
  host.cart.addLineItemProcessor(customerProductNumberProcessor(customerNumberCache(host)));
  for (const route of customerProductNumberRoutes(host)) host.storeApi.route(route);
  for (const route of customerProductNumberAdminRoutes(host)) host.adminApi.route(route);
  for (const page of customerProductNumberStorefrontPages(host)) host.storefront.page(page);
  host.events.on('customer.deleted', (trx, { ids }) => deleteNumbersOf(trx, 'customer_id', ids));
  host.events.on('product.deleted', (trx, { ids }) => deleteNumbersOf(trx, 'product_id', ids));
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<CustomerProductNumberAdminRoute>()`). */
export type CustomerProductNumberAdminRoute = ReturnType<typeof customerProductNumberAdminRoutes>[number];

export { numberedProductIds, numbersInNumberOrder } from './repository.js';
