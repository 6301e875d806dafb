import type { HostRuntime, PlacedOrder, PriceLine, SalesChannel, StoreContext } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { fromMinor } from '../../lib/money.js';
import { fromDbTime, now as currentTime, nowDb, toDbTime } from '../../lib/time.js';
import { writeJson, type Executor, type Trx } from '../../lib/db.js';
import { findEmployees } from '../company/index.js';
import { periodWindow, startInstant, type PeriodWindow } from './periods.js';
import {
  budgetIdsOfApproval,
  recordBudgetOrder,
  applicableBudgetIds,
  budgetCategoryIds,
  lockBudgets,
  reservedAmount,
  usedAmount,
  type BudgetRow,
} from './repository.js';

export interface BudgetStatus {
  budget: BudgetRow;
  window: PeriodWindow | null;
  used: number;
  reserved: number;
  available: number;
}

export async function budgetStatus(
  executor: Executor,
  budget: BudgetRow,
  timeZone: string,
  now = currentTime(),
  excludeApprovalId?: string,
): Promise<BudgetStatus> {
  const window = periodWindow(budget.periodType, budget.startDate, now, timeZone);
  if (!window) return { budget, window, used: 0, reserved: 0, available: budget.amount };
  const used = await usedAmount(executor, budget.id, window);
  const reserved = await reservedAmount(executor, budget.id, excludeApprovalId);
  return { budget, window, used, reserved, available: Math.max(0, budget.amount - used - reserved) };
}

type BudgetLine = Pick<PriceLine, 'productId' | 'totalNet' | 'type'> & {
  id?: string;
  lineItemId?: string;
  productNumber?: string | null;
  label?: string;
  quantity?: number;
  unitNet?: number;
};

/**
 * The lines a budget counts: all of them, or with restricted categories only product lines whose
 * product is assigned to one of those categories.
 */
export async function relevantLines<L extends BudgetLine>(
  host: HostRuntime,
  executor: Executor,
  lines: L[],
  categoryIds: string[],
): Promise<L[]> {
  if (categoryIds.length === 0) return lines;
  const productIds = [...new Set(lines.map((l) => l.productId).filter((id): id is string => !!id))];
  const products = await host.catalog.products(executor, productIds);
  const allowed = new Set(categoryIds);
  const inCategory = new Set(products.filter((p) => p.categoryIds.some((c) => allowed.has(c))).map((p) => p.id));
  return lines.filter((l) => l.productId && inCategory.has(l.productId));
}

export interface BudgetEvaluation extends BudgetStatus {
  relevant: number;
  exceeds: boolean;
}

/**
 * What an order (or approval) would do to each budget that governs it. With `lock`, the budget rows
 * stay locked until the transaction ends, so the check and the usage written after it are atomic.
 */
export async function evaluateBudgets(
  host: HostRuntime,
  trx: Executor,
  input: {
    customerId: string;
    budgetIds: string[];
    lines: BudgetLine[];
    currencyIso: string;
    timeZone: string;
    excludeApprovalId?: string;
    now?: Date;
  },
): Promise<BudgetEvaluation[]> {
  const now = input.now ?? currentTime();
  const budgets = (await lockBudgets(trx, input.budgetIds)).filter(
    (b) =>
      b.customerId === input.customerId &&
      b.active &&
      b.currencyIso === input.currencyIso &&
      startInstant(b.startDate, input.timeZone).getTime() <= now.getTime(),
  );
  const categories = await budgetCategoryIds(
    trx,
    budgets.map((b) => b.id),
  );
  const result: BudgetEvaluation[] = [];
  for (const budget of budgets) {
    const lines = await relevantLines(host, trx, input.lines, categories.get(budget.id) ?? []);
    const relevant = lines.reduce((sum, l) => sum + l.totalNet, 0);
    if (lines.length === 0) continue;
    const status = await budgetStatus(trx, budget, input.timeZone, now, input.excludeApprovalId);
    const exceeds = status.window ? status.used + status.reserved + relevant > budget.amount : relevant > budget.amount;
    result.push({ ...status, relevant, exceeds });
  }
  return result;
}

