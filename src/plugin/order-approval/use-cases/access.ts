import type { HostRuntime, SalesChannel, StoreContext } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import type { Executor } from '../../../lib/db.js';
import { canView, isApprover, isCompanyAdmin, isRequester } from '../approvers.js';
import { getApproval, type ApprovalRow } from '../repository.js';
import { isChangeable } from '../states.js';
import { declaredCustomer } from '../../declared.js';

export const notAllowed = (detail = 'You are not allowed to do this with this order approval.') =>
  Errors.forbidden(detail, 'SUITE__ORDER_APPROVAL_NOT_ALLOWED');

/** Loads an approval of the caller's customer (404 otherwise) that the caller may see (403 otherwise). */
export async function visibleApproval(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  executor: Executor = host.db,
  lock = false,
): Promise<ApprovalRow> {
  const customer = declaredCustomer(ctx);
  const approval = await getApproval(executor, customer.id, id, lock);
  if (!approval) throw Errors.notFound('Order approval', id);
  if (!canView(ctx, approval)) throw notAllowed('You are not allowed to see this order approval.');
  return approval;
}

/** An approval whose lines the caller may change: an approver, or a company admin who did not request it. */
export async function editableApproval(
  ctx: StoreContext,
  id: string,
  executor: Executor,
  lock: boolean,
): Promise<ApprovalRow> {
  const customer = declaredCustomer(ctx);
  const approval = await getApproval(executor, customer.id, id, lock);
  if (!approval) throw Errors.notFound('Order approval', id);
  if (!isApprover(ctx, approval) && !(isCompanyAdmin(ctx) && !isRequester(ctx, approval)))
    throw notAllowed('Only an approver may change the line items of an order approval.');
  if (!isChangeable(approval.status))
    throw Errors.badRequest(
      'SUITE__ORDER_APPROVAL_NOT_EDITABLE',
      `The order approval is ${approval.status}; its line items can no longer change.`,
    );
  return approval;
}

/** The approval's own sales channel (mails link there), the request's when it is the same one. */
export async function salesChannelOf(
  host: HostRuntime,
  executor: Executor,
  approval: ApprovalRow,
  fallback?: SalesChannel,
): Promise<SalesChannel> {
  if (fallback && fallback.id === approval.salesChannelId) return fallback;
  const channel = await host.customers.salesChannel(executor, approval.salesChannelId);
  if (channel) return channel;
  if (fallback) return fallback;
  throw new Error(`sales channel ${approval.salesChannelId} of approval ${approval.id} is gone`);
}

/** The customer's addresses are the only ones an approval may name. */
export async function assertOwnAddresses(
  host: HostRuntime,
  customerId: string,
  body: { billingAddressId?: string | null; shippingAddressId?: string | null },
): Promise<void> {
  const addresses = new Set((await host.customers.addresses(host.db, customerId)).map((a) => a.id));
  for (const field of ['billingAddressId', 'shippingAddressId'] as const) {
    const addressId = body[field];
    if (addressId && !addresses.has(addressId))
      throw Errors.badRequest('SUITE__UNKNOWN_ADDRESS', 'The address does not belong to your account.', {
        pointer: `/${field}`,
      });
  }
}
