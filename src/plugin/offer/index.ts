import type { HostRuntime } from '../../contract/index.js';
import { offerAdminRoutes } from './admin-routes.js';
import { offerOrderRoutes } from './offer-order.js';
import { deleteCustomersOffers } from './repository.js';
import { offerRoutes } from './routes.js';
import { negotiationRoutes } from './negotiation-routes.js';
import { OfferUseCases } from './use-cases/index.js';
import { registerOfferStorefront } from './storefront/index.js';

export const EXPIRE_JOB = 'offer.expire-overdue';
const EXPIRE_JOB_EVERY_SECONDS = 10 * 60;
export const EXPIRY_REMINDER_JOB = 'offer.remind-expiring';

/**
 * Offers: customers ask for offers from the cart or chosen items; sales representatives price,
 * extend and mail them as PDF; customers accept (an order at the offered prices) or decline.
 */
export function registerOffers(host: HostRuntime): void {
  const service = new OfferUseCases(host);
  for (const route of [...offerRoutes(service), ...negotiationRoutes(service), ...offerOrderRoutes(host, service)])
    host.storeApi.route(route);
  for (const route of offerAdminRoutes(host)) host.adminApi.route(route);
  registerOfferStorefront(host, service);
  host.jobs.register(EXPIRE_JOB, async () => {
    await service.expireOverdue();
  });
  host.jobs.schedule(EXPIRE_JOB, EXPIRE_JOB_EVERY_SECONDS);
  host.jobs.register(EXPIRY_REMINDER_JOB, async () => {
    await service.remindExpiring();
  });
  host.jobs.schedule(EXPIRY_REMINDER_JOB, EXPIRE_JOB_EVERY_SECONDS);
  host.events.on('customer.deleted', (trx, { ids }) => deleteCustomersOffers(trx, ids));
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<OfferAdminRoute>()`). */
export type OfferAdminRoute = ReturnType<typeof offerAdminRoutes>[number];
