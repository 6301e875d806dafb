import type { HostRuntime, SalesChannel, StoreContext } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { inTransaction, isDuplicateKeyError, type Trx } from '../../../lib/db.js';
import { findEmployees } from '../../company/index.js';
import { approvalCount, isApprover, isRequester, keyOf, requiredApprovals } from '../approvers.js';
import { approvalMailData, enqueueApprovalMail, MAIL } from '../mail.js';
import {
  addActivity,
  approvalLines,
  decisionsOf,
  getApproval,
  insertDecision,
  markApproved,
  markDeclined,
  type ApprovalRow,
} from '../repository.js';
import { APPROVAL_TRANSITIONS } from '../states.js';
import { notAllowed, salesChannelOf } from './access.js';
import { declaredCustomer } from '../../declared.js';
import { passLevel } from '../rules/chain.js';
import { notifyApprovers } from './notify.js';

type Actor = { type: string; id: string | null; name: string };
const SYSTEM: Actor = { type: 'system', id: null, name: 'System' };

export interface DecisionInput {
  comment?: string | null;
  ccEmployeeIds?: string[];
  /** The level the decision is for; a level decided meanwhile refuses it (400) instead of counting it for the next. */
  level?: number;
}

/** An approver approves or declines a pending approval; enough approvals of the round approve it. */
export async function decideApproval(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  decision: 'approved' | 'declined',
  input: DecisionInput,
): Promise<void> {
  const customer = declaredCustomer(ctx);
  await inTransaction(host.db, async (trx) => {
    const approval = await getApproval(trx, customer.id, id, true);
    if (!approval) throw Errors.notFound('Order approval', id);
    if (input.level !== undefined && input.level !== approval.level && approval.status === 'pending')
      throw Errors.badRequest(
        'SUITE__ORDER_APPROVAL_LEVEL_DECIDED',
        `Level ${input.level} of this order approval is no longer open; it is at level ${approval.level}.`,
        {
          pointer: '/level',
          meta: { currentLevel: approval.level },
        },
      );
    if (!isApprover(ctx, approval))
      throw notAllowed(
        isRequester(ctx, approval)
          ? 'A requester cannot decide their own order approval.'
          : 'You are not an approver of this order approval.',
      );
    APPROVAL_TRANSITIONS.assert(approval.status, decision);
    if (decision === 'approved' && approval.isBlocked)
      throw Errors.badRequest(
        'SUITE__ORDER_APPROVAL_BLOCKED',
        'The order approval is blocked; refresh it once the products are available again.',
        { meta: { blockReasons: approval.blockReasons } },
      );
    const ccIds = input.ccEmployeeIds ?? [];
    const cc = await findEmployees(trx, customer.id, ccIds);
    const unknownCc = ccIds.findIndex((ccId) => !cc.some((e) => e.id === ccId));
    if (unknownCc >= 0)
      throw Errors.badRequest('SUITE__UNKNOWN_EMPLOYEE', 'A copied employee does not belong to this customer.', {
        pointer: `/ccEmployeeIds/${unknownCc}`,
      });
    const comment = input.comment?.trim() ? input.comment.trim() : null;
    try {
      await insertDecision(trx, {
        approvalId: approval.id,
        round: approval.round,
        level: approval.level,
        approverKey: keyOf(ctx.actor.type, ctx.actor.id),
        approver: ctx.actor,
        decision,
        comment,
        ccEmployeeIds: ccIds,
      });
    } catch (error) {
      if (isDuplicateKeyError(error))
        throw Errors.badRequest(
          'SUITE__ORDER_APPROVAL_ALREADY_DECIDED',
          'You have decided this order approval already.',
        );
      throw error;
    }
    const levelMeta = approval.levelCount > 1 ? { level: approval.level } : {};
    await addActivity(
      trx,
      approval.id,
      ctx.actor,
      decision,
      comment,
      ccIds.length ? { ccEmployeeIds: ccIds, ...levelMeta } : levelMeta,
    );
    if (decision === 'declined') {
      if ((await markDeclined(trx, approval.id)) !== 1) throw Errors.conflict();
      const salesChannel = await salesChannelOf(host, trx, approval, ctx.salesChannel);
      await enqueueApprovalMail(host, trx, {
        template: MAIL.declined,
        to: approval.requesterEmail,
        cc: cc.filter((e) => e.active).map((e) => e.email),
        salesChannel,
        dedupeKey: `order-approval:${approval.id}:declined`,
        data: {
          ...approvalMailData(
            host,
            salesChannel,
            { ...approval, status: 'declined' },
            await approvalLines(trx, approval.id),
          ),
          declinedBy: ctx.actor.name,
          comment,
        },
      });
      return;
    }
    await approveIfComplete(host, trx, approval, ctx.salesChannel, ctx.actor);
  });
}

/**
 * A pending approval whose current level has enough approvals of its round passes the level: to
 * the next one (whose approvers get the request mail), or after the last one to approved, with
 * one mail to the requester.
 */
export async function approveIfComplete(
  host: HostRuntime,
  trx: Trx,
  approval: ApprovalRow,
  fallbackChannel?: SalesChannel,
  actor: Actor = SYSTEM,
): Promise<boolean> {
  const levelDecisions = await decisionsOf(trx, approval.id, approval.round, approval.level);
  if (approvalCount(approval, levelDecisions) < requiredApprovals(approval)) return false;
  if (!APPROVAL_TRANSITIONS.allows(approval.status, 'approved')) return false;
  const next = await passLevel(trx, approval, actor);
  if (next === 'moved') return false;
  if (next) {
    await notifyApprovers(host, trx, next, await salesChannelOf(host, trx, approval, fallbackChannel), false);
    return false;
  }
  const decisions = await decisionsOf(trx, approval.id, approval.round);
  if ((await markApproved(trx, approval.id, approval.round)) !== 1) return false;
  const ccIds = [...new Set(decisions.filter((d) => d.decision === 'approved').flatMap((d) => d.ccEmployeeIds))];
  const cc = (await findEmployees(trx, approval.customerId, ccIds)).filter((e) => e.active).map((e) => e.email);
  const salesChannel = await salesChannelOf(host, trx, approval, fallbackChannel);
  await enqueueApprovalMail(host, trx, {
    template: MAIL.approved,
    to: approval.requesterEmail,
    cc,
    salesChannel,
    dedupeKey: `order-approval:${approval.id}:approved:${approval.round}`,
    data: {
      ...approvalMailData(
        host,
        salesChannel,
        { ...approval, status: 'approved' },
        await approvalLines(trx, approval.id),
      ),
      approvals: decisions
        .filter((d) => d.decision === 'approved')
        .map((d) => ({ name: d.approverName, comment: d.comment })),
    },
  });
  return true;
}
