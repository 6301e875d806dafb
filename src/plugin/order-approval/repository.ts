import type { PriceLine } from '../../contract/index.js';
import { searchByCriteria, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import {
  bumpCounter,
  forUpdate,
  isDuplicateKeyError,
  marks,
  readBool,
  readInt,
  readJson,
  recoverable,
  selectRaw,
  selectRow,
  selectRows,
  writeJson,
  type Executor,
} from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import {
  LINE_INSERT_CHUNK,
  lineItemFromRow,
  lineItemRow,
  type LineItem,
  type LineItemDbRow,
} from '../../lib/line-items.js';
import { addSeconds, fromDbTime, now as currentTime, nowDb, toDbTime } from '../../lib/time.js';
import { reservationsQuery } from '../budget/index.js';
import { CHANGEABLE_STATUSES } from './states.js';
import type { ApprovalSummaryCache } from './summary-cache.js';

export const APPROVALS = 'suite_order_approvals';
export const LINE_ITEMS = 'suite_order_approval_line_items';
export const APPROVAL_BUDGETS = 'suite_order_approval_budgets';
export const DECISIONS = 'suite_order_approval_decisions';
export const ACTIVITIES = 'suite_order_approval_activities';
export const REMINDERS = 'suite_order_approval_reminders';
export const SETTINGS = 'suite_order_approval_settings';
/** Per customer: how many approvals it has (migration 014), written with every insert and delete of an approval. */
export const COUNTS = 'suite_order_approval_counts';
/** An approval's chain, one row per level (migration 021): the only place that says who decides and how many must approve. */
export const LEVELS = 'suite_order_approval_levels';

/**
 * Who decides an approval. `any-approver`: the customer login, admin employees and every employee whose
 * role holds `order-approval.approve` (one decides) — the default (decision 0065). `only-admins`: the
 * customer login and admin employees. `n-of`: `nValue` of the listed employees.
 */
export const APPROVAL_MODES = ['any-approver', 'only-admins', 'n-of'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];
export type ApprovalStatus = 'pending' | 'approved' | 'declined' | 'ordering' | 'ordered';

export interface ApprovalSettings {
  mode: ApprovalMode;
  approverEmployeeIds: string[];
  nValue: number;
}

/** A customer without settings of its own (no row: never chosen) has these (decision 0065). */
export const DEFAULT_SETTINGS: ApprovalSettings = { mode: 'any-approver', approverEmployeeIds: [], nValue: 1 };

export interface ExecutionResult {
  success: boolean;
  orderId?: string;
  orderNumber?: string;
  paymentUrl?: string;
  requiresPaymentAction: boolean;
  errorMessage?: string;
  errors: string[];
  warnings: string[];
}

export interface ApprovalRow {
  id: string;
  approvalNumber: string;
  customerId: string;
  salesChannelId: string;
  /** 'employee' or 'customer' (the actor type that asked). */
  requesterType: string;
  requesterId: string;
  requesterName: string;
  requesterEmail: string | null;
  status: ApprovalStatus;
  round: number;
  /** The level of the rule's chain the approval is at (1 for approvals from before the rules). */
  level: number;
  levelCount: number;
  ruleId: string | null;
  /** The current level's mode, n and approvers: read from its row in `suite_order_approval_levels`. */
  mode: ApprovalMode;
  nValue: number;
  approverEmployeeIds: string[];
  reasons: string[];
  cartToken: string | null;
  customerComment: string | null;
  billingAddressId: string | null;
  shippingAddressId: string | null;
  paymentMethod: string | null;
  shippingMethod: string | null;
  currencyIso: string;
  netTotal: number;
  taxTotal: number;
  total: number;
  isBlocked: boolean;
  blockReasons: string[];
  lastRefreshedAt: string | null;
  orderId: string | null;
  orderNumber: string | null;
  executionResult: ExecutionResult | null;
  decidedAt: string | null;
  createdAt: string;
  updatedAt: string | null;
}

/** What the approval list answers of an approval (the fields `approvalView` reads). */
export type ApprovalSummary = Pick<
  ApprovalRow,
  | 'id'
  | 'approvalNumber'
  | 'status'
  | 'isBlocked'
  | 'blockReasons'
  | 'reasons'
  | 'requesterType'
  | 'requesterId'
  | 'requesterName'
  | 'requesterEmail'
  | 'customerComment'
  | 'mode'
  | 'nValue'
  | 'approverEmployeeIds'
  | 'currencyIso'
  | 'netTotal'
  | 'taxTotal'
  | 'total'
  | 'billingAddressId'
  | 'shippingAddressId'
  | 'paymentMethod'
  | 'shippingMethod'
  | 'orderId'
  | 'orderNumber'
  | 'executionResult'
  | 'lastRefreshedAt'
  | 'decidedAt'
  | 'createdAt'
  | 'updatedAt'
>;

/** The columns of an approval the list reads, those of `ApprovalSummary` (explicit, not `*`: the list leaves the rest unread). */
const SUMMARY_COLUMNS = [
  'id',
  'approval_number',
  'status',
  'is_blocked',
  'block_reasons',
  'reasons',
  'requester_type',
  'requester_id',
  'requester_name',
  'requester_email',
  'customer_comment',
  'currency_iso',
  'net_total',
  'tax_total',
  'total',
  'billing_address_id',
  'shipping_address_id',
  'payment_method',
  'shipping_method',
  'order_id',
  'order_number',
  'execution_result',
  'last_refreshed_at',
  'decided_at',
  'created_at',
  'updated_at',
] as const;

/** The current level's columns read with an approval (its row in `suite_order_approval_levels`). */
const LEVEL_COLUMNS = ['mode', 'n_value', 'approver_employee_ids'] as const;
type SummaryDbRow = Pick<ApprovalDbRow, (typeof SUMMARY_COLUMNS)[number] | (typeof LEVEL_COLUMNS)[number]>;

/** Joins each approval (`approvals`: the table or its alias) to its current level, aliased `cl`. */
const CURRENT_LEVEL_JOIN = (approvals: string) =>
  `left join ${LEVELS} cl on cl.approval_id = ${approvals}.id and cl.level = ${approvals}.current_level`;
const currentLevelColumns = LEVEL_COLUMNS.map((column) => `cl.${column}`);

/** A row of the approval list: the summary columns, the approval's line count and (plain company list) the customer's approval count. */
export type ApprovalListRow = SummaryDbRow & {
  line_item_count: unknown;
  approvals_total?: unknown;
};

/** A row of the approvals table as the drivers return it (counts and sums possibly strings, JSON columns strings). */
export interface ApprovalDbRow {
  id: string;
  approval_number: string;
  customer_id: string;
  sales_channel_id: string;
  requester_type: string;
  requester_id: string;
  requester_name: string;
  requester_email: string | null;
  status: ApprovalStatus;
  decision_round: unknown;
  current_level?: unknown;
  level_count?: unknown;
  rule_id?: string | null;
  /** of the current level (joined); null only for an approval without its level rows, which falls to the company admins */
  mode: ApprovalMode | null;
  n_value: unknown;
  approver_employee_ids: unknown;
  reasons: unknown;
  cart_token: string | null;
  customer_comment: string | null;
  billing_address_id: string | null;
  shipping_address_id: string | null;
  payment_method?: string | null;
  shipping_method?: string | null;
  currency_iso: string;
  net_total: unknown;
  tax_total: unknown;
  total: unknown;
  is_blocked: unknown;
  block_reasons: unknown;
  last_refreshed_at: string | null;
  order_id: string | null;
  order_number: string | null;
  execution_result: unknown;
  decided_at: string | null;
  created_at: string;
  updated_at: string | null;
}

export function toApprovalSummary(row: SummaryDbRow): ApprovalSummary {
  return {
    id: row.id,
    approvalNumber: row.approval_number,
    requesterType: row.requester_type,
    requesterId: row.requester_id,
    requesterName: row.requester_name,
    requesterEmail: row.requester_email ?? null,
    status: row.status,
    mode: row.mode ?? 'only-admins',
    nValue: row.mode ? readInt(row.n_value) : 1,
    approverEmployeeIds: row.mode ? readJson<string[]>(row.approver_employee_ids, []) : [],
    reasons: readJson<string[]>(row.reasons, []),
    customerComment: row.customer_comment ?? null,
    billingAddressId: row.billing_address_id ?? null,
    shippingAddressId: row.shipping_address_id ?? null,
    paymentMethod: row.payment_method ?? null,
    shippingMethod: row.shipping_method ?? null,
    currencyIso: row.currency_iso,
    netTotal: readInt(row.net_total),
    taxTotal: readInt(row.tax_total),
    total: readInt(row.total),
    isBlocked: readBool(row.is_blocked),
    blockReasons: readJson<string[]>(row.block_reasons, []),
    lastRefreshedAt: row.last_refreshed_at ?? null,
    orderId: row.order_id ?? null,
    orderNumber: row.order_number ?? null,
    executionResult: readJson<ExecutionResult | null>(row.execution_result, null),
    decidedAt: row.decided_at ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at ?? null,
  };
}

export function toApprovalRow(row: ApprovalDbRow): ApprovalRow {
  return {
    ...toApprovalSummary(row),
    customerId: row.customer_id,
    salesChannelId: row.sales_channel_id,
    round: readInt(row.decision_round),
    level: readInt(row.current_level) || 1,
    levelCount: readInt(row.level_count) || 1,
    ruleId: row.rule_id ?? null,
    cartToken: row.cart_token ?? null,
  };
}

/** An approval of the customer with its current level's approvers; another customer's id reads as absent. */
export async function getApproval(
  executor: Executor,
  customerId: string,
  id: string,
  lock = false,
): Promise<ApprovalRow | null> {
  const query = executor(APPROVALS)
    .joinRaw(CURRENT_LEVEL_JOIN(APPROVALS))
    .where({ [`${APPROVALS}.id`]: id, [`${APPROVALS}.customer_id`]: customerId })
    .first(`${APPROVALS}.*`, ...currentLevelColumns);
  const row = await selectRow<ApprovalDbRow>(lock ? forUpdate(query, executor, APPROVALS) : query);
  return row ? toApprovalRow(row) : null;
}

/** An approval's line: the shared line-item shape (src/lib/line-items.ts). */
export type ApprovalLine = LineItem;

export async function approvalLines(executor: Executor, approvalId: string): Promise<ApprovalLine[]> {
  const rows = await selectRows<LineItemDbRow>(
    executor(LINE_ITEMS).where({ approval_id: approvalId }).orderBy('position').orderBy('id'),
  );
  return rows.map(lineItemFromRow);
}

// Line sums are one mechanism for carts, orders, approvals and offers (src/lib/line-items.ts).
export { totalsOf } from '../../lib/line-items.js';

export async function loadSettings(executor: Executor, customerId: string): Promise<ApprovalSettings> {
  const row = await selectRow<{ mode: ApprovalMode; approver_employee_ids: unknown; n_value: unknown }>(
    executor(SETTINGS).where({ customer_id: customerId }).first(),
  );
  if (!row) return { ...DEFAULT_SETTINGS, approverEmployeeIds: [] };
  return {
    mode: row.mode,
    approverEmployeeIds: readJson<string[]>(row.approver_employee_ids, []),
    nValue: readInt(row.n_value),
  };
}

/** Whether the customer has approval settings of its own (none: the defaults apply). */
export async function hasSettings(executor: Executor, customerId: string): Promise<boolean> {
  return !!(await executor(SETTINGS).where({ customer_id: customerId }).first('customer_id'));
}

/** The customer's first settings (`saveSettings` writes them over existing ones). */
export async function insertSettings(
  executor: Executor,
  customerId: string,
  settings: ApprovalSettings,
  updatedAt: string,
): Promise<void> {
  await executor(SETTINGS).insert({
    customer_id: customerId,
    mode: settings.mode,
    approver_employee_ids: writeJson(settings.approverEmployeeIds),
    n_value: settings.nValue,
    updated_at: updatedAt,
  });
}

export async function saveSettings(executor: Executor, customerId: string, settings: ApprovalSettings): Promise<void> {
  await executor(SETTINGS)
    .insert({
      customer_id: customerId,
      mode: settings.mode,
      approver_employee_ids: writeJson(settings.approverEmployeeIds),
      n_value: settings.nValue,
      updated_at: nowDb(),
    })
    .onConflict('customer_id')
    .merge();
}

export async function addActivity(
  executor: Executor,
  approvalId: string,
  actor: { type: string; id: string | null; name: string },
  action: string,
  comment: string | null = null,
  metadata: Record<string, unknown> = {},
): Promise<void> {
  await executor(ACTIVITIES).insert({
    id: newId(),
    approval_id: approvalId,
    action,
    actor_type: actor.type,
    actor_id: actor.id,
    actor_name: actor.name || '',
    comment,
    metadata: writeJson(metadata),
    created_at: nowDb(),
  });
}

// ---- writes and reads of the use cases ---------------------------------------------------------
// Status-changing writes are conditional (`WHERE status = ?`) and answer how many rows they changed:
// the transition table (states.ts) decides what is allowed, the write guarantees it happens once.

export interface NewApproval {
  id: string;
  approvalNumber: string;
  customerId: string;
  salesChannelId: string;
  requester: { type: string; id: string | null; name: string; email: string | null };
  /** The chain, resolved (rules/chain.ts): at least one level; the approval starts at level 1. */
  levels: NewApprovalLevel[];
  reasons: string[];
  /** The rule that chose the chain, and how many levels it has. */
  rule?: { id: string | null; name: string; levelCount: number } | null;
  cartToken: string;
  customerComment: string | null;
  billingAddressId: string | null;
  shippingAddressId: string | null;
  /** The methods the approved order is placed with; absent or null: the checkout's default. */
  paymentMethod?: string | null;
  shippingMethod?: string | null;
  currencyIso: string;
  totals: { netTotal: number; taxTotal: number; total: number };
}

/** A level of a new approval's chain: who decides it (mode, n and approvers) and, for level 1, when it started. */
export interface NewApprovalLevel {
  level: number;
  name: string;
  type: string;
  mode: ApprovalMode;
  nValue: number;
  approverEmployeeIds: string[];
  startedAt: string | null;
}

/**
 * Inserts a pending approval with its chain of levels; a second open approval of the same cart is a
 * duplicate key. The customer's approval count grows in the same transaction (call it with the transaction).
 */
export async function insertApproval(executor: Executor, approval: NewApproval): Promise<void> {
  await executor(APPROVALS).insert({
    id: approval.id,
    approval_number: approval.approvalNumber,
    customer_id: approval.customerId,
    sales_channel_id: approval.salesChannelId,
    requester_type: approval.requester.type,
    requester_id: approval.requester.id,
    requester_name: approval.requester.name,
    requester_email: approval.requester.email,
    status: 'pending',
    decision_round: 1,
    reasons: writeJson(approval.reasons),
    rule_id: approval.rule?.id ?? null,
    rule_name: approval.rule?.name ?? null,
    current_level: 1,
    level_count: approval.levels.length,
    cart_token: approval.cartToken,
    open_cart_token: approval.cartToken,
    customer_comment: approval.customerComment,
    billing_address_id: approval.billingAddressId,
    shipping_address_id: approval.shippingAddressId,
    payment_method: approval.paymentMethod ?? null,
    shipping_method: approval.shippingMethod ?? null,
    currency_iso: approval.currencyIso,
    net_total: approval.totals.netTotal,
    tax_total: approval.totals.taxTotal,
    total: approval.totals.total,
    is_blocked: false,
    block_reasons: writeJson([]),
    created_at: nowDb(),
  });
  for (const l of approval.levels)
    await executor(LEVELS).insert({
      approval_id: approval.id,
      level: l.level,
      name: l.name,
      type: l.type,
      mode: l.mode,
      n_value: l.nValue,
      approver_employee_ids: writeJson(l.approverEmployeeIds),
      started_at: l.startedAt,
    });
  await bumpCounter(executor, COUNTS, { customer_id: approval.customerId }, 'approvals');
}

/** The customer's maintained approval count (0 for a customer without approvals). */
/** The approval's number (undefined: no such approval). */
export async function approvalNumberOf(executor: Executor, approvalId: string): Promise<string | undefined> {
  const row = await selectRow<{ approval_number: string }>(
    executor(APPROVALS).where('id', approvalId).first('approval_number'),
  );
  return row?.approval_number;
}

export async function approvalCount(executor: Executor, customerId: string): Promise<number> {
  const row = await selectRow<{ approvals: unknown }>(
    executor(COUNTS).where({ customer_id: customerId }).first('approvals'),
  );
  return row ? readInt(row.approvals) : 0;
}

export async function insertApprovalLines(executor: Executor, approvalId: string, lines: PriceLine[]): Promise<void> {
  const rows = lines.map((line, position) => ({
    id: newId(),
    approval_id: approvalId,
    ...lineItemRow(line, position),
  }));
  for (let i = 0; i < rows.length; i += LINE_INSERT_CHUNK)
    await executor(LINE_ITEMS).insert(rows.slice(i, i + LINE_INSERT_CHUNK));
}

export async function updateApprovalLine(
  executor: Executor,
  approvalId: string,
  lineId: string,
  line: { quantity?: number; unitNet: number; totalNet: number; taxRateBp: number },
): Promise<void> {
  await executor(LINE_ITEMS)
    .where({ id: lineId, approval_id: approvalId })
    .update({
      ...(line.quantity !== undefined ? { quantity: line.quantity } : {}),
      unit_net: line.unitNet,
      total_net: line.totalNet,
      tax_rate_bp: line.taxRateBp,
    });
}

export async function deleteApprovalLine(executor: Executor, approvalId: string, lineId: string): Promise<void> {
  await executor(LINE_ITEMS).where({ id: lineId, approval_id: approvalId }).delete();
}

export interface Reservation {
  budgetId: string;
  amount: number;
  exceeds: boolean;
}

export async function insertReservations(
  executor: Executor,
  approvalId: string,
  reservations: Reservation[],
): Promise<void> {
  for (const r of reservations)
    await executor(APPROVAL_BUDGETS).insert({
      approval_id: approvalId,
      budget_id: r.budgetId,
      amount: r.amount,
      exceeds: r.exceeds,
    });
}

export async function reservedBudgetIds(executor: Executor, approvalId: string): Promise<string[]> {
  return selectRows<string>(executor(APPROVAL_BUDGETS).where({ approval_id: approvalId }).pluck('budget_id'));
}

export async function updateReservation(
  executor: Executor,
  approvalId: string,
  reservation: Reservation,
): Promise<void> {
  await executor(APPROVAL_BUDGETS)
    .where({ approval_id: approvalId, budget_id: reservation.budgetId })
    .update({ amount: reservation.amount, exceeds: reservation.exceeds });
}

/** Budgets with no relevant line left (or gone inactive) hold nothing. */
export async function releaseReservations(executor: Executor, approvalId: string, budgetIds: string[]): Promise<void> {
  if (budgetIds.length)
    await executor(APPROVAL_BUDGETS)
      .where({ approval_id: approvalId })
      .whereIn('budget_id', budgetIds)
      .update({ amount: 0, exceeds: false });
}

/** The approval's reservations with their budget's name, by name. */
export async function reservationsOf(
  executor: Executor,
  approvalId: string,
): Promise<Array<{ budgetId: string; name: string; amount: number; exceeds: boolean }>> {
  const rows = await selectRows<{ id: string; name: string; amount: unknown; exceeds: unknown }>(
    executor(APPROVAL_BUDGETS)
      .join('suite_budgets as b', 'b.id', `${APPROVAL_BUDGETS}.budget_id`)
      .where(`${APPROVAL_BUDGETS}.approval_id`, approvalId)
      .orderBy('b.name')
      .select('b.id', 'b.name', `${APPROVAL_BUDGETS}.amount`, `${APPROVAL_BUDGETS}.exceeds`),
  );
  return rows.map((b) => ({ budgetId: b.id, name: b.name, amount: readInt(b.amount), exceeds: readBool(b.exceeds) }));
}

/** The approvers of the budgets this approval exceeds (plugin budget table). */
export async function exceededBudgetApproverIds(executor: Executor, approvalId: string): Promise<string[]> {
  return selectRows<string>(
    executor(APPROVAL_BUDGETS)
      .join('suite_budgets as b', 'b.id', `${APPROVAL_BUDGETS}.budget_id`)
      .where(`${APPROVAL_BUDGETS}.approval_id`, approvalId)
      .where(`${APPROVAL_BUDGETS}.exceeds`, true)
      .whereNotNull('b.approver_employee_id')
      .pluck('b.approver_employee_id'),
  );
}

/** One decision per approver and round (a second one is a duplicate key). */
export async function insertDecision(
  executor: Executor,
  decision: {
    approvalId: string;
    round: number;
    level: number;
    approverKey: string;
    approver: { type: string; id: string | null; name: string };
    decision: 'approved' | 'declined';
    comment: string | null;
    ccEmployeeIds: string[];
  },
): Promise<void> {
  await executor(DECISIONS).insert({
    id: newId(),
    approval_id: decision.approvalId,
    round: decision.round,
    level: decision.level,
    approver_key: decision.approverKey,
    approver_type: decision.approver.type,
    approver_id: decision.approver.id,
    approver_name: decision.approver.name || '',
    decision: decision.decision,
    comment: decision.comment,
    cc_employee_ids: writeJson(decision.ccEmployeeIds),
    created_at: nowDb(),
  });
}

/** pending → declined; the cart is free for a new approval. */
export async function markDeclined(executor: Executor, approvalId: string): Promise<number> {
  const now = nowDb();
  return executor(APPROVALS)
    .where({ id: approvalId, status: 'pending' })
    .update({ status: 'declined', open_cart_token: null, decided_at: now, updated_at: now });
}

/** pending → approved, only in the round the decisions were counted for. */
export async function markApproved(executor: Executor, approvalId: string, round: number): Promise<number> {
  const now = nowDb();
  return executor(APPROVALS)
    .where({ id: approvalId, status: 'pending', decision_round: round })
    .update({ status: 'approved', decided_at: now, updated_at: now });
}

/** approved (and not blocked) → ordering: the claim that lets one execution place the order. */
export async function claimForOrdering(executor: Executor, customerId: string, approvalId: string): Promise<number> {
  return executor(APPROVALS)
    .where({ id: approvalId, customer_id: customerId, status: 'approved', is_blocked: false })
    .update({ status: 'ordering', updated_at: nowDb() });
}

/** ordering → ordered, with the placed order and the answer a repeated execute returns. */
export async function markOrdered(
  executor: Executor,
  approvalId: string,
  order: { id: string; orderNumber: string },
  result: ExecutionResult,
): Promise<number> {
  return executor(APPROVALS)
    .where({ id: approvalId, status: 'ordering' })
    .update({
      status: 'ordered',
      order_id: order.id,
      order_number: order.orderNumber,
      execution_result: writeJson(result),
      open_cart_token: null,
      updated_at: nowDb(),
    });
}

/**
 * New totals (and round) of a still changeable approval; `reopen` sends it back to pending for
 * re-approval, `block` records the refresh's block reasons.
 */
export async function updateOpenTotals(
  executor: Executor,
  approvalId: string,
  change: {
    totals: { netTotal: number; taxTotal: number; total: number };
    round: number;
    reopen: boolean;
    block?: { reasons: string[]; refreshedAt: string };
  },
): Promise<void> {
  await executor(APPROVALS)
    .where({ id: approvalId })
    .whereIn('status', [...CHANGEABLE_STATUSES])
    .update({
      net_total: change.totals.netTotal,
      tax_total: change.totals.taxTotal,
      total: change.totals.total,
      ...(change.block
        ? {
            is_blocked: change.block.reasons.length > 0,
            block_reasons: writeJson(change.block.reasons),
            last_refreshed_at: change.block.refreshedAt,
          }
        : {}),
      decision_round: change.round,
      ...(change.reopen ? { status: 'pending', decided_at: null } : {}),
      updated_at: change.block?.refreshedAt ?? nowDb(),
    });
}

export async function updateOpenDetails(
  executor: Executor,
  approvalId: string,
  details: { customerComment?: string | null; billingAddressId?: string | null; shippingAddressId?: string | null },
): Promise<void> {
  const columns: Record<string, unknown> = {};
  if (details.customerComment !== undefined) columns.customer_comment = details.customerComment;
  if (details.billingAddressId !== undefined) columns.billing_address_id = details.billingAddressId;
  if (details.shippingAddressId !== undefined) columns.shipping_address_id = details.shippingAddressId;
  await executor(APPROVALS)
    .where({ id: approvalId })
    .whereIn('status', [...CHANGEABLE_STATUSES])
    .update({ ...columns, updated_at: nowDb() });
}

export async function pendingApprovalIds(executor: Executor, customerId: string): Promise<string[]> {
  return selectRows<string>(
    executor(APPROVALS).where({ customer_id: customerId, status: 'pending' }).orderBy('id').pluck('id'),
  );
}

/**
 * The customer's current approver settings onto a still pending approval's current level (`level`);
 * the approval row is touched, so its version moves (the list's kept summaries read the level). 1 when applied.
 */
export async function applySettingsToPending(
  executor: Executor,
  approvalId: string,
  level: number,
  settings: ApprovalSettings,
): Promise<number> {
  const touched = await executor(APPROVALS)
    .where({ id: approvalId, status: 'pending', current_level: level })
    .update({ updated_at: nowDb() });
  if (touched !== 1) return 0;
  return executor(LEVELS)
    .where({ approval_id: approvalId, level })
    .update({
      mode: settings.mode,
      n_value: settings.nValue,
      approver_employee_ids: writeJson(settings.approverEmployeeIds),
    });
}

/** Pending, unblocked approvals created before `cutoff`, oldest first. */
export async function overdueApprovals(
  executor: Executor,
  cutoff: string,
  limit: number,
): Promise<Array<{ id: string; customerId: string }>> {
  const rows = await selectRows<{ id: string; customer_id: string }>(
    executor(APPROVALS)
      .where({ status: 'pending', is_blocked: false })
      .where('created_at', '<=', cutoff)
      .orderBy('created_at')
      .limit(limit)
      .select('id', 'customer_id'),
  );
  return rows.map((r) => ({ id: r.id, customerId: r.customer_id }));
}

/** Claims the reminder to one approver: true at most once per approver per interval. */
export async function claimReminder(
  executor: Executor,
  approvalId: string,
  approverKey: string,
  intervalSeconds: number,
): Promise<boolean> {
  const now = currentTime();
  const updated = await executor(REMINDERS)
    .where({ approval_id: approvalId, approver_key: approverKey })
    .where('last_sent_at', '<=', toDbTime(addSeconds(now, -intervalSeconds)))
    .update({ last_sent_at: toDbTime(now) });
  if (updated === 1) return true;
  const exists = await selectRow<{ approval_id: string }>(
    executor(REMINDERS).where({ approval_id: approvalId, approver_key: approverKey }).first('approval_id'),
  );
  if (exists) return false;
  try {
    await recoverable(executor, (inner) =>
      inner(REMINDERS).insert({ approval_id: approvalId, approver_key: approverKey, last_sent_at: toDbTime(now) }),
    );
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** An approval as the operator's list (across customers) shows it. */
export interface AdminApprovalListRow {
  id: string;
  approval_number: string;
  customer_id: string;
  requester_name: string;
  status: ApprovalStatus;
  total: unknown;
  currency_iso: string;
  created_at: string;
}

/**
 * A page of the approvals of all customers, oldest first, and how many match: filtered by status,
 * customer, and created before a time (`createdBefore` in the database's time format).
 */
export async function adminApprovalPage(
  executor: Executor,
  filter: { status?: ApprovalStatus; customerId?: string; createdBefore?: string },
  page: number,
  limit: number,
): Promise<{ total: number; rows: AdminApprovalListRow[] }> {
  const base = executor(APPROVALS);
  if (filter.status) base.where({ status: filter.status });
  if (filter.customerId) base.where({ customer_id: filter.customerId });
  if (filter.createdBefore) base.where('created_at', '<', filter.createdBefore);
  const [count] = await selectRows<{ n: unknown }>(base.clone().count({ n: '*' }));
  const rows = await selectRows<AdminApprovalListRow>(
    base
      .clone()
      .select('id', 'approval_number', 'customer_id', 'requester_name', 'status', 'total', 'currency_iso', 'created_at')
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(limit)
      .offset((page - 1) * limit),
  );
  return { total: readInt(count?.n), rows };
}

/** An open approval's reservation on a budget, as the budget's summary lists it. */
export interface BudgetReservationRow {
  id: string;
  approval_number: string;
  status: string;
  requester_name: string;
  created_at: string;
  amount: unknown;
  exceeds: unknown;
}

/** The reservations of open approvals on the budget, oldest approval first (budget's `reservationsQuery`). */
export async function reservationsOnBudget(executor: Executor, budgetId: string): Promise<BudgetReservationRow[]> {
  return selectRows<BudgetReservationRow>(
    reservationsQuery(executor, budgetId)
      .orderBy(`${APPROVALS}.created_at`)
      .select(
        `${APPROVALS}.id`,
        `${APPROVALS}.approval_number`,
        `${APPROVALS}.status`,
        `${APPROVALS}.requester_name`,
        `${APPROVALS}.created_at`,
        `${APPROVAL_BUDGETS}.amount`,
        `${APPROVAL_BUDGETS}.exceeds`,
      ),
  );
}

export async function countPendingApprovals(executor: Executor, customerId: string): Promise<number> {
  const [row] = await selectRows<{ count: unknown }>(
    executor(APPROVALS).where({ customer_id: customerId, status: 'pending' }).count({ count: '*' }),
  );
  return readInt(row?.count);
}

/** An approval of a list page as the route answers it, with its line count. */
export interface ApprovalListEntry {
  approval: ApprovalSummary;
  lineItemCount: number;
}

/**
 * The customer's approvals by criteria, with their line counts. `visibleTo`: everything (admins and
 * approvers of all), an employee's own requests and those listing them as an n-of approver, or one
 * requester's own. The plain company page (everything, no criteria but the page) takes the
 * summaries `kept` at each approval's version and reads only the others.
 */
export async function searchApprovals(
  executor: Executor,
  customerId: string,
  visibleTo: 'all' | { employeeId: string } | { requester: { type: string; id: string } },
  criteria: Criteria,
  spec: CriteriaSpec,
  kept?: ApprovalSummaryCache,
  decidedBy?: string,
): Promise<{ total: number; rows: ApprovalListEntry[] }> {
  const base = executor(APPROVALS).joinRaw(CURRENT_LEVEL_JOIN(APPROVALS)).where(`${APPROVALS}.customer_id`, customerId);
  // Approvals this approver (approver key) decided, in any round and level.
  if (decidedBy !== undefined)
    base.whereExists((q) => {
      q.select(1)
        .from(DECISIONS)
        .whereRaw('??=??', [`${DECISIONS}.approval_id`, `${APPROVALS}.id`])
        .where(`${DECISIONS}.approver_key`, decidedBy);
    });
  if (visibleTo !== 'all' && 'requester' in visibleTo)
    base
      .where(`${APPROVALS}.requester_type`, visibleTo.requester.type)
      .where(`${APPROVALS}.requester_id`, visibleTo.requester.id);
  else if (visibleTo !== 'all') {
    const { employeeId } = visibleTo;
    base.where((q) => {
      q.where((own) => {
        own.where(`${APPROVALS}.requester_type`, 'employee').where(`${APPROVALS}.requester_id`, employeeId);
      }).orWhere((listed) => {
        listed.where('cl.mode', 'n-of').where('cl.approver_employee_ids', 'like', `%"${employeeId}"%`);
      });
    });
  }
  // Everything of the customer: the total is the maintained count, not a count over its approvals;
  // the plain list (no filter, term, ids or sort) reads it with the page's stamps, in one statement.
  let countOfPage: number | undefined;
  let stamps: CompanyPageStamp[] | undefined;
  const options =
    visibleTo === 'all' && decidedBy === undefined
      ? {
          readPlainPage: async (limit: number, offset: number) => {
            stamps = await companyApprovalStamps(executor, customerId, limit, offset);
            if (stamps.length) countOfPage = readInt(stamps[0]!.approvals_total);
            return stamps;
          },
          unfilteredTotal: async () => countOfPage ?? approvalCount(executor, customerId),
        }
      : {};
  const page = await searchByCriteria<ApprovalListRow>(
    base,
    criteria,
    spec,
    (qb) =>
      qb.select(
        ...SUMMARY_COLUMNS.map((column) => `${APPROVALS}.${column}`),
        ...currentLevelColumns,
        executor(LINE_ITEMS)
          .count('*')
          .whereRaw('??=??', [`${LINE_ITEMS}.approval_id`, `${APPROVALS}.id`])
          .as('line_item_count'),
      ),
    options,
  );
  if (stamps) return { total: page.total, rows: await summariesOfStamps(executor, customerId, stamps, kept) };
  return {
    total: page.total,
    rows: page.rows.map((r) => ({ approval: toApprovalSummary(r), lineItemCount: readInt(r.line_item_count) })),
  };
}

/** A row of the plain company page: an approval's id, version and line count, and the customer's approval count. */
interface CompanyPageStamp {
  id: string;
  version: number | string;
  line_item_count: unknown;
  approvals_total: unknown;
}

const COMPANY_APPROVAL_STAMPS =
  `select a.id, a.version,` +
  ` (select count(*) from ${LINE_ITEMS} l where l.approval_id = a.id) as line_item_count,` +
  ` (select c.approvals from ${COUNTS} c where c.customer_id = ?) as approvals_total` +
  ` from ${APPROVALS} a where a.customer_id = ? order by a.created_at desc, a.id desc`;

/**
 * A page of all the customer's approvals, newest first (the list's default sort), as stamps: each
 * one's id, version and line count and, on every row, the customer's maintained approval count; one
 * statement, in the order of `suite_order_approvals_list_idx`. The limit is a literal, as in `searchByCriteria`.
 */
async function companyApprovalStamps(
  executor: Executor,
  customerId: string,
  limit: number,
  offset: number,
): Promise<CompanyPageStamp[]> {
  if (!Number.isInteger(limit)) throw new Error(`companyApprovalStamps: the limit ${limit} is not an integer`);
  return selectRaw<CompanyPageStamp>(executor, `${COMPANY_APPROVAL_STAMPS} limit ${limit} offset ?`, [
    customerId,
    customerId,
    offset,
  ]);
}

const SELECT_SUMMARIES =
  `select ${SUMMARY_COLUMNS.map((column) => `a.${column}`).join(', ')}, ${currentLevelColumns.join(', ')}, a.version` +
  ` from ${APPROVALS} a ${CURRENT_LEVEL_JOIN('a')} where a.customer_id = ? and a.id in `;

/**
 * The entries of a page of stamps, in its order: kept summaries at their version, the others read
 * (each kept under the version read with its row). Inside a transaction nothing kept is used.
 */
async function summariesOfStamps(
  executor: Executor,
  customerId: string,
  stamps: CompanyPageStamp[],
  kept: ApprovalSummaryCache | undefined,
): Promise<ApprovalListEntry[]> {
  const cache = executor.isTransaction ? undefined : kept;
  const byId = new Map<string, ApprovalSummary>();
  const missing: string[] = [];
  for (const stamp of stamps) {
    const summary = cache?.get(stamp.id, String(stamp.version));
    if (summary) byId.set(stamp.id, summary);
    else missing.push(stamp.id);
  }
  if (missing.length > 0)
    for (const row of await selectRaw<ApprovalListRow & { version: number | string }>(
      executor,
      `${SELECT_SUMMARIES}(${marks(missing.length)})`,
      [customerId, ...missing],
    )) {
      const summary = toApprovalSummary(row);
      byId.set(row.id, cache ? cache.keep(row.id, String(row.version), summary) : summary);
    }
  // An approval deleted between the two statements is left out.
  return stamps
    .filter((stamp) => byId.has(stamp.id))
    .map((stamp) => ({ approval: byId.get(stamp.id)!, lineItemCount: readInt(stamp.line_item_count) }));
}

export interface ActivityView {
  id: string;
  action: string;
  employeeName: string;
  actorType: string;
  actorId: string | null;
  comment: string;
  metadata: Record<string, unknown>;
  createdAt: string | null;
}

interface ActivityDbRow {
  id: string;
  action: string;
  actor_type: string;
  actor_id: string | null;
  actor_name: string | null;
  comment: string | null;
  metadata: string | Record<string, unknown> | null;
  created_at: string;
}

export async function activitiesOf(executor: Executor, approvalId: string): Promise<ActivityView[]> {
  const rows = await selectRows<ActivityDbRow>(
    executor(ACTIVITIES).where({ approval_id: approvalId }).orderBy('created_at').orderBy('id'),
  );
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    employeeName: r.actor_name ?? '',
    actorType: r.actor_type,
    actorId: r.actor_id ?? null,
    comment: r.comment ?? '',
    metadata: typeof r.metadata === 'string' ? (JSON.parse(r.metadata) as Record<string, unknown>) : (r.metadata ?? {}),
    createdAt: fromDbTime(r.created_at),
  }));
}

