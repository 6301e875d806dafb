import type { Knex } from 'knex';
import {
  fixedRead,
  forUpdate,
  lockingRead,
  readBool,
  readInt,
  selectRaw,
  selectRows,
  type Executor,
} from '../../lib/db.js';
import { toDbTime } from '../../lib/time.js';
import { unitScopeOfEmployee } from '../company/index.js';
import type { PeriodType, PeriodWindow } from './periods.js';

export interface BudgetRow {
  id: string;
  customerId: string;
  name: string;
  description: string | null;
  amount: number;
  currencyIso: string;
  periodType: PeriodType;
  startDate: string;
  active: boolean;
  notificationPercentage: number | null;
  allowApproval: boolean;
  approverEmployeeId: string | null;
  /** Rows of the budget in suite_budget_orders, kept by `recordBudgetOrder` (migration 014). */
  orderCount: number;
  createdAt: string;
  updatedAt: string | null;
}

export const BUDGETS = 'suite_budgets';
export const BUDGET_EMPLOYEES = 'suite_budget_employees';
export const BUDGET_CATEGORIES = 'suite_budget_categories';
/** Organisation units a budget applies to (migration 022). */
export const BUDGET_UNITS = 'suite_budget_units';
export const BUDGET_ORDERS = 'suite_budget_orders';
export const APPROVAL_BUDGETS = 'suite_order_approval_budgets';
export const APPROVALS = 'suite_order_approvals';
/** Approval states whose amount is reserved on their budgets. */
export const RESERVING_STATES = ['pending', 'approved'];

/** A row of suite_budgets as the drivers answer it (numbers and flags may come back as strings). */
export interface BudgetTableRow {
  id: string;
  customer_id: string;
  name: string;
  description: string | null;
  amount: unknown;
  currency_iso: string;
  period_type: PeriodType;
  start_date: string;
  active: unknown;
  notification_percentage: unknown;
  allow_approval: unknown;
  approver_employee_id: string | null;
  order_count: unknown;
  created_at: string;
  updated_at: string | null;
}

export function toBudgetRow(row: BudgetTableRow): BudgetRow {
  return {
    id: row.id,
    customerId: row.customer_id,
    name: row.name,
    description: row.description ?? null,
    amount: readInt(row.amount),
    currencyIso: row.currency_iso,
    periodType: row.period_type,
    startDate: row.start_date,
    active: readBool(row.active),
    notificationPercentage:
      row.notification_percentage === null || row.notification_percentage === undefined
        ? null
        : Number(row.notification_percentage),
    allowApproval: readBool(row.allow_approval),
    approverEmployeeId: row.approver_employee_id ?? null,
    orderCount: readInt(row.order_count),
    createdAt: row.created_at,
    updatedAt: row.updated_at ?? null,
  };
}

const budgetOfCustomer = fixedRead((executor: Executor, id: string, customerId: string) =>
  executor(BUDGETS).where({ id, customer_id: customerId }).select('*'),
);
const lockedBudgetOfCustomer = fixedRead((executor: Executor, id: string, customerId: string) =>
  forUpdate(executor(BUDGETS).where({ id, customer_id: customerId }).select('*'), executor),
);

/** The customer's budget (with `lock`, its row locked for the rest of the transaction); another customer's id reads as absent. */
export async function getBudget(
  executor: Executor,
  customerId: string,
  id: string,
  lock = false,
): Promise<BudgetRow | null> {
  const [row] = await (lock ? lockedBudgetOfCustomer : budgetOfCustomer)<BudgetTableRow>(executor, id, customerId);
  return row ? toBudgetRow(row) : null;
}

/** The budgets with these ids, by name (then id). */
export async function budgetsByIds(executor: Executor, ids: string[]): Promise<BudgetRow[]> {
  const rows = await selectRows<BudgetTableRow>(executor(BUDGETS).whereIn('id', ids).orderBy('name').orderBy('id'));
  return rows.map(toBudgetRow);
}

