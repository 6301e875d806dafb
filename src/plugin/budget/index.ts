import type { HostRuntime } from '../../contract/index.js';
import { budgetAdminRoutes } from './admin-routes.js';
import { deleteCustomersBudgets, releaseBudgetOrder } from './repository.js';
import { budgetRoutes } from './routes.js';
import { interceptCheckout, recordUsage } from './service.js';
import { registerBudgetStorefront } from './storefront/index.js';

export const BUDGET_INTERCEPTOR = 'budget';

/**
 * Employee budgets: CRUD and order lists, a checkout interceptor that refuses (or sends to approval)
 * orders beyond a budget under the budget row lock, an order-placed hook that records usage in
 * the same transaction, and an order-cancelled hook that releases it.
 */
export function registerBudgets(host: HostRuntime): void {
  for (const route of budgetRoutes(host)) host.storeApi.route(route);
  for (const route of budgetAdminRoutes(host)) host.adminApi.route(route);
  registerBudgetStorefront(host);
  host.checkout.addInterceptor({
    name: BUDGET_INTERCEPTOR,
    intercept: (trx, ctx, draft) => interceptCheckout(host, ctx, draft, trx),
  });
  host.checkout.onOrderPlaced((trx, ctx, order) => recordUsage(host, ctx, order, trx));
  host.checkout.onOrderCancelled((trx, _ctx, order) => releaseBudgetOrder(trx, order.id));
  host.events.on('customer.deleted', (trx, { ids }) => deleteCustomersBudgets(trx, ids));
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<BudgetAdminRoute>()`). */
export type BudgetAdminRoute = ReturnType<typeof budgetAdminRoutes>[number];

export { applicableBudgetIds, getBudget, insertBudget, replaceBudgetLinks, reservationsQuery } from './repository.js';
export { budgetExceededError, evaluateBudgets, type BudgetEvaluation } from './service.js';
