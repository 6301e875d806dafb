import type { StorefrontPage, HostRuntime, StoreRoute } from '../../../host/contract.js';
import { employeeRoutes } from '../../employee/routes.js';
import { routeCaller } from '../../storefront-kit.js';
import type { EventSettingsCache } from '../settings.js';
import type { EventUseCases } from '../use-cases/index.js';
import { eventCustomerPages } from './customer-pages.js';
import { eventParticipantPages } from './participant-pages.js';
import { eventStaffPages } from './staff-pages.js';

/** The event manager's account pages; they act through the add-on's declared Store API routes. */
export function eventStorefrontPages(
  host: HostRuntime,
  routes: StoreRoute[],
  service: EventUseCases,
  settings: EventSettingsCache,
): StorefrontPage[] {
  // The employee list for the colleagues a registration may name.
  const call = routeCaller([...routes, ...employeeRoutes(host)]);
  return [
    ...eventCustomerPages(host, call, settings),
    ...eventStaffPages(host, call),
    ...eventParticipantPages(host, call, service),
  ];
}
