import type { HostRuntime, ProductRecord, StoreContext } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { inTransaction, type Trx } from '../../../lib/db.js';
import { fromMinor } from '../../../lib/money.js';
import { addSeconds, fromDbTime, nowDb, nowMs } from '../../../lib/time.js';
import { approvalMailData, enqueueApprovalMail, MAIL } from '../mail.js';
import { restartChain } from '../rules/chain.js';
import {
  addActivity,
  approvalLines,
  totalsOf,
  updateApprovalLine,
  updateOpenTotals,
  type ApprovalLine,
  type ApprovalRow,
} from '../repository.js';
import { APPROVAL_TRANSITIONS, isChangeable } from '../states.js';
import { salesChannelOf, visibleApproval } from './access.js';
import { notifyApprovers } from './notify.js';
import { followReservations } from './reservations.js';

export interface RefreshResult {
  isValid: boolean;
  isBlocked: boolean;
  blockReasons: string[];
  hasChanges: boolean;
  changes: Array<Record<string, unknown>>;
  requiresReapproval: boolean;
}

interface LineQuote {
  product: ProductRecord | null;
  unitNet: number | null;
  totalNet: number | null;
  taxRateBp: number | null;
  outOfStock: boolean;
}

const lineSignature = (lines: ApprovalLine[]) => lines.map((l) => `${l.id}:${l.productId}:${l.quantity}`).join('|');
const RETRY = Symbol('retry');

/**
 * Re-prices the approval's lines at today's prices, stock and budgets; a higher total needs new
 * decisions (→ pending), missing products or stock block it. Products are read outside the
 * transaction; the lines are compared again under the lock and the whole refresh retried if they moved.
 */
export async function refreshApproval(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  input: { force?: boolean; sendEmailOnChanges?: boolean },
): Promise<RefreshResult> {
  await ctx.ruleIds();
  const interval = Number(await host.config.get<number>('approvalRefreshMinIntervalSeconds'));
  for (let attempt = 0; attempt < 3; attempt++) {
    const approval = await visibleApproval(host, ctx, id);
    assertRefreshable(approval, input.force === true, interval);
    const lines = await approvalLines(host.db, id);
    const quotes = await quote(host, ctx, lines);
    const result = await inTransaction(host.db, async (trx) => {
      const locked = await visibleApproval(host, ctx, id, trx, true);
      assertRefreshable(locked, input.force === true, interval);
      const current = await approvalLines(trx, id);
      if (lineSignature(current) !== lineSignature(lines)) return RETRY;
      return applyRefresh(host, ctx, trx, locked, current, quotes, input.sendEmailOnChanges === true);
    });
    if (result !== RETRY) return result;
  }
  throw Errors.conflict('The order approval keeps changing; retry.');
}

/** Today's product, stock and price for every product line (read outside any transaction). */
async function quote(host: HostRuntime, ctx: StoreContext, lines: ApprovalLine[]): Promise<Map<string, LineQuote>> {
  const ids = [...new Set(lines.map((l) => l.productId).filter((id): id is string => !!id))];
  const products = new Map((await host.catalog.products(host.db, ids)).map((p) => [p.id, p]));
  const wanted = new Map<string, number>();
  for (const l of lines) if (l.productId) wanted.set(l.productId, (wanted.get(l.productId) ?? 0) + l.quantity);
  const quotes = new Map<string, LineQuote>();
  for (const line of lines) {
    if (!line.productId) continue;
    const product = products.get(line.productId);
    if (!product || !product.active) {
      quotes.set(line.id, { product: null, unitNet: null, totalNet: null, taxRateBp: null, outOfStock: false });
      continue;
    }
    const price = await host.prices.calculate(host.db, ctx, product, line.quantity);
    quotes.set(line.id, {
      product,
      unitNet: price.unitNet,
      totalNet: price.totalNet,
      taxRateBp: price.taxRateBp,
      outOfStock: (wanted.get(product.id) ?? 0) > product.stock,
    });
  }
  return quotes;
}

function assertRefreshable(approval: ApprovalRow, force: boolean, intervalSeconds: number): void {
  if (!isChangeable(approval.status))
    throw Errors.badRequest(
      'SUITE__ORDER_APPROVAL_NOT_REFRESHABLE',
      `The order approval is ${approval.status}; only pending and approved ones can be refreshed.`,
    );
  if (force || !approval.lastRefreshedAt) return;
  const next = addSeconds(new Date(fromDbTime(approval.lastRefreshedAt)!), intervalSeconds);
  const wait = Math.ceil((next.getTime() - nowMs()) / 1000);
  if (wait > 0)
    throw Errors.badRequest(
      'SUITE__ORDER_APPROVAL_REFRESH_TOO_SOON',
      `The order approval was refreshed recently; retry in ${wait} seconds or send force.`,
      { pointer: '/force', meta: { retryAfter: wait } },
    );
}

