import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import type { Executor } from '../../../lib/db.js';
import { activitiesOf, type ActivityView, type ApprovalRow, type ExecutionResult } from '../repository.js';
import { visibleApproval } from './access.js';
import { createApproval, type CreateApprovalInput } from './create.js';
import { decideApproval, type DecisionInput } from './decide.js';
import { executeApproval } from './execute.js';
import { deleteLineItem, updateLineItem } from './line-items.js';
import { refreshApproval, type RefreshResult } from './refresh.js';
import { remindApprovers, remindOverdue } from './reminders.js';
import { applySettingsToPendingApprovals } from './settings.js';
import { updateApprovalDetails, type ApprovalDetails } from './update.js';

export { APPROVAL_INTERCEPTOR } from './execute.js';
export type { RefreshResult } from './refresh.js';

/**
 * The order approval use cases bound to the host, for routes, storefront pages and jobs. Each one
 * lives in its own module of this folder; this is only the table of contents.
 */
export class OrderApprovalUseCases {
  constructor(private readonly host: HostRuntime) {}

  visible = (ctx: StoreContext, id: string, executor?: Executor, lock?: boolean): Promise<ApprovalRow> =>
    visibleApproval(this.host, ctx, id, executor, lock);
  create = (ctx: StoreContext, body: CreateApprovalInput): Promise<string> => createApproval(this.host, ctx, body);
  decide = (ctx: StoreContext, id: string, decision: 'approved' | 'declined', input: DecisionInput): Promise<void> =>
    decideApproval(this.host, ctx, id, decision, input);
  refresh = (
    ctx: StoreContext,
    id: string,
    input: { force?: boolean; sendEmailOnChanges?: boolean },
  ): Promise<RefreshResult> => refreshApproval(this.host, ctx, id, input);
  execute = (ctx: StoreContext, id: string, input: { skipRefresh?: boolean }): Promise<ExecutionResult> =>
    executeApproval(this.host, ctx, id, input);
  updateLineItem = (ctx: StoreContext, id: string, lineItemId: string, quantity: number): Promise<void> =>
    updateLineItem(this.host, ctx, id, lineItemId, quantity);
  deleteLineItem = (ctx: StoreContext, id: string, lineItemId: string, reason: string): Promise<void> =>
    deleteLineItem(this.host, ctx, id, lineItemId, reason);
  update = (ctx: StoreContext, id: string, body: ApprovalDetails): Promise<void> =>
    updateApprovalDetails(this.host, ctx, id, body);
  remind = (ctx: StoreContext, id: string, approverId: string | null): Promise<number> =>
    remindApprovers(this.host, ctx, id, approverId);
  remindOverdue = (limit?: number): Promise<number> => remindOverdue(this.host, limit);
  updatePending = (ctx: StoreContext): Promise<number> => applySettingsToPendingApprovals(this.host, ctx);
  activities = async (ctx: StoreContext, id: string): Promise<ActivityView[]> =>
    activitiesOf(this.host.db, (await visibleApproval(this.host, ctx, id)).id);
}
