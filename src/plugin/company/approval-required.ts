import { Errors } from '../../lib/errors.js';

export const CREATE_APPROVAL_PATH = '/store-api/order-approval/create';

/** The checkout refusal that tells the client to ask for approval instead. */
export function approvalRequiredError(
  reason: 'role' | 'budget' | 'rule',
  detail: string,
  meta: Record<string, unknown> = {},
) {
  return Errors.badRequest('SUITE__ORDER_APPROVAL_REQUIRED', detail, {
    meta: { reason, createApproval: { method: 'POST', path: CREATE_APPROVAL_PATH }, ...meta },
  });
}
