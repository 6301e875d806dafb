import type { HostRuntime } from '../../host/contract.js';
import { ProductListService } from '../product-list/service.js';
import { orderAgainRoutes } from './routes.js';

/**
 * Order again and automatic lists: what a buyer ordered before, back into the cart or a product
 * list (docs/order-again.md), and the lists the order history makes (docs/automatic-lists.md).
 */
export function registerOrderAgain(host: HostRuntime): void {
  const lists = new ProductListService(host);
  for (const route of orderAgainRoutes(host, lists)) host.storeApi.route(route);
}
