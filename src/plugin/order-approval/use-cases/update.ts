import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { inTransaction } from '../../../lib/db.js';
import { isCompanyAdmin, isRequester } from '../approvers.js';
import { addActivity, updateOpenDetails } from '../repository.js';
import { isChangeable } from '../states.js';
import { assertOwnAddresses, notAllowed, visibleApproval } from './access.js';
import { declaredCustomer } from '../../declared.js';

export interface ApprovalDetails {
  customerComment?: string | null;
  billingAddressId?: string | null;
  shippingAddressId?: string | null;
}

/** The requester (or a company admin) changes comment and addresses while the approval is open. */
export async function updateApprovalDetails(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  body: ApprovalDetails,
): Promise<void> {
  const customer = declaredCustomer(ctx);
  await assertOwnAddresses(host, customer.id, body);
  await inTransaction(host.db, async (trx) => {
    const approval = await visibleApproval(host, ctx, id, trx, true);
    if (!isRequester(ctx, approval) && !isCompanyAdmin(ctx))
      throw notAllowed('Only the requester or a company admin may change an order approval.');
    if (!isChangeable(approval.status))
      throw Errors.badRequest(
        'SUITE__ORDER_APPROVAL_NOT_UPDATABLE',
        `The order approval is ${approval.status}; it can no longer change.`,
      );
    await updateOpenDetails(trx, id, body);
    await addActivity(trx, id, ctx.actor, 'updated', null, { fields: Object.keys(body) });
  });
}
