import type { HostRuntime } from '../../contract/index.js';
import { deleteCustomersLists, deleteProductsFromLists } from './repository.js';
import { productListRoutes } from './routes.js';
import { ProductListService } from './service.js';
import { productListStorefrontPages } from './storefront.js';

/** Product lists: named lists of products per customer, shared by the company's logins with product-list.manage. */
export function registerProductLists(host: HostRuntime): void {
  const service = new ProductListService(host);
  for (const route of productListRoutes(host, service)) host.storeApi.route(route);
  for (const page of productListStorefrontPages(host, service)) host.storefront.page(page);
  host.events.on('customer.deleted', (trx, { ids }) => deleteCustomersLists(trx, ids));
  host.events.on('product.deleted', (trx, { ids }) => deleteProductsFromLists(trx, ids));
}

/** For the order-again and recurring-order add-ons: automatic lists are product lists, and a recurring order reads a list's items. */
export { findList, itemsQuery } from './repository.js';
export { ProductListService } from './service.js';
