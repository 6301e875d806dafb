import type { HostRuntime, SalesChannel, StoreContext } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { inTransaction, type Trx } from '../../../lib/db.js';
import { addSeconds, now, toDbTime } from '../../../lib/time.js';
import { approverEntries, isCompanyAdmin, isRequester, requesterKey, type ApproverEntry } from '../approvers.js';
import { approvalMailData, enqueueApprovalMail, MAIL } from '../mail.js';
import {
  addActivity,
  approvalLines,
  claimReminder,
  decisionsOf,
  getApproval,
  overdueApprovals,
  type ApprovalRow,
} from '../repository.js';
import { notAllowed, salesChannelOf, visibleApproval } from './access.js';

/** The requester (or a company admin) reminds one or all approvers who have not decided yet. */
export async function remindApprovers(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  approverId: string | null,
): Promise<number> {
  const approval = await visibleApproval(host, ctx, id);
  if (!isRequester(ctx, approval) && !isCompanyAdmin(ctx))
    throw notAllowed('Only the requester or a company admin may send reminders.');
  const entries = await approverEntries(host, host.db, approval);
  let targets = entries;
  if (approverId !== null) {
    targets = entries.filter((e) => e.id === approverId);
    if (targets.length === 0) throw Errors.notFound('Approver', approverId);
  }
  if (approval.status !== 'pending')
    throw Errors.badRequest(
      'SUITE__ORDER_APPROVAL_NOT_REMINDABLE',
      `The order approval is ${approval.status}; reminders are for pending ones.`,
    );
  const interval = await reminderInterval(host);
  return inTransaction(host.db, async (trx) => {
    const sent = await sendReminders(host, trx, approval, targets, interval, ctx.salesChannel);
    if (sent.length) await addActivity(trx, id, ctx.actor, 'reminded', null, { approverIds: sent.map((e) => e.id) });
    return sent.length;
  });
}

/** The scheduled job: reminds approvers of approvals pending for longer than the interval. */
export async function remindOverdue(host: HostRuntime, limit = 200): Promise<number> {
  const interval = await reminderInterval(host);
  const cutoff = toDbTime(addSeconds(now(), -interval));
  let total = 0;
  for (const row of await overdueApprovals(host.db, cutoff, limit)) {
    total += await inTransaction(host.db, async (trx) => {
      const approval = await getApproval(trx, row.customerId, row.id);
      if (!approval || approval.status !== 'pending') return 0;
      const sent = await sendReminders(host, trx, approval, await approverEntries(host, trx, approval), interval);
      if (sent.length)
        await addActivity(trx, approval.id, { type: 'system', id: null, name: 'System' }, 'reminded', null, {
          approverIds: sent.map((e) => e.id),
          automatic: true,
        });
      return sent.length;
    });
  }
  return total;
}

/** Read outside transactions: settings come from the root connection (SQLite has only one). */
async function reminderInterval(host: HostRuntime): Promise<number> {
  return Number(await host.config.get<number>('approvalReminderIntervalSeconds'));
}

/** Mails the still-pending approvers among `targets`, at most once per approver per interval. */
async function sendReminders(
  host: HostRuntime,
  trx: Trx,
  approval: ApprovalRow,
  targets: ApproverEntry[],
  interval: number,
  fallbackChannel?: SalesChannel,
): Promise<ApproverEntry[]> {
  const decided = new Set(
    (await decisionsOf(trx, approval.id, approval.round, approval.level)).map((d) => d.approverKey),
  );
  const due = targets.filter((e) => e.eligible && e.email && !decided.has(e.key) && e.key !== requesterKey(approval));
  if (due.length === 0) return [];
  const salesChannel = await salesChannelOf(host, trx, approval, fallbackChannel);
  const data = approvalMailData(host, salesChannel, approval, await approvalLines(trx, approval.id));
  const sent: ApproverEntry[] = [];
  for (const entry of due) {
    if (!(await claimReminder(trx, approval.id, entry.key, interval))) continue;
    await enqueueApprovalMail(host, trx, {
      template: MAIL.reminder,
      to: entry.email,
      salesChannel,
      data: { ...data, recipientName: entry.name },
    });
    sent.push(entry);
  }
  return sent;
}
