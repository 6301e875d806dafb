import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import type { Trx } from '../../../lib/db.js';
import { budgetExceededError, evaluateBudgets } from '../../budget/index.js';
import {
  releaseReservations,
  reservedBudgetIds,
  updateReservation,
  type ApprovalLine,
  type ApprovalRow,
} from '../repository.js';
import { salesChannelOf } from './access.js';

/**
 * Keeps the approval's budget reservations equal to its lines. With `strict`, a budget that refuses
 * orders beyond it refuses the change (400); otherwise that becomes a block reason.
 */
export async function followReservations(
  host: HostRuntime,
  ctx: StoreContext,
  trx: Trx,
  approval: ApprovalRow,
  lines: ApprovalLine[],
  strict: boolean,
): Promise<string[]> {
  const budgetIds = await reservedBudgetIds(trx, approval.id);
  if (budgetIds.length === 0) return [];
  const salesChannel = await salesChannelOf(host, trx, approval, ctx.salesChannel);
  const evaluations = await evaluateBudgets(host, trx, {
    customerId: approval.customerId,
    budgetIds,
    lines,
    currencyIso: approval.currencyIso,
    timeZone: salesChannel.timeZone,
    excludeApprovalId: approval.id,
  });
  const reasons: string[] = [];
  const evaluated = new Set<string>();
  for (const e of evaluations) {
    evaluated.add(e.budget.id);
    if (e.exceeds && !e.budget.allowApproval) {
      if (strict) throw budgetExceededError(e, salesChannel.currencyPrecision);
      reasons.push(`The budget "${e.budget.name}" would be exceeded.`);
    }
    await updateReservation(trx, approval.id, { budgetId: e.budget.id, amount: e.relevant, exceeds: e.exceeds });
  }
  await releaseReservations(
    trx,
    approval.id,
    budgetIds.filter((b) => !evaluated.has(b)),
  );
  return reasons;
}
