import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { inTransaction, type Trx } from '../../../lib/db.js';
import { fromMinor } from '../../../lib/money.js';
import { restartChain } from '../rules/chain.js';
import {
  addActivity,
  approvalLines,
  deleteApprovalLine,
  totalsOf,
  updateApprovalLine,
  updateOpenTotals,
  type ApprovalLine,
  type ApprovalRow,
} from '../repository.js';
import { APPROVAL_TRANSITIONS } from '../states.js';
import { editableApproval, salesChannelOf } from './access.js';
import { approveIfComplete } from './decide.js';
import { notifyApprovers } from './notify.js';
import { followReservations } from './reservations.js';
import { assertAllowedQuantities } from '../../quantity-rule/index.js';

/** An approver changes a line's quantity; the line is re-priced at today's price and stock is checked. */
export async function updateLineItem(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  lineItemId: string,
  quantity: number,
): Promise<void> {
  await ctx.ruleIds();
  await editableApproval(ctx, id, host.db, false);
  const lines = await approvalLines(host.db, id);
  const line = lines.find((l) => l.id === lineItemId);
  if (!line) throw Errors.notFound('Line item', lineItemId);
  await assertAllowedQuantities(host.db, [
    { productId: line.productId, quantity, label: line.label, pointer: '/quantity' },
  ]);
  let unitNet = line.unitNet;
  let taxRateBp = line.taxRateBp;
  let totalNet = line.unitNet * quantity;
  if (line.productId) {
    const [product] = await host.catalog.products(host.db, [line.productId]);
    if (!product || !product.active)
      throw Errors.badRequest('SUITE__PRODUCT_NOT_AVAILABLE', `"${line.label}" is no longer available.`, {
        pointer: '/quantity',
      });
    const others = lines
      .filter((l) => l.id !== line.id && l.productId === line.productId)
      .reduce((sum, l) => sum + l.quantity, 0);
    if (others + quantity > product.stock)
      throw Errors.badRequest(
        'SUITE__PRODUCT_OUT_OF_STOCK',
        `Only ${product.stock} of "${product.name}" are in stock.`,
        { pointer: '/quantity', meta: { stock: product.stock } },
      );
    const price = await host.prices.calculate(host.db, ctx, product, quantity);
    unitNet = price.unitNet;
    totalNet = price.totalNet;
    taxRateBp = price.taxRateBp;
  }
  await inTransaction(host.db, async (trx) => {
    const locked = await editableApproval(ctx, id, trx, true);
    const current = await approvalLines(trx, id);
    const target = current.find((l) => l.id === lineItemId);
    if (!target) throw Errors.notFound('Line item', lineItemId);
    if (target.productId !== line.productId) throw Errors.conflict();
    await updateApprovalLine(trx, id, lineItemId, { quantity, unitNet, totalNet, taxRateBp });
    const next = current.map((l) => (l.id === lineItemId ? { ...l, quantity, unitNet, totalNet, taxRateBp } : l));
    await afterLineChange(host, ctx, trx, locked, next, 'line-item-updated', null, {
      lineItemId,
      label: target.label,
      oldQuantity: target.quantity,
      newQuantity: quantity,
    });
  });
}

/** An approver removes a line (with a reason); the last line cannot go — decline instead. */
export async function deleteLineItem(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  lineItemId: string,
  reason: string,
): Promise<void> {
  await inTransaction(host.db, async (trx) => {
    const approval = await editableApproval(ctx, id, trx, true);
    const current = await approvalLines(trx, id);
    const target = current.find((l) => l.id === lineItemId);
    if (!target) throw Errors.notFound('Line item', lineItemId);
    if (current.length === 1)
      throw Errors.badRequest(
        'SUITE__ORDER_APPROVAL_LAST_LINE_ITEM',
        'The last line item cannot be deleted; decline the order approval instead.',
      );
    await deleteApprovalLine(trx, id, lineItemId);
    const next = current.filter((l) => l.id !== lineItemId);
    await afterLineChange(host, ctx, trx, approval, next, 'line-item-deleted', reason.trim(), {
      lineItemId,
      label: target.label,
      productId: target.productId,
      quantity: target.quantity,
    });
  });
}

/** Totals, reservations and the activity log follow a line edit; a higher total needs new decisions. */
async function afterLineChange(
  host: HostRuntime,
  ctx: StoreContext,
  trx: Trx,
  approval: ApprovalRow,
  lines: ApprovalLine[],
  action: string,
  comment: string | null,
  metadata: Record<string, unknown>,
): Promise<void> {
  await followReservations(host, ctx, trx, approval, lines, true);
  const totals = totalsOf(lines);
  const rises = totals.total > approval.total;
  if (rises && approval.status !== 'pending') APPROVAL_TRANSITIONS.assert(approval.status, 'pending');
  const round = rises ? approval.round + 1 : approval.round;
  await updateOpenTotals(trx, approval.id, { totals, round, reopen: rises });
  const precision = ctx.salesChannel.currencyPrecision;
  await addActivity(trx, approval.id, ctx.actor, action, comment, {
    ...metadata,
    oldTotal: fromMinor(approval.total, precision),
    newTotal: fromMinor(totals.total, precision),
    requiresReapproval: rises,
  });
  let updated = { ...approval, ...totals, round, status: rises ? ('pending' as const) : approval.status };
  if (rises) updated = await restartChain(trx, updated);
  if (rises)
    await notifyApprovers(host, trx, updated, await salesChannelOf(host, trx, approval, ctx.salesChannel), true);
  else if (updated.status === 'pending') await approveIfComplete(host, trx, updated, ctx.salesChannel);
}
