import type { HostRuntime } from '../../contract/index.js';
import { eventOperatorRoutes } from './admin-event-routes.js';
import { registerEventJobs } from './jobs.js';
import { eventTicketProcessor } from './line-item-processor.js';
import { eventOrderCancelledHook, eventOrderHook } from './order-hook.js';
import { EVENTS_VERSION, deleteCustomersParticipants, deleteEventsOfProducts } from './repository.js';
import { eventAdminRoutes, eventStoreRoutes } from './routes.js';
import { EventUseCases } from './use-cases/index.js';
import { EventSettingsCache } from './settings.js';
import { eventStorefrontPages } from './storefront/index.js';

export { EVENT_REMINDER_JOB } from './jobs.js';

/**
 * Event manager: events on products, specifications, participants and circular mails for sales
 * staff; the event overview and company participants for customers. Registration is a cart line
 * per participant (line-item processor), written as participants by an order-placed hook; a
 * cancelled order cancels them (order-cancelled hook) and the waiting list moves up.
 */
export function registerEventManager(host: HostRuntime): void {
  const settings = new EventSettingsCache(host);
  const service = new EventUseCases(host, settings);
  host.auth.addContextEnricher(settings.enricher());
  host.auth.addContextVersion(EVENTS_VERSION);
  host.cart.addLineItemProcessor(eventTicketProcessor(settings));
  host.checkout.onOrderPlaced(eventOrderHook(host));
  host.checkout.onOrderCancelled(eventOrderCancelledHook(host));
  const storeRoutes = eventStoreRoutes(host, service, settings);
  for (const route of storeRoutes) host.storeApi.route(route);
  for (const route of [...eventAdminRoutes(host, service), ...eventOperatorRoutes(host, service, settings)])
    host.adminApi.route(route);
  for (const page of eventStorefrontPages(host, storeRoutes, settings)) host.storefront.page(page);
  registerEventJobs(host, settings);
  host.events.on('customer.deleted', (trx, { ids }) => deleteCustomersParticipants(trx, ids));
  host.events.on('product.deleted', (trx, { ids }) => deleteEventsOfProducts(trx, ids));
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<EventAdminRoute>()`). */
export type EventAdminRoute =
  ReturnType<typeof eventAdminRoutes>[number] | ReturnType<typeof eventOperatorRoutes>[number];
