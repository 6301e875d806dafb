import { Errors } from '../../lib/errors.js';
import { defineTransitions } from '../../lib/transitions.js';
import type { ApprovalStatus } from './repository.js';

/**
 * Which status changes an order approval allows. Approving or declining decides a pending one; a
 * line edit, settings change or refresh that raises the total sends an approved one back to pending
 * (re-approval); executing claims an approved one (`ordering`) and finishes it (`ordered`). When the
 * host refuses the order, the transaction rolls back and the approval never left `approved`.
 */
export const APPROVAL_TRANSITIONS = defineTransitions<ApprovalStatus>(
  {
    pending: ['approved', 'declined'],
    approved: ['pending', 'ordering'],
    ordering: ['ordered'],
    declined: [],
    ordered: [],
  },
  (from, to) => {
    switch (to) {
      case 'approved':
        return Errors.badRequest(
          'SUITE__ORDER_APPROVAL_NOT_APPROVABLE',
          `The order approval is ${from}; only a pending one can be approved.`,
        );
      case 'declined':
        return Errors.badRequest(
          'SUITE__ORDER_APPROVAL_NOT_DECLINABLE',
          `The order approval is ${from}; only a pending one can be declined.`,
        );
      case 'ordering':
      case 'ordered':
        return Errors.badRequest(
          'SUITE__ORDER_APPROVAL_NOT_EXECUTABLE',
          `The order approval is ${from}; only an approved one can be ordered.`,
        );
      case 'pending':
        return Errors.badRequest(
          'SUITE__ORDER_APPROVAL_NOT_EDITABLE',
          `The order approval is ${from}; it can no longer change.`,
        );
    }
  },
);

/**
 * Statuses in which lines, prices, addresses and comment may still change: the approval has not been
 * declined or ordered. A change that raises the total needs the `→ pending` transition above.
 */
export const CHANGEABLE_STATUSES: readonly ApprovalStatus[] = ['pending', 'approved'];

export function isChangeable(status: ApprovalStatus): boolean {
  return CHANGEABLE_STATUSES.includes(status);
}
