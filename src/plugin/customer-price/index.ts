import type { HostRuntime } from '../../contract/index.js';
import { customerPriceAdminRoutes, customerPriceImportRunRoutes } from './admin-routes.js';
import { importCustomerPricesInBatches, PRICE_IMPORT_RUN_KIND } from './import.js';
import type { ImportRuns } from '../import-run/index.js';
import { customerPriceProvider } from './price-provider.js';
import { CUSTOMER_PRICES_VERSION } from './price-cache.js';
import { deletePricesOf } from './repository.js';
import { customerPriceStoreRoutes } from './store-routes.js';
import { customerPriceStorefrontPages } from './storefront.js';

/** Customer prices: managed through the Admin API, read through POST /customer-prices, applied by a price provider. */
export function registerCustomerPrices(host: HostRuntime, runs: ImportRuns): void {
  host.auth.addContextVersion(CUSTOMER_PRICES_VERSION);
  host.prices.addPriceProvider(customerPriceProvider(host));
  for (const route of customerPriceStoreRoutes(host)) host.storeApi.route(route);
  for (const page of customerPriceStorefrontPages(host)) host.storefront.page(page);
  for (const route of customerPriceAdminRoutes(host)) host.adminApi.route(route);
  runs.register(PRICE_IMPORT_RUN_KIND, (csv, progress) => importCustomerPricesInBatches(host, csv, progress));
  for (const route of customerPriceImportRunRoutes(host, runs)) host.adminApi.route(route);
  host.events.on('customer.deleted', (trx, { ids }) => deletePricesOf(trx, 'customer_id', ids));
  host.events.on('customer_group.deleted', (trx, { ids }) => deletePricesOf(trx, 'customer_group_id', ids));
  host.events.on('product.deleted', (trx, { ids }) => deletePricesOf(trx, 'product_id', ids));
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<CustomerPriceAdminRoute>()`). */
export type CustomerPriceAdminRoute =
  ReturnType<typeof customerPriceAdminRoutes>[number] | ReturnType<typeof customerPriceImportRunRoutes>[number];

export { priceBreakpoints } from './repository.js';
