import type { HostRuntime } from '../../contract/index.js';
import { recurringOrderAdminRoutes } from './admin-routes.js';
import { catchUpDueOccurrences, placeDueOccurrences } from './placement.js';
import { deleteCustomersRecurringOrders } from './repository.js';
import { recurringOrderRoutes } from './routes.js';
import { RecurringOrderService } from './service.js';
import { recurringOrderStorefrontPages } from './storefront.js';

export { catchUpDueOccurrences, placeDueOccurrences, type MissedPolicy, type PlacementSummary } from './placement.js';

export const PLACE_DUE_JOB = 'recurring-order.place-due';
const PLACE_DUE_EVERY_SECONDS = 5 * 60;

/**
 * Recurring orders: a buyer turns the cart or a product list into an order repeated every N days,
 * weeks or months; the job worker places each occurrence through the checkout on the buyer's behalf.
 */
export function registerRecurringOrders(host: HostRuntime): void {
  const service = new RecurringOrderService(host);
  for (const route of recurringOrderRoutes(service)) host.storeApi.route(route);
  for (const page of recurringOrderStorefrontPages(host, service)) host.storefront.page(page);
  for (const route of recurringOrderAdminRoutes(host)) host.adminApi.route(route);
  // The schedule runs it with no payload (now, one batch); an operator queues it with `now` (ISO) and
  // `missed` to catch up as of a time (CLI `recurring-orders:place-due`): then every batch is placed.
  host.jobs.register(PLACE_DUE_JOB, async ({ payload, host: runtime }) => {
    const now =
      typeof payload.now === 'string' && !Number.isNaN(Date.parse(payload.now)) ? new Date(payload.now) : undefined;
    const missed = payload.missed === 'place-once' || payload.missed === 'skip' ? payload.missed : undefined;
    if (!now && !missed) {
      await placeDueOccurrences(runtime, {});
      return;
    }
    const result = await catchUpDueOccurrences(runtime, { now, missed });
    runtime.log.info({ job: PLACE_DUE_JOB, now: now?.toISOString(), ...result }, 'recurring orders caught up');
  });
  host.jobs.schedule(PLACE_DUE_JOB, PLACE_DUE_EVERY_SECONDS);
  host.events.on('customer.deleted', async (trx, { ids }) => {
    await deleteCustomersRecurringOrders(trx, ids);
  });
}