/** A customer's budgets by name (then id), at most `limit`. */
export async function budgetsOfCustomer(executor: Executor, customerId: string, limit: number): Promise<BudgetRow[]> {
  const rows = await selectRows<BudgetTableRow>(
    executor(BUDGETS)
      .where({ customer_id: customerId })
      .orderBy([{ column: 'name' }, { column: 'id' }])
      .limit(limit),
  );
  return rows.map(toBudgetRow);
}

/** The customer's budgets, for a search by criteria (columns qualified with the table name). */
export function customerBudgetsQuery(executor: Executor, customerId: string): Knex.QueryBuilder {
  return executor(BUDGETS).where(`${BUDGETS}.customer_id`, customerId);
}

/** A new budget: its columns as written (snake_case, amounts in minor units). */
export async function insertBudget(executor: Executor, columns: Record<string, unknown>): Promise<void> {
  await executor(BUDGETS).insert(columns);
}

/** Writes the columns of the customer's budget. */
export async function updateBudget(
  executor: Executor,
  customerId: string,
  id: string,
  columns: Record<string, unknown>,
): Promise<void> {
  await executor(BUDGETS).where({ id, customer_id: customerId }).update(columns);
}

/** Deletes the customer's budget; answers the rows deleted (0: not the customer's, or gone). */
export async function deleteBudget(executor: Executor, customerId: string, id: string): Promise<number> {
  return executor(BUDGETS).where({ id, customer_id: customerId }).delete();
}

/** A budget's orders (`bo`), for a search by criteria. */
export function budgetOrdersSearchQuery(executor: Executor, budgetId: string): Knex.QueryBuilder {
  return executor(`${BUDGET_ORDERS} as bo`).where('bo.budget_id', budgetId);
}

/** The budgets an approval reserved its amount on. */
export async function budgetIdsOfApproval(executor: Executor, approvalId: string): Promise<string[]> {
  const rows = await selectRows<{ budget_id: string }>(
    executor(APPROVAL_BUDGETS).where({ approval_id: approvalId }).select('budget_id'),
  );
  return rows.map((r) => r.budget_id);
}

/** A row of `budgetOrderPage`: a budget order and its budget's order count. */
export interface BudgetOrderPageRow {
  order_id: string;
  budget_data: string;
  order_count: unknown;
}

/**
 * A page of a budget's orders, newest first (the list's default sort), each row with the budget's
 * maintained order count, in one statement: the budget joined by id and customer, so another
 * customer's budget answers no rows (as does a budget without orders on that page). The limit is a
 * literal, as in `searchByCriteria`.
 */
export async function budgetOrderPage(
  executor: Executor,
  customerId: string,
  budgetId: string,
  limit: number,
  offset: number,
): Promise<BudgetOrderPageRow[]> {
  if (!Number.isInteger(limit)) throw new Error(`budgetOrderPage: the limit ${limit} is not an integer`);
  const sql = `select bo.order_id, bo.budget_data, b.order_count from ${BUDGET_ORDERS} bo join ${BUDGETS} b on b.id = bo.budget_id where bo.budget_id = ? and b.customer_id = ? order by bo.placed_at desc, bo.order_id desc limit ${limit} offset ?`;
  return selectRaw<BudgetOrderPageRow>(executor, sql, [budgetId, customerId, offset]);
}

/** Rows locked in id order, so two transactions never wait on each other crosswise. */
export async function lockBudgets(trx: Executor, ids: string[]): Promise<BudgetRow[]> {
  if (ids.length === 0) return [];
  const rows = await selectRows<BudgetTableRow>(
    forUpdate(trx(BUDGETS).whereIn('id', ids).orderBy('id').select('*'), trx),
  );
  return rows.map(toBudgetRow);
}

