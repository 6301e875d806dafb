import type { HostRuntime } from '../../contract/index.js';
import { deleteCustomersCostCenters } from './repository.js';
import { b2bCostCenterRoutes } from './b2b-routes.js';
import { costCenterRoutes } from './routes.js';
import { interceptCheckout } from './service.js';

export const COST_CENTER_INTERCEPTOR = 'cost-center';
export { ORDER_FIELD as COST_CENTER_ORDER_FIELD } from './service.js';

/**
 * Cost centers: a company's cost centers (CRUD), each login's default, the one chosen for the next
 * order; a checkout interceptor puts the cost center on the order (custom field, invoice line).
 */
export function registerCostCenters(host: HostRuntime): void {
  for (const route of [...costCenterRoutes(host), ...b2bCostCenterRoutes(host)]) host.storeApi.route(route);
  host.checkout.addInterceptor({
    name: COST_CENTER_INTERCEPTOR,
    intercept: (trx, ctx, draft) => interceptCheckout(ctx, draft, trx),
  });
  host.events.on('customer.deleted', (trx, { ids }) => deleteCustomersCostCenters(trx, ids));
}

export { defaultOf, selectionOf } from './repository.js';
export { costCenterRoutes } from './routes.js';
