import type { HostRuntime, SalesChannel } from '../../../contract/index.js';
import type { Trx } from '../../../lib/db.js';
import { findEmployees } from '../../company/index.js';
import { approverEntries, keyOf, requesterKey } from '../approvers.js';
import { approvalMailData, enqueueApprovalMail, MAIL } from '../mail.js';
import { approvalLines, exceededBudgetApproverIds, type ApprovalRow } from '../repository.js';

/** The "approval requested" mail to every approver who can decide it (and the approvers of budgets it exceeds). */
export async function notifyApprovers(
  host: HostRuntime,
  trx: Trx,
  approval: ApprovalRow,
  salesChannel: SalesChannel,
  reapproval: boolean,
): Promise<void> {
  const entries = (await approverEntries(host, trx, approval)).filter(
    (e) => e.eligible && e.key !== requesterKey(approval),
  );
  const budgetApprovers = await exceededBudgetApproverIds(trx, approval.id);
  const known = new Set(entries.map((e) => e.key));
  for (const e of await findEmployees(trx, approval.customerId, budgetApprovers)) {
    if (e.active && !known.has(keyOf('employee', e.id)) && keyOf('employee', e.id) !== requesterKey(approval))
      entries.push({
        key: keyOf('employee', e.id),
        type: 'employee',
        id: e.id,
        name: e.name,
        email: e.email,
        eligible: true,
      });
  }
  const data = approvalMailData(host, salesChannel, approval, await approvalLines(trx, approval.id));
  for (const entry of entries) {
    await enqueueApprovalMail(host, trx, {
      template: MAIL.requested,
      to: entry.email,
      salesChannel,
      dedupeKey: `order-approval:${approval.id}:requested:${approval.round}:${approval.level > 1 ? `level${approval.level}:` : ''}${entry.key}`,
      data: { ...data, recipientName: entry.name, reapproval },
    });
  }
}