/**
 * Active budgets that govern an employee's orders: those the employee is assigned to, those
 * assigned to an organisation unit in the employee's unit scope (their units and the units above:
 * a unit's budget covers its subtree), and those with neither employees nor units (company-wide).
 * The company admin's own orders are not limited.
 */
export async function applicableBudgetIds(
  executor: Executor,
  customerId: string,
  employeeId: string,
): Promise<string[]> {
  const unitScope = await unitScopeOfEmployee(executor, customerId, employeeId);
  const links = (sub: Knex.QueryBuilder, table: string) =>
    sub
      .select(executor.raw('1'))
      .from(table)
      .whereRaw('??=??', [`${table}.budget_id`, `${BUDGETS}.id`]);
  const linked =
    (table: string) =>
    (sub: Knex.QueryBuilder): void => {
      links(sub, table);
    };
  const rows = await selectRows<{ id: string }>(
    executor(BUDGETS)
      .where({ customer_id: customerId, active: true })
      .where((qb) => {
        qb.whereExists((sub) => {
          links(sub, BUDGET_EMPLOYEES).where(`${BUDGET_EMPLOYEES}.employee_id`, employeeId);
        });
        if (unitScope.length)
          qb.orWhereExists((sub) => {
            links(sub, BUDGET_UNITS).whereIn(`${BUDGET_UNITS}.unit_id`, unitScope);
          });
        qb.orWhere((both) => {
          both.whereNotExists(linked(BUDGET_EMPLOYEES)).whereNotExists(linked(BUDGET_UNITS));
        });
      })
      .orderBy('id')
      .select('id'),
  );
  return rows.map((r) => r.id);
}

export async function budgetEmployeeIds(executor: Executor, budgetIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(budgetIds.map((id) => [id, []]));
  if (budgetIds.length === 0) return map;
  const rows = await selectRows<{ budget_id: string; employee_id: string }>(
    executor(BUDGET_EMPLOYEES)
      .whereIn('budget_id', budgetIds)
      .orderBy('employee_id')
      .select('budget_id', 'employee_id'),
  );
  for (const row of rows) map.get(row.budget_id)?.push(row.employee_id);
  return map;
}

export async function budgetUnitIds(executor: Executor, budgetIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(budgetIds.map((id) => [id, []]));
  if (budgetIds.length === 0) return map;
  const rows = await selectRows<{ budget_id: string; unit_id: string }>(
    executor(BUDGET_UNITS).whereIn('budget_id', budgetIds).orderBy('unit_id').select('budget_id', 'unit_id'),
  );
  for (const row of rows) map.get(row.budget_id)?.push(row.unit_id);
  return map;
}

/** Replaces the budget's units (undefined: unchanged). */
export async function replaceBudgetUnits(
  executor: Executor,
  budgetId: string,
  unitIds: string[] | undefined,
): Promise<void> {
  if (!unitIds) return;
  await executor(BUDGET_UNITS).where({ budget_id: budgetId }).delete();
  if (unitIds.length)
    await executor(BUDGET_UNITS).insert([...new Set(unitIds)].map((unit_id) => ({ budget_id: budgetId, unit_id })));
}

export async function budgetCategoryIds(executor: Executor, budgetIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(budgetIds.map((id) => [id, []]));
  if (budgetIds.length === 0) return map;
  const rows = await selectRows<{ budget_id: string; category_id: string }>(
    executor(BUDGET_CATEGORIES)
      .whereIn('budget_id', budgetIds)
      .orderBy('category_id')
      .select('budget_id', 'category_id'),
  );
  for (const row of rows) map.get(row.budget_id)?.push(row.category_id);
  return map;
}