async function applyRefresh(
  host: HostRuntime,
  ctx: StoreContext,
  trx: Trx,
  approval: ApprovalRow,
  lines: ApprovalLine[],
  quotes: Map<string, LineQuote>,
  sendEmailOnChanges: boolean,
): Promise<RefreshResult> {
  const precision = ctx.salesChannel.currencyPrecision;
  const money = (minor: number) => fromMinor(minor, precision);
  const changes: Array<Record<string, unknown>> = [];
  const blockReasons: string[] = [];
  const next: ApprovalLine[] = [];
  for (const line of lines) {
    const quote = quotes.get(line.id);
    const base = {
      lineItemId: line.id,
      productId: line.productId,
      productNumber: line.productNumber,
      label: line.label,
      quantity: line.quantity,
    };
    if (!quote) {
      next.push(line);
      continue;
    }
    if (!quote.product) {
      changes.push({ ...base, type: 'product-unavailable' });
      blockReasons.push(`"${line.label}" (${line.productNumber ?? line.productId}) is no longer available.`);
      next.push(line);
      continue;
    }
    if (quote.outOfStock) {
      changes.push({ ...base, type: 'out-of-stock', availableStock: quote.product.stock });
      blockReasons.push(
        `"${line.label}" (${line.productNumber ?? line.productId}) is out of stock: ${quote.product.stock} available.`,
      );
    }
    if (quote.unitNet !== line.unitNet || quote.taxRateBp !== line.taxRateBp) {
      changes.push({
        ...base,
        type: 'price',
        oldUnitPrice: money(line.unitNet),
        newUnitPrice: money(quote.unitNet!),
        oldTotalPrice: money(line.totalNet),
        newTotalPrice: money(quote.totalNet!),
        oldTaxRate: line.taxRateBp / 100,
        newTaxRate: quote.taxRateBp! / 100,
      });
      const updated = { ...line, unitNet: quote.unitNet!, totalNet: quote.totalNet!, taxRateBp: quote.taxRateBp! };
      await updateApprovalLine(trx, approval.id, line.id, updated);
      next.push(updated);
    } else next.push(line);
  }
  const budgetBlocks = await followReservations(host, ctx, trx, approval, next, false);
  blockReasons.push(...budgetBlocks);
  const totals = totalsOf(next);
  const requiresReapproval = totals.total > approval.total;
  if (requiresReapproval && approval.status !== 'pending') APPROVAL_TRANSITIONS.assert(approval.status, 'pending');
  const isBlocked = blockReasons.length > 0;
  const round = requiresReapproval ? approval.round + 1 : approval.round;
  await updateOpenTotals(trx, approval.id, {
    totals,
    round,
    reopen: requiresReapproval,
    block: { reasons: blockReasons, refreshedAt: nowDb() },
  });
  const hasChanges = changes.length > 0;
  await addActivity(trx, approval.id, ctx.actor, 'refreshed', null, {
    hasChanges,
    changes,
    requiresReapproval,
    isBlocked,
    oldTotal: money(approval.total),
    newTotal: money(totals.total),
  });
  let refreshed = {
    ...approval,
    ...totals,
    isBlocked,
    blockReasons,
    round,
    status: requiresReapproval ? ('pending' as const) : approval.status,
  };
  if (requiresReapproval) refreshed = await restartChain(trx, refreshed);
  const salesChannel = await salesChannelOf(host, trx, approval, ctx.salesChannel);
  if (requiresReapproval) await notifyApprovers(host, trx, refreshed, salesChannel, true);
  if (sendEmailOnChanges && hasChanges)
    await enqueueApprovalMail(host, trx, {
      template: MAIL.changes,
      to: approval.requesterEmail,
      salesChannel,
      data: {
        ...approvalMailData(host, salesChannel, refreshed, next),
        changes,
        requiresReapproval,
        isBlocked,
        blockReasons,
        oldTotal: `${money(approval.total).toFixed(precision)} ${approval.currencyIso}`,
      },
    });
  return { isValid: !isBlocked, isBlocked, blockReasons, hasChanges, changes, requiresReapproval };
}
