import type { HostRuntime } from '../../host/contract.js';
import { customerProductNumberProcessor } from './processor.js';
import { deleteNumbersOf } from './repository.js';
import { customerProductNumberRoutes } from './routes.js';
import { customerProductNumberStorefrontPages } from './storefront.js';

export { numberKey, numbersOf, productIdsByNumber, productIdsByNumberPrefix, visibleProductsByNumber, CUSTOMER_PRODUCT_NUMBERS } from './repository.js';

/** Customer product numbers: routes, CSV import, and a line-item processor that carries the number into carts and orders. */
export function registerCustomerProductNumbers(host: HostRuntime): void {
  host.cart.addLineItemProcessor(customerProductNumberProcessor);
  for (const route of customerProductNumberRoutes(host)) host.storeApi.route(route);
  for (const page of customerProductNumberStorefrontPages(host)) host.storefront.page(page);
  host.events.on('customer.deleted', (trx, { ids }) => deleteNumbersOf(trx, 'customer_id', ids));
  host.events.on('product.deleted', (trx, { ids }) => deleteNumbersOf(trx, 'product_id', ids));
}
