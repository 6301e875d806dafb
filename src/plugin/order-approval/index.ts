import type { HostRuntime } from '../../host/contract.js';
import { findEmployees } from '../company/employee-directory.js';
import { approvalRequiredError } from '../company/approval-required.js';
import { orderApprovalAdminRoutes } from './admin-routes.js';
import { deleteCustomersApprovals } from './repository.js';
import { orderApprovalRoutes } from './routes.js';
import { APPROVAL_INTERCEPTOR, OrderApprovalUseCases } from './use-cases/index.js';
import { registerOrderApprovalStorefront } from './storefront/index.js';

export const REMINDER_JOB = 'order-approval.remind-overdue';
const REMINDER_JOB_EVERY_SECONDS = 15 * 60;

/**
 * Order approval: approval requests, approver settings, execute/refresh/line-item edits, reminders,
 * and the checkout interceptor that sends employees whose role requires approval to /order-approval/create.
 */
export function registerOrderApproval(host: HostRuntime): void {
  const service = new OrderApprovalUseCases(host);
  for (const route of orderApprovalRoutes(host, service)) host.storeApi.route(route);
  for (const route of orderApprovalAdminRoutes(host)) host.adminApi.route(route);
  registerOrderApprovalStorefront(host, service);
  host.checkout.addInterceptor({
    name: APPROVAL_INTERCEPTOR,
    async intercept(ctx, draft, trx) {
      if (draft.actor.type !== 'employee' || !draft.actor.id) return;
      const [employee] = await findEmployees(trx, draft.customerId, [draft.actor.id]);
      if (employee?.requiresApproval) throw approvalRequiredError('role', 'Your orders need approval: ask for one with /order-approval/create.');
    },
  });
  host.jobs.register(REMINDER_JOB, async () => {
    await service.remindOverdue();
  });
  host.jobs.schedule(REMINDER_JOB, REMINDER_JOB_EVERY_SECONDS);
  host.events.on('customer.deleted', (trx, { ids }) => deleteCustomersApprovals(trx, ids));
}
