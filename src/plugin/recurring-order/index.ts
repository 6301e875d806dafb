import type { HostRuntime } from '../../host/contract.js';
import { placeDueOccurrences } from './placement.js';
import { RECURRING_ORDERS } from './repository.js';
import { recurringOrderRoutes } from './routes.js';
import { RecurringOrderService } from './service.js';
import { recurringOrderStorefrontPages } from './storefront.js';

export { placeDueOccurrences, type MissedPolicy, type PlacementSummary } from './placement.js';

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
  // The schedule runs it with no payload (now); an operator may queue it with `now` (ISO) to catch up as of a time.
  host.jobs.register(PLACE_DUE_JOB, async (payload, runtime) => {
    const now =
      typeof payload.now === 'string' && !Number.isNaN(Date.parse(payload.now)) ? new Date(payload.now) : undefined;
    await placeDueOccurrences(runtime, { now });
  });
  host.jobs.schedule(PLACE_DUE_JOB, PLACE_DUE_EVERY_SECONDS);
  host.events.on('customer.deleted', async (trx, { ids }) => {
    await trx(RECURRING_ORDERS).whereIn('customer_id', ids).delete();
  });
}
