import type { HostRuntime } from '../../contract/index.js';
import { orderApprovalAdminRoutes } from './admin-routes.js';
import { deleteCustomersApprovals } from './repository.js';
import { orderApprovalRoutes } from './routes.js';
import { APPROVAL_INTERCEPTOR, OrderApprovalUseCases } from './use-cases/index.js';
import { registerOrderApprovalStorefront } from './storefront/index.js';
import { approvalRulesRoutes } from './rules/routes.js';
import { interceptByRules } from './rules/checkout.js';
import { escalateOverdueLevels } from './rules/escalation.js';
import { deleteCustomersRules } from './rules/repository.js';
import { approvalRuleStorefrontPages } from './rules/storefront.js';

export const REMINDER_JOB = 'order-approval.remind-overdue';
const REMINDER_JOB_EVERY_SECONDS = 15 * 60;

/**
 * Order approval: approval requests, approver settings, execute/refresh/line-item edits, reminders,
 * approval rules with levels (rules/), and the checkout interceptor that sends an employee's order
 * that a rule asks approval for to /order-approval/create.
 */
export function registerOrderApproval(host: HostRuntime): void {
  const service = new OrderApprovalUseCases(host);
  for (const route of [...orderApprovalRoutes(host, service), ...approvalRulesRoutes(host)]) host.storeApi.route(route);
  for (const route of orderApprovalAdminRoutes(host)) host.adminApi.route(route);
  registerOrderApprovalStorefront(host, service);
  for (const page of approvalRuleStorefrontPages(host)) host.storefront.page(page);
  host.checkout.addInterceptor({
    name: APPROVAL_INTERCEPTOR,
    intercept: (trx, ctx, draft) => interceptByRules(host, ctx, draft, trx),
  });
  host.jobs.register(REMINDER_JOB, async () => {
    await service.remindOverdue();
    await escalateOverdueLevels(host);
  });
  host.jobs.schedule(REMINDER_JOB, REMINDER_JOB_EVERY_SECONDS);
  host.events.on('customer.deleted', async (trx, { ids }) => {
    await deleteCustomersApprovals(trx, ids);
    await deleteCustomersRules(trx, ids);
  });
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<OrderApprovalAdminRoute>()`). */
export type OrderApprovalAdminRoute = ReturnType<typeof orderApprovalAdminRoutes>[number];

export { assertOwnAddresses } from './use-cases/access.js';
export { insertApprovalFor } from './use-cases/create.js';
export { approvalNumberOf } from './repository.js';
