import type { HostRuntime } from '../../contract/index.js';
import { abandonedCartRoutes } from './abandoned-carts.js';
import { activityRoutes } from './activities.js';
import { representativeAdminRoutes } from './admin.js';
import { representativeContextEnricher, representativeLoginProvider } from './context.js';
import { deleteCustomersRepresentativeData } from './repository.js';
import { representativeFastOrderRoutes } from './fast-order.js';
import { productRequestRoutes } from './product-request.js';
import { representativeRoutes } from './routes.js';
import { salesRepresentativeStorefrontPages } from './storefront.js';

export { requireRepresentative } from './context.js';
export { assignedCustomerIds, isAssigned, representativeOfCustomer } from './repository.js';

/** Sales representatives: login, acting for assigned customers, customer activities, their orders and statistics; Admin API to set them up. */
export function registerSalesRepresentatives(host: HostRuntime): void {
  host.auth.addLoginProvider(representativeLoginProvider(host));
  host.auth.addContextEnricher(representativeContextEnricher);
  for (const route of [
    ...representativeRoutes(host),
    ...activityRoutes(host),
    ...productRequestRoutes(host),
    ...representativeFastOrderRoutes(host),
    ...abandonedCartRoutes(host),
  ])
    host.storeApi.route(route);
  for (const route of representativeAdminRoutes(host)) host.adminApi.route(route);
  for (const page of salesRepresentativeStorefrontPages(host)) host.storefront.page(page);
  host.events.on('customer.deleted', (trx, { ids }) => deleteCustomersRepresentativeData(trx, ids));
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<SalesRepresentativeAdminRoute>()`). */
export type SalesRepresentativeAdminRoute = ReturnType<typeof representativeAdminRoutes>[number];