export function budgetExceededError(evaluation: BudgetEvaluation, precision: number) {
  const remaining = fromMinor(evaluation.available, precision);
  return Errors.badRequest(
    'SUITE__BUDGET_EXCEEDED',
    `The order exceeds the budget "${evaluation.budget.name}"; ${remaining.toFixed(precision)} ${evaluation.budget.currencyIso} remain.`,
    {
      meta: {
        budgetId: evaluation.budget.id,
        budgetName: evaluation.budget.name,
        remaining,
        orderValue: fromMinor(evaluation.relevant, precision),
        currency: evaluation.budget.currencyIso,
      },
    },
  );
}

/** Refuses a direct checkout beyond an employee's budget that does not allow approval. */
export async function interceptCheckout(
  host: HostRuntime,
  ctx: StoreContext,
  draft: {
    customerId: string;
    lines: PriceLine[];
    currencyIso: string;
    actor: { type: string; id: string | null };
    origin: string;
  },
  trx: Trx,
): Promise<void> {
  // An executed approval was checked (and its amount reserved) when it was created and approved.
  if (draft.origin === 'order-approval') return;
  if (draft.actor.type !== 'employee' || !draft.actor.id) return;
  const budgetIds = await applicableBudgetIds(trx, draft.customerId, draft.actor.id);
  if (budgetIds.length === 0) return;
  const evaluations = await evaluateBudgets(host, trx, {
    customerId: draft.customerId,
    budgetIds,
    lines: draft.lines,
    currencyIso: draft.currencyIso,
    timeZone: ctx.salesChannel.timeZone,
  });
  const refused = evaluations.find((e) => e.exceeds && !e.budget.allowApproval);
  if (refused) throw budgetExceededError(refused, ctx.salesChannel.currencyPrecision);
  // An order beyond a budget that allows approval is sent to approval by the approval rules
  // (order-approval/rules, the migrated rule "A budget is exceeded"), not here.
}

export interface BudgetData {
  budgetId: string;
  budgetLineItems: Array<Record<string, unknown>>;
  budgetProductCount: number;
  totalProductCount: number;
  budgetValue: number;
  totalOrderValue: number;
  budgetUsagePercentage: number;
  budgetProductRatio: string;
}

export function buildBudgetData(
  budget: BudgetRow,
  order: PlacedOrder,
  lines: PlacedOrder['lines'],
  precision: number,
): BudgetData {
  const value = lines.reduce((sum, l) => sum + l.totalNet, 0);
  const productCount = order.lines.filter((l) => l.productId).length;
  const budgetProducts = lines.filter((l) => l.productId).length;
  return {
    budgetId: budget.id,
    budgetLineItems: lines.map((l) => ({
      id: l.id,
      productId: l.productId,
      productNumber: l.productNumber,
      label: l.label,
      quantity: l.quantity,
      unitPrice: fromMinor(l.unitNet, precision),
      totalPrice: fromMinor(l.totalNet, precision),
    })),
    budgetProductCount: budgetProducts,
    totalProductCount: productCount,
    budgetValue: fromMinor(value, precision),
    totalOrderValue: fromMinor(order.netTotal, precision),
    budgetUsagePercentage: budget.amount > 0 ? Math.round((value / budget.amount) * 10000) / 100 : 0,
    budgetProductRatio: `${budgetProducts}/${productCount}`,
  };
}

/**
 * Order-placed hook: records the order's budget-relevant value on each budget that governs it (in
 * the order's transaction, under the budget row lock), and mails once per period when usage
 * crosses the notification percentage.
 */
