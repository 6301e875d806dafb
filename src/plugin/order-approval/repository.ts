import { forUpdate, readBool, readInt, readJson, writeJson, type Executor } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { lineItemFromRow, type LineItem } from '../../lib/line-items.js';
import { nowDb } from '../../lib/time.js';

export const APPROVALS = 'suite_order_approvals';
export const LINE_ITEMS = 'suite_order_approval_line_items';
export const APPROVAL_BUDGETS = 'suite_order_approval_budgets';
export const DECISIONS = 'suite_order_approval_decisions';
export const ACTIVITIES = 'suite_order_approval_activities';
export const REMINDERS = 'suite_order_approval_reminders';
export const SETTINGS = 'suite_order_approval_settings';

export const APPROVAL_MODES = ['only-admins', 'n-of'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];
export type ApprovalStatus = 'pending' | 'approved' | 'declined' | 'ordering' | 'ordered';

export interface ApprovalSettings {
  mode: ApprovalMode;
  approverEmployeeIds: string[];
  nValue: number;
}

export const DEFAULT_SETTINGS: ApprovalSettings = { mode: 'only-admins', approverEmployeeIds: [], nValue: 1 };

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
  requesterType: 'employee' | 'customer' | string;
  requesterId: string;
  requesterName: string;
  requesterEmail: string | null;
  status: ApprovalStatus;
  round: number;
  mode: ApprovalMode;
  nValue: number;
  approverEmployeeIds: string[];
  reasons: string[];
  cartToken: string | null;
  customerComment: string | null;
  billingAddressId: string | null;
  shippingAddressId: string | null;
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

export function toApprovalRow(row: Record<string, any>): ApprovalRow {
  return {
    id: row.id,
    approvalNumber: row.approval_number,
    customerId: row.customer_id,
    salesChannelId: row.sales_channel_id,
    requesterType: row.requester_type,
    requesterId: row.requester_id,
    requesterName: row.requester_name,
    requesterEmail: row.requester_email ?? null,
    status: row.status,
    round: readInt(row.decision_round),
    mode: row.mode,
    nValue: readInt(row.n_value),
    approverEmployeeIds: readJson<string[]>(row.approver_employee_ids, []),
    reasons: readJson<string[]>(row.reasons, []),
    cartToken: row.cart_token ?? null,
    customerComment: row.customer_comment ?? null,
    billingAddressId: row.billing_address_id ?? null,
    shippingAddressId: row.shipping_address_id ?? null,
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

/** An approval of the customer; another customer's id reads as absent. */
export async function getApproval(executor: Executor, customerId: string, id: string, lock = false): Promise<ApprovalRow | null> {
  const query = executor(APPROVALS).where({ id, customer_id: customerId }).first();
  const row = await (lock ? forUpdate(query, executor) : query);
  return row ? toApprovalRow(row) : null;
}

/** An approval's line: the shared line-item shape (src/lib/line-items.ts). */
export type ApprovalLine = LineItem;

export async function approvalLines(executor: Executor, approvalId: string): Promise<ApprovalLine[]> {
  const rows = await executor(LINE_ITEMS).where({ approval_id: approvalId }).orderBy('position').orderBy('id');
  return rows.map(lineItemFromRow);
}

// Line sums are one mechanism for carts, orders, approvals and offers (src/lib/line-items.ts).
export { totalsOf } from '../../lib/line-items.js';

export async function loadSettings(executor: Executor, customerId: string): Promise<ApprovalSettings> {
  const row = await executor(SETTINGS).where({ customer_id: customerId }).first();
  if (!row) return { ...DEFAULT_SETTINGS, approverEmployeeIds: [] };
  return { mode: row.mode, approverEmployeeIds: readJson<string[]>(row.approver_employee_ids, []), nValue: readInt(row.n_value) };
}

export async function saveSettings(executor: Executor, customerId: string, settings: ApprovalSettings): Promise<void> {
  await executor(SETTINGS)
    .insert({ customer_id: customerId, mode: settings.mode, approver_employee_ids: writeJson(settings.approverEmployeeIds), n_value: settings.nValue, updated_at: nowDb() })
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

export interface DecisionRow {
  approverKey: string;
  approverType: string;
  approverId: string;
  approverName: string;
  decision: 'approved' | 'declined';
  comment: string | null;
  ccEmployeeIds: string[];
}

export async function decisionsOf(executor: Executor, approvalId: string, round: number): Promise<DecisionRow[]> {
  const rows = await executor(DECISIONS).where({ approval_id: approvalId, round }).orderBy('created_at').orderBy('id');
  return rows.map((r) => ({
    approverKey: r.approver_key,
    approverType: r.approver_type,
    approverId: r.approver_id,
    approverName: r.approver_name,
    decision: r.decision,
    comment: r.comment ?? null,
    ccEmployeeIds: readJson<string[]>(r.cc_employee_ids, []),
  }));
}

/** The customers were deleted by the host (contract event): their approvals (lines, decisions … by foreign key) and settings go with them. */
export async function deleteCustomersApprovals(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(APPROVALS).whereIn('customer_id', customerIds).delete();
  await executor(SETTINGS).whereIn('customer_id', customerIds).delete();
}
