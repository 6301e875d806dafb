import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { inTransaction } from '../../../lib/db.js';
import { currentLevel } from '../rules/chain.js';
import { addActivity, applySettingsToPending, getApproval, loadSettings, pendingApprovalIds } from '../repository.js';
import { approveIfComplete } from './decide.js';
import { notifyApprovers } from './notify.js';
import { declaredCustomer } from '../../declared.js';

/** Re-applies the customer's current settings to its pending approvals; approves those that now have enough approvals. */
export async function applySettingsToPendingApprovals(host: HostRuntime, ctx: StoreContext): Promise<number> {
  const customer = declaredCustomer(ctx);
  return inTransaction(host.db, async (trx) => {
    const settings = await loadSettings(trx, customer.id);
    let updatedCount = 0;
    for (const id of await pendingApprovalIds(trx, customer.id)) {
      const approval = await getApproval(trx, customer.id, id, true);
      if (!approval || approval.status !== 'pending') continue;
      // Only a level of "the approver settings" follows them; a rule's own approvers stay.
      const level = await currentLevel(trx, approval);
      if (!level || level.type !== 'approver-settings') continue;
      if ((await applySettingsToPending(trx, id, level.level, settings)) !== 1) continue;
      updatedCount++;
      const next = {
        ...approval,
        mode: settings.mode,
        nValue: settings.nValue,
        approverEmployeeIds: settings.approverEmployeeIds,
      };
      await addActivity(trx, id, ctx.actor, 'settings-applied', null, {
        mode: settings.mode,
        nValue: settings.nValue,
        approverEmployeeIds: settings.approverEmployeeIds,
      });
      if (!(await approveIfComplete(host, trx, next, ctx.salesChannel)))
        await notifyApprovers(host, trx, next, ctx.salesChannel, false);
    }
    return updatedCount;
  });
}
