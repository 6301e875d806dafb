import type { HostRuntime } from '../../contract/index.js';
import { ProductListService } from '../product-list/index.js';
import { forgetCustomers, forgetOrder, recordOrder } from './repository.js';
import { automaticListRoutes } from './automatic-routes.js';
import { orderAgainRoutes } from './routes.js';
import { orderAgainStorefrontPages } from './storefront.js';

/**
 * Order again and automatic lists: what a buyer ordered before, back into the cart or a product
 * list (docs/order-again.md), and the lists the order history makes (docs/automatic-lists.md),
 * kept by the order hooks of both hosts.
 */
export function registerOrderAgain(host: HostRuntime): void {
  const lists = new ProductListService(host);
  for (const route of orderAgainRoutes(host, lists)) host.storeApi.route(route);
  for (const route of automaticListRoutes(host)) host.storeApi.route(route);
  for (const page of orderAgainStorefrontPages(host, lists)) host.storefront.page(page);
  host.checkout.onOrderPlaced((trx, _ctx, order) => recordOrder(trx, order));
  host.checkout.onOrderCancelled((trx, _ctx, order) => forgetOrder(trx, order));
  host.events.on('customer.deleted', (trx, { ids }) => forgetCustomers(trx, ids));
}
