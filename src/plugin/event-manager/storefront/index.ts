import type { StorefrontPage, HostRuntime } from '../../../contract/index.js';
import type { RoutesByName } from '../../../lib/routes.js';
import type { eventStoreRoutes } from '../routes.js';
import { employeeRoutes } from '../../employee/index.js';
import { routeCaller, routesByName, type RouteCaller } from '../../storefront-kit.js';
import type { EventSettingsCache } from '../settings.js';
import { eventCustomerPages } from './customer-pages.js';
import { eventParticipantPages } from './participant-pages.js';
import { eventStaffPages } from './staff-pages.js';

/** The event manager's account pages; they act through the add-on's declared Store API routes. */
export function eventStorefrontPages(
  host: HostRuntime,
  storeRoutes: ReturnType<typeof eventStoreRoutes>,
  settings: EventSettingsCache,
): StorefrontPage[] {
  // The employee list for the colleagues a registration may name; the host's idempotency keys for the circular mail form.
  const api: EventApi = {
    routes: routesByName([...storeRoutes, ...employeeRoutes(host)]),
    call: routeCaller(host.storeApi.idempotency),
  };
  return [...eventCustomerPages(host, api, settings), ...eventStaffPages(host, api), ...eventParticipantPages(api)];
}

/** The event manager's Store API routes (and the employee list) by name, and the caller that runs them. */
export interface EventApi {
  routes: RoutesByName<ReturnType<typeof eventStoreRoutes>[number] | ReturnType<typeof employeeRoutes>[number]>;
  call: RouteCaller;
}