export interface DecisionRow {
  approverKey: string;
  approverType: string;
  approverId: string;
  approverName: string;
  decision: 'approved' | 'declined';
  comment: string | null;
  ccEmployeeIds: string[];
  level: number;
  createdAt: string;
}

interface DecisionDbRow {
  level: unknown;
  created_at: string;
  approver_key: string;
  approver_type: string;
  approver_id: string;
  approver_name: string;
  decision: 'approved' | 'declined';
  comment: string | null;
  cc_employee_ids: unknown;
}

/** The decisions of a round, of one level of it when `level` is given. */
export async function decisionsOf(
  executor: Executor,
  approvalId: string,
  round: number,
  level?: number,
): Promise<DecisionRow[]> {
  const query = executor(DECISIONS).where({ approval_id: approvalId, round });
  if (level !== undefined) query.where({ level });
  const rows = await selectRows<DecisionDbRow>(query.orderBy('created_at').orderBy('id'));
  return rows.map((r) => ({
    approverKey: r.approver_key,
    approverType: r.approver_type,
    approverId: r.approver_id,
    approverName: r.approver_name,
    decision: r.decision,
    comment: r.comment ?? null,
    ccEmployeeIds: readJson<string[]>(r.cc_employee_ids, []),
    level: readInt(r.level) || 1,
    createdAt: r.created_at,
  }));
}

/** The customers were deleted by the host (contract event): their approvals (lines, decisions … by foreign key) and settings go with them. */
export async function deleteCustomersApprovals(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(APPROVALS).whereIn('customer_id', customerIds).delete();
  await executor(COUNTS).whereIn('customer_id', customerIds).delete();
  await executor(SETTINGS).whereIn('customer_id', customerIds).delete();
}