export async function recordUsage(host: HostRuntime, ctx: StoreContext, order: PlacedOrder, trx: Trx): Promise<void> {
  const approvalId = order.customFields?.orderApprovalId;
  let budgetIds: string[];
  if (order.origin === 'order-approval' && typeof approvalId === 'string')
    budgetIds = await budgetIdsOfApproval(trx, approvalId);
  else if (order.actor.type === 'employee' && order.actor.id)
    budgetIds = await applicableBudgetIds(trx, order.customerId, order.actor.id);
  else return;
  if (budgetIds.length === 0) return;
  const salesChannel =
    ctx.salesChannel.id === order.salesChannelId
      ? ctx.salesChannel
      : ((await host.customers.salesChannel(trx, order.salesChannelId)) ?? ctx.salesChannel);
  const now = currentTime();
  const currencyIso = (order as PlacedOrder & { currencyIso?: string }).currencyIso ?? salesChannel.currencyIso;
  const budgets = (await lockBudgets(trx, budgetIds)).filter(
    (b) => b.customerId === order.customerId && b.active && b.currencyIso === currencyIso,
  );
  const categories = await budgetCategoryIds(
    trx,
    budgets.map((b) => b.id),
  );
  for (const budget of budgets) {
    const lines = await relevantLines(host, trx, order.lines, categories.get(budget.id) ?? []);
    if (lines.length === 0) continue;
    const data = buildBudgetData(budget, order, lines, salesChannel.currencyPrecision);
    const amount = lines.reduce((sum, l) => sum + l.totalNet, 0);
    await recordBudgetOrder(trx, {
      budgetId: budget.id,
      orderId: order.id,
      customerId: order.customerId,
      orderNumber: order.orderNumber,
      amount,
      placedAt: nowDb(),
      budgetData: writeJson(data),
    });
    await notifyThreshold(host, trx, budget, salesChannel, order, amount, now);
  }
}

async function notifyThreshold(
  host: HostRuntime,
  trx: Trx,
  budget: BudgetRow,
  salesChannel: SalesChannel,
  order: PlacedOrder,
  orderAmount: number,
  now: Date,
): Promise<void> {
  if (budget.notificationPercentage === null || budget.amount <= 0) return;
  const window = periodWindow(budget.periodType, budget.startDate, now, salesChannel.timeZone);
  const used = window ? await usedAmount(trx, budget.id, window) : orderAmount;
  if (used * 100 < budget.notificationPercentage * budget.amount) return;
  const recipient = await thresholdRecipient(host, trx, budget);
  if (!recipient) return;
  const precision = salesChannel.currencyPrecision;
  await host.mail.enqueue(trx, {
    template: 'budget-threshold-reached',
    to: recipient.email,
    salesChannelId: salesChannel.id,
    dedupeKey: `budget-threshold:${budget.id}:${window ? toDbTime(window.start) : `order:${order.id}`}`,
    data: {
      recipientName: recipient.name,
      budget: {
        id: budget.id,
        name: budget.name,
        amount: fromMinor(budget.amount, precision).toFixed(precision),
        used: fromMinor(used, precision).toFixed(precision),
        remaining: fromMinor(Math.max(0, budget.amount - used), precision).toFixed(precision),
        currency: budget.currencyIso,
        notificationPercentage: budget.notificationPercentage,
        usagePercentage: Math.round((used / budget.amount) * 1000) / 10,
        periodStart: window ? fromDbTime(toDbTime(window.start)) : null,
        periodEnd: window?.end ? fromDbTime(toDbTime(window.end)) : null,
      },
      orderNumber: order.orderNumber,
    },
  });
}

async function thresholdRecipient(
  host: HostRuntime,
  executor: Executor,
  budget: BudgetRow,
): Promise<{ email: string; name: string } | null> {
  if (budget.approverEmployeeId) {
    const [approver] = await findEmployees(executor, budget.customerId, [budget.approverEmployeeId]);
    if (approver?.active) return { email: approver.email, name: approver.name };
  }
  const customer = await host.customers.get(executor, budget.customerId);
  return customer ? { email: customer.email, name: `${customer.firstName} ${customer.lastName}` } : null;
}
