import type { HostRuntime, PriceLine, StoreContext } from '../../../contract/index.js';
import { AppError, Errors } from '../../../lib/errors.js';
import { inTransaction } from '../../../lib/db.js';
import { isCompanyAdmin, isRequester } from '../approvers.js';
import {
  addActivity,
  approvalLines,
  claimForOrdering,
  getApproval,
  markOrdered,
  type ApprovalRow,
  type ExecutionResult,
} from '../repository.js';
import { APPROVAL_TRANSITIONS } from '../states.js';
import { notAllowed, salesChannelOf, visibleApproval } from './access.js';
import { refreshApproval, type RefreshResult } from './refresh.js';
import { declaredCustomer } from '../../declared.js';

export const APPROVAL_INTERCEPTOR = 'order-approval';
/** Payment methods that need nothing more from the customer after the order. */
const OFFLINE_PAYMENT_METHODS = new Set(['invoice', 'prepayment', 'cash-on-delivery']);

/**
 * Places the order of an approved approval (approved → ordering → ordered). A repeated execute
 * answers the first one's result; unless `skipRefresh`, prices and stock are refreshed first and a
 * rise or block refuses the order.
 */
export async function executeApproval(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  input: { skipRefresh?: boolean },
): Promise<ExecutionResult> {
  const customer = declaredCustomer(ctx);
  let approval = await visibleApproval(host, ctx, id);
  if (!isRequester(ctx, approval) && !isCompanyAdmin(ctx))
    throw notAllowed('Only the requester or a company admin may execute an order approval.');
  if (approval.status === 'ordered' && approval.executionResult) return approval.executionResult;
  assertExecutable(approval);
  if (!input.skipRefresh) {
    let refreshed: RefreshResult | null = null;
    try {
      refreshed = await refreshApproval(host, ctx, id, { force: true });
    } catch (error) {
      const now = await getApproval(host.db, customer.id, id);
      if (now?.status === 'ordered' && now.executionResult) return now.executionResult;
      throw error;
    }
    if (refreshed.isBlocked)
      throw Errors.badRequest(
        'SUITE__ORDER_APPROVAL_BLOCKED',
        `The order approval cannot be ordered: ${refreshed.blockReasons.join(' ')}`,
        { meta: { refreshResult: refreshed } },
      );
    if (refreshed.requiresReapproval)
      throw Errors.badRequest(
        'SUITE__ORDER_APPROVAL_REAPPROVAL_REQUIRED',
        'Prices have risen since the approval; it needs to be approved again.',
        { meta: { refreshResult: refreshed } },
      );
    approval = (await getApproval(host.db, customer.id, id))!;
    if (approval.status === 'ordered' && approval.executionResult) return approval.executionResult;
    assertExecutable(approval);
  }
  await ctx.ruleIds();
  try {
    return await inTransaction(host.db, async (trx) => {
      if ((await claimForOrdering(trx, customer.id, id)) !== 1) {
        const current = (await getApproval(trx, customer.id, id))!;
        if (current.status === 'ordered' && current.executionResult) return current.executionResult;
        assertExecutable(current);
        throw Errors.conflict();
      }
      // Re-read after the claim: an update may have changed addresses or comment since the first read.
      const claimedRow = (await getApproval(trx, customer.id, id))!;
      const lines: PriceLine[] = (await approvalLines(trx, id)).map((l) => ({
        lineItemId: l.id,
        productId: l.productId,
        productNumber: l.productNumber,
        label: l.label,
        type: l.type,
        quantity: l.quantity,
        unitNet: l.unitNet,
        totalNet: l.totalNet,
        taxRateBp: l.taxRateBp,
        payload: l.payload,
      }));
      const placed = await host.checkout.placeOrder(trx, ctx, {
        lines,
        billingAddressId: claimedRow.billingAddressId,
        shippingAddressId: claimedRow.shippingAddressId,
        paymentMethod: claimedRow.paymentMethod,
        shippingMethod: claimedRow.shippingMethod,
        customerComment: claimedRow.customerComment,
        origin: APPROVAL_INTERCEPTOR,
        skipInterceptors: [APPROVAL_INTERCEPTOR],
        customFields: { orderApprovalId: claimedRow.id, orderApprovalNumber: claimedRow.approvalNumber },
      });
      const order = await host.orders.get(trx, placed.id);
      const paymentMethod = order?.transactions[0]?.paymentMethod.technicalName ?? 'invoice';
      const requiresPaymentAction = !OFFLINE_PAYMENT_METHODS.has(paymentMethod);
      const salesChannel = await salesChannelOf(host, trx, claimedRow, ctx.salesChannel);
      const result: ExecutionResult = {
        success: true,
        orderId: placed.id,
        orderNumber: placed.orderNumber,
        ...(requiresPaymentAction
          ? { paymentUrl: host.storefront.url(salesChannel, `/account/order/${placed.id}/payment`) }
          : {}),
        requiresPaymentAction,
        errors: [],
        warnings: [],
      };
      APPROVAL_TRANSITIONS.assert(claimedRow.status, 'ordered');
      if ((await markOrdered(trx, id, placed, result)) !== 1) throw Errors.conflict();
      await addActivity(trx, id, ctx.actor, 'executed', null, { orderId: placed.id, orderNumber: placed.orderNumber });
      return result;
    });
  } catch (error) {
    // The host refused the order (stock, product or address gone): nothing was written, the approval stays approved.
    if (
      error instanceof AppError &&
      error.status < 500 &&
      error.status !== 409 &&
      !error.code.startsWith('SUITE__ORDER_APPROVAL_')
    ) {
      const result: ExecutionResult = {
        success: false,
        requiresPaymentAction: false,
        errorMessage: error.message,
        errors: [error.code],
        warnings: [],
      };
      // The host's refusal keeps its details beside the execution result (a quantity rule's allowed quantities, the stock left).
      const refusal = { code: error.code, ...error.options.meta };
      throw Errors.badRequest(
        'SUITE__ORDER_APPROVAL_EXECUTION_FAILED',
        `The order could not be placed: ${error.message}`,
        { meta: { executionResult: result, refusal } },
      );
    }
    throw error;
  }
}

/** approved → ordering is allowed, and the approval is not blocked. */
function assertExecutable(approval: ApprovalRow): void {
  APPROVAL_TRANSITIONS.assert(approval.status, 'ordering');
  if (approval.isBlocked)
    throw Errors.badRequest(
      'SUITE__ORDER_APPROVAL_BLOCKED',
      `The order approval cannot be ordered: ${approval.blockReasons.join(' ')}`,
      { meta: { blockReasons: approval.blockReasons } },
    );
}
