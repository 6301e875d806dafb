import type { StorefrontPage, HostRuntime, StoreRoute } from '../../../host/contract.js';
import { employeeRoutes } from '../../employee/routes.js';
import { routeCaller } from '../../storefront-kit.js';
import type { EventSettingsCache } from '../settings.js';
import { eventCustomerPages } from './customer-pages.js';
import { eventParticipantPages } from './participant-pages.js';
import { eventStaffPages } from './staff-pages.js';

/** The event manager's account pages; they act through the add-on's declared Store API routes. */
export function eventStorefrontPages(
  host: HostRuntime,
  routes: StoreRoute[],
  settings: EventSettingsCache,
): StorefrontPage[] {
  // The employee list for the colleagues a registration may name; the host's idempotency keys for the circular mail form.
  const call = routeCaller([...routes, ...employeeRoutes(host)], host.storeApi.idempotency);
  return [...eventCustomerPages(host, call, settings), ...eventStaffPages(host, call), ...eventParticipantPages(call)];
}