export async function replaceBudgetLinks(
  executor: Executor,
  budgetId: string,
  employeeIds: string[] | undefined,
  categoryIds: string[] | undefined,
): Promise<void> {
  if (employeeIds) {
    await executor(BUDGET_EMPLOYEES).where({ budget_id: budgetId }).delete();
    if (employeeIds.length)
      await executor(BUDGET_EMPLOYEES).insert(
        [...new Set(employeeIds)].map((employee_id) => ({ budget_id: budgetId, employee_id })),
      );
  }
  if (categoryIds) {
    await executor(BUDGET_CATEGORIES).where({ budget_id: budgetId }).delete();
    if (categoryIds.length)
      await executor(BUDGET_CATEGORIES).insert(
        [...new Set(categoryIds)].map((category_id) => ({ budget_id: budgetId, category_id })),
      );
  }
}

/**
 * An order charged to the budget, and the budget's order count with it; the caller holds the
 * budget's row lock (`lockBudgets`) in the same transaction, so the count stays exact.
 */
export async function recordBudgetOrder(
  trx: Executor,
  row: {
    budgetId: string;
    orderId: string;
    customerId: string;
    orderNumber: string;
    amount: number;
    placedAt: string;
    budgetData: string;
  },
): Promise<void> {
  await trx(BUDGET_ORDERS).insert({
    budget_id: row.budgetId,
    order_id: row.orderId,
    customer_id: row.customerId,
    order_number: row.orderNumber,
    amount: row.amount,
    placed_at: row.placedAt,
    budget_data: row.budgetData,
  });
  await trx(BUDGETS).where({ id: row.budgetId }).increment('order_count', 1);
}

/**
 * A cancelled order's usage released (order-cancelled hook): its rows go from every budget it was
 * charged to, under those budgets' row locks, and their order counts with them.
 */
export async function releaseBudgetOrder(trx: Executor, orderId: string): Promise<void> {
  const charged = await selectRows<{ budget_id: string }>(
    trx(BUDGET_ORDERS).where({ order_id: orderId }).select('budget_id'),
  );
  for (const budget of await lockBudgets(
    trx,
    charged.map((row) => row.budget_id),
  )) {
    const removed = await trx(BUDGET_ORDERS).where({ budget_id: budget.id, order_id: orderId }).delete();
    if (removed > 0) await trx(BUDGETS).where({ id: budget.id }).decrement('order_count', removed);
  }
}

/** Net value of the orders placed in the window (minor units), read after the budget's row lock (`lockingRead`). */
export async function usedAmount(executor: Executor, budgetId: string, window: PeriodWindow | null): Promise<number> {
  if (!window) return 0;
  const query = executor(BUDGET_ORDERS).where({ budget_id: budgetId }).where('placed_at', '>=', toDbTime(window.start));
  if (window.end) query.where('placed_at', '<', toDbTime(window.end));
  const [row] = await selectRows<{ total: unknown }>(lockingRead(query.sum({ total: 'amount' }), executor));
  return readInt(row?.total);
}

/** Net value of the open approvals charged to the budget (minor units). */
export async function reservedAmount(
  executor: Executor,
  budgetId: string,
  excludeApprovalId?: string,
): Promise<number> {
  const query = reservationsQuery(executor, budgetId);
  if (excludeApprovalId) query.whereNot(`${APPROVALS}.id`, excludeApprovalId);
  const [row] = await selectRows<{ total: unknown }>(
    lockingRead(query.sum({ total: `${APPROVAL_BUDGETS}.amount` }), executor),
  );
  return readInt(row?.total);
}

export function reservationsQuery(executor: Executor, budgetId: string): Knex.QueryBuilder {
  return executor(APPROVAL_BUDGETS)
    .join(APPROVALS, `${APPROVALS}.id`, `${APPROVAL_BUDGETS}.approval_id`)
    .where(`${APPROVAL_BUDGETS}.budget_id`, budgetId)
    .whereIn(`${APPROVALS}.status`, RESERVING_STATES);
}

/** The customers were deleted by the host (contract event): their budgets go with them (employees, categories and usage by foreign key). */
export async function deleteCustomersBudgets(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(BUDGETS).whereIn('customer_id', customerIds).delete();
}
