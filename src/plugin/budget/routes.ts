import {
  defineStoreRoute,
  orderView,
  type HostRuntime,
  type OrderRecord,
  type SalesChannel,
  type StoreContext,
} from '../../contract/index.js';
import { routeAlias, type SchemaInput } from '../../lib/routes.js';
import { isPlainPage, searchByCriteria, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import { inTransaction, readInt, readJson, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { fromMinor, toMinor } from '../../lib/money.js';
import { emptyBody, pathParams } from '../../lib/schemas.js';
import { fromDbTime, now as currentTime, nowDb, toDbTime } from '../../lib/time.js';
import { findEmployees, holds, listEmployees, unitTree } from '../company/index.js';
import { PERIOD_LABELS, PERIOD_TYPES, zonedToday } from './periods.js';
import {
  BUDGETS,
  applicableBudgetIds,
  budgetCategoryIds,
  budgetEmployeeIds,
  budgetOrderPage,
  budgetOrdersSearchQuery,
  budgetsByIds,
  budgetUnitIds,
  customerBudgetsQuery,
  deleteBudget,
  getBudget,
  insertBudget,
  replaceBudgetLinks,
  replaceBudgetUnits,
  toBudgetRow,
  updateBudget,
  type BudgetRow,
  type BudgetTableRow,
} from './repository.js';
import {
  approvalEmployeesResponse,
  budgetDeletedResponse,
  budgetListResponse,
  budgetOrdersBody,
  budgetOrdersQuery,
  budgetOrdersResponse,
  budgetResultResponse,
  budgetSchema,
  budgetSearchBody,
  createBudgetBody,
  patchBudgetBody,
  periodTypesResponse,
  replaceBudgetBody,
} from './schemas.js';
import { budgetStatus, type BudgetData } from './service.js';
import { storeList, storeListOf } from '../../lib/store-list.js';
import { declaredCustomer } from '../declared.js';
import { DerivedViews } from '../../lib/kept-views.js';

const TAGS = ['Budgets'];

const BUDGET_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: `${BUDGETS}.id`, type: 'id' },
    name: { column: `${BUDGETS}.name`, type: 'string' },
    active: { column: `${BUDGETS}.active`, type: 'boolean' },
    periodType: { column: `${BUDGETS}.period_type`, type: 'string' },
    allowApproval: { column: `${BUDGETS}.allow_approval`, type: 'boolean' },
    startDate: { column: `${BUDGETS}.start_date`, type: 'string' },
    createdAt: { column: `${BUDGETS}.created_at`, type: 'date' },
  },
  termColumns: [`${BUDGETS}.name`, `${BUDGETS}.description`],
  defaultSort: [
    { column: `${BUDGETS}.name`, order: 'asc' },
    { column: `${BUDGETS}.id`, order: 'asc' },
  ],
  idColumn: `${BUDGETS}.id`,
};

const BUDGET_ORDER_CRITERIA: CriteriaSpec = {
  fields: {
    orderId: { column: 'bo.order_id', type: 'id' },
    orderNumber: { column: 'bo.order_number', type: 'string' },
    orderDate: { column: 'bo.placed_at', type: 'date' },
  },
  termColumns: ['bo.order_number'],
  defaultSort: [
    { column: 'bo.placed_at', order: 'desc' },
    { column: 'bo.order_id', order: 'desc' },
  ],
  idColumn: 'bo.order_id',
};

type BudgetView = Record<string, unknown>;

export async function budgetViews(
  executor: Executor,
  budgets: BudgetRow[],
  salesChannel: SalesChannel,
): Promise<BudgetView[]> {
  const ids = budgets.map((b) => b.id);
  const [employees, categories, units] = await Promise.all([
    budgetEmployeeIds(executor, ids),
    budgetCategoryIds(executor, ids),
    budgetUnitIds(executor, ids),
  ]);
  const precision = salesChannel.currencyPrecision;
  const now = currentTime();
  const views: BudgetView[] = [];
  for (const budget of budgets) {
    const status = await budgetStatus(executor, budget, salesChannel.timeZone, now);
    const consumed = status.used + status.reserved;
    views.push({
      id: budget.id,
      name: budget.name,
      description: budget.description,
      amount: fromMinor(budget.amount, precision),
      currency: budget.currencyIso,
      periodType: budget.periodType,
      startDate: budget.startDate,
      active: budget.active,
      notificationPercentage: budget.notificationPercentage,
      allowApproval: budget.allowApproval,
      approverEmployeeId: budget.approverEmployeeId,
      employeeIds: employees.get(budget.id) ?? [],
      categoryIds: categories.get(budget.id) ?? [],
      unitIds: units.get(budget.id) ?? [],
      used: fromMinor(status.used, precision),
      reserved: fromMinor(status.reserved, precision),
      available: fromMinor(status.available, precision),
      usagePercentage: budget.amount > 0 ? Math.round((consumed / budget.amount) * 10000) / 100 : 0,
      periodStart: status.window ? fromDbTime(toDbTime(status.window.start)) : null,
      periodEnd: status.window?.end ? fromDbTime(toDbTime(status.window.end)) : null,
      createdAt: fromDbTime(budget.createdAt),
      updatedAt: fromDbTime(budget.updatedAt),
    });
  }
  return views;
}

/** What a budget write carries: the fields of the budget schemas (all optional, as in a PATCH). */
type BudgetInput = SchemaInput<typeof patchBudgetBody>;

/** Checks references and money precision; returns the columns to write. */
async function budgetColumns(
  host: HostRuntime,
  ctx: StoreContext,
  input: BudgetInput,
): Promise<Record<string, unknown>> {
  const customer = declaredCustomer(ctx);
  const { currencyIso, currencyPrecision } = ctx.salesChannel;
  const columns: Record<string, unknown> = {};
  if (input.currency !== undefined && input.currency !== currencyIso)
    throw Errors.badRequest(
      'SUITE__BUDGET_CURRENCY_NOT_SUPPORTED',
      `Budgets are kept in the sales channel's currency ${currencyIso}.`,
      { pointer: '/currency' },
    );
  if (input.amount !== undefined) {
    const minor = toMinor(input.amount, currencyPrecision);
    if (Math.abs(input.amount * 10 ** currencyPrecision - minor) > 1e-6 || minor < 1)
      throw Errors.badRequest(
        'SUITE__INVALID_AMOUNT',
        `The amount must be positive with at most ${currencyPrecision} decimals.`,
        { pointer: '/amount' },
      );
    columns.amount = minor;
  }
  const employeeIds = [...(input.employeeIds ?? []), ...(input.approverEmployeeId ? [input.approverEmployeeId] : [])];
  if (employeeIds.length) {
    const known = new Set((await findEmployees(host.db, customer.id, employeeIds)).map((e) => e.id));
    const unknownAssigned = (input.employeeIds ?? []).findIndex((id) => !known.has(id));
    if (unknownAssigned >= 0)
      throw Errors.badRequest('SUITE__UNKNOWN_EMPLOYEE', 'An assigned employee does not belong to this customer.', {
        pointer: `/employeeIds/${unknownAssigned}`,
      });
    if (input.approverEmployeeId && !known.has(input.approverEmployeeId))
      throw Errors.badRequest('SUITE__UNKNOWN_EMPLOYEE', 'The approver does not belong to this customer.', {
        pointer: '/approverEmployeeId',
      });
  }
  if (input.categoryIds?.length) {
    // A category the caller may not see answers as an unknown one: no existence oracle.
    const visible = new Set(await host.catalog.visibleEntityIds(host.db, ctx, 'category', input.categoryIds));
    const index = input.categoryIds.findIndex((categoryId) => !visible.has(categoryId));
    if (index >= 0)
      throw Errors.badRequest('SUITE__UNKNOWN_CATEGORY', `The category "${input.categoryIds[index]}" does not exist.`, {
        pointer: `/categoryIds/${index}`,
      });
  }
  if (input.unitIds?.length) {
    const known = new Set((await unitTree(host.db, customer.id)).map((unit) => unit.id));
    const index = input.unitIds.findIndex((unitId) => !known.has(unitId));
    if (index >= 0)
      throw Errors.badRequest('SUITE__UNKNOWN_UNIT', 'An organisation unit does not belong to this customer.', {
        pointer: `/unitIds/${index}`,
      });
  }
  if (input.name !== undefined) columns.name = input.name.trim();
  if (input.description !== undefined) columns.description = input.description;
  if (input.periodType !== undefined) columns.period_type = input.periodType;
  if (input.startDate !== undefined) columns.start_date = input.startDate;
  if (input.active !== undefined) columns.active = input.active;
  if (input.notificationPercentage !== undefined) columns.notification_percentage = input.notificationPercentage;
  if (input.allowApproval !== undefined) columns.allow_approval = input.allowApproval;
  if (input.approverEmployeeId !== undefined) columns.approver_employee_id = input.approverEmployeeId;
  return columns;
}

/** Fields a PUT leaves out go back to their defaults (the start date stays). */
function withDefaults(input: BudgetInput): BudgetInput {
  return {
    description: null,
    active: true,
    notificationPercentage: null,
    allowApproval: true,
    approverEmployeeId: null,
    employeeIds: [],
    categoryIds: [],
    unitIds: [],
    ...input,
  };
}

async function oneView(host: HostRuntime, ctx: StoreContext, id: string): Promise<BudgetView> {
  const budget = await getBudget(host.db, declaredCustomer(ctx).id, id);
  if (!budget) throw Errors.notFound('Budget', id);
  return (await budgetViews(host.db, [budget], ctx.salesChannel))[0]!;
}

export function budgetRoutes(host: HostRuntime) {
  return [...budgetLookupRoutes(host), ...budgetCrudRoutes(host), ...budgetOrderRoutes(host)];
}

/** Period types, the employee's budgets and the employees who may approve. */
function budgetLookupRoutes(host: HostRuntime) {
  const approvalEmployees = defineStoreRoute({
    method: 'GET',
    path: '/budget-approval-employees',
    operationId: 'listBudgetApprovalEmployees',
    summary: "Employees who can be chosen as a budget's approver (active, allowed to approve orders).",
    tags: TAGS,
    auth: 'login',
    needsCustomer: true,
    permission: 'budget.manage',
    schemas: { responses: { 200: approvalEmployeesResponse } },
    async handler({ ctx }) {
      const customer = declaredCustomer(ctx);
      const employees = (await listEmployees(host.db, customer.id)).filter(
        (e) => e.active && holds(e, 'order-approval.approve'),
      );
      return storeListOf(employees.map((e) => ({ id: e.id, employeeId: e.id, name: e.name, email: e.email })));
    },
  });
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/budget-period-types',
      operationId: 'listBudgetPeriodTypes',
      summary: 'The period types a budget can have.',
      tags: TAGS,
      auth: 'login',
      permission: null,
      schemas: { body: emptyBody, responses: { 200: periodTypesResponse } },
      handler: () =>
        Promise.resolve(storeListOf(PERIOD_TYPES.map((key) => ({ id: key, key, label: PERIOD_LABELS[key] })))),
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/employee-budget',
      operationId: 'readEmployeeBudgets',
      summary:
        "The active budgets that govern the logged-in employee's orders, with used, reserved and available amounts.",
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { responses: { 200: budgetListResponse } },
      async handler({ ctx }) {
        const customer = declaredCustomer(ctx);
        if (ctx.actor.type !== 'employee' || !ctx.employee) return storeListOf([]);
        const ids = await applicableBudgetIds(host.db, customer.id, ctx.employee.id);
        const budgets = ids.length ? await budgetsByIds(host.db, ids) : [];
        return storeListOf(await budgetViews(host.db, budgets, ctx.salesChannel));
      },
    }),
    approvalEmployees,
    // Where the real product's storefront connector calls it (decision 0048); the
    // router answers this literal path before the approval's `{orderApprovalId}`.
    routeAlias(approvalEmployees, {
      path: '/b2b/order-approval/budget-approval-employees',
      operationId: 'listBudgetApprovalEmployeesB2b',
    }),
  ];
}

/** A budget: create, read, replace, update, delete, and the list. */
function budgetCrudRoutes(host: HostRuntime) {
  const update = async (ctx: StoreContext, id: string, input: BudgetInput) => {
    const customer = declaredCustomer(ctx);
    const columns = await budgetColumns(host, ctx, input);
    await inTransaction(host.db, async (trx) => {
      const budget = await getBudget(trx, customer.id, id, true);
      if (!budget) throw Errors.notFound('Budget', id);
      await updateBudget(trx, customer.id, id, { ...columns, updated_at: nowDb() });
      await replaceBudgetLinks(trx, id, input.employeeIds, input.categoryIds);
      await replaceBudgetUnits(trx, id, input.unitIds);
    });
    return { success: true as const, budget: await oneView(host, ctx, id) };
  };

  return [
    defineStoreRoute({
      method: 'POST',
      path: '/budget',
      operationId: 'createBudget',
      summary: 'Creates a budget.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: 'budget.manage',
      idempotent: true,
      schemas: { body: createBudgetBody, responses: { 200: budgetResultResponse } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const input = withDefaults(body);
        const columns = await budgetColumns(host, ctx, input);
        const id = newId();
        await inTransaction(host.db, async (trx) => {
          await insertBudget(trx, {
            id,
            customer_id: customer.id,
            currency_iso: ctx.salesChannel.currencyIso,
            start_date: input.startDate ?? zonedToday(currentTime(), ctx.salesChannel.timeZone),
            ...columns,
            created_at: nowDb(),
          });
          await replaceBudgetLinks(trx, id, input.employeeIds, input.categoryIds);
          await replaceBudgetUnits(trx, id, input.unitIds);
        });
        return { success: true, budget: await oneView(host, ctx, id) };
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/budget/{id}',
      operationId: 'readBudget',
      summary: 'One budget with used, reserved and available amounts of the current period.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: 'budget.read',
      schemas: { params: pathParams('id'), responses: { 200: budgetSchema } },
      handler: async ({ ctx, params }) => oneView(host, ctx, params.id),
    }),
    defineStoreRoute({
      method: 'PUT',
      path: '/budget/{id}',
      operationId: 'replaceBudget',
      summary: 'Replaces a budget; optional fields left out return to their defaults, the start date stays.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: 'budget.manage',
      schemas: { params: pathParams('id'), body: replaceBudgetBody, responses: { 200: budgetResultResponse } },
      handler: async ({ ctx, params, body }) => update(ctx, params.id, withDefaults(body)),
    }),
    defineStoreRoute({
      method: 'PATCH',
      path: '/budget/{id}',
      operationId: 'updateBudget',
      summary: 'Changes the given fields of a budget.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: 'budget.manage',
      schemas: { params: pathParams('id'), body: patchBudgetBody, responses: { 200: budgetResultResponse } },
      handler: async ({ ctx, params, body }) => update(ctx, params.id, body),
    }),
    defineStoreRoute({
      method: 'DELETE',
      path: '/budget/{id}',
      operationId: 'deleteBudget',
      summary: 'Deletes a budget, its usage records and the reservations of open approvals on it.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: 'budget.manage',
      schemas: { params: pathParams('id'), responses: { 200: budgetDeletedResponse } },
      async handler({ ctx, params }) {
        const customer = declaredCustomer(ctx);
        const deleted = await deleteBudget(host.db, customer.id, params.id);
        if (deleted === 0) throw Errors.notFound('Budget', params.id);
        return { success: true };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/budget/list',
      operationId: 'listBudgets',
      summary: "The customer's budgets, searched by criteria.",
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: 'budget.read',
      schemas: { body: budgetSearchBody, responses: { 200: budgetListResponse } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const page = await searchByCriteria<BudgetTableRow>(
          customerBudgetsQuery(host.db, customer.id),
          body,
          BUDGET_CRITERIA,
          (qb) => qb.select(`${BUDGETS}.*`),
        );
        return storeList(await budgetViews(host.db, page.rows.map(toBudgetRow), ctx.salesChannel), page);
      },
    }),
  ];
}

/** The orders a budget was used by (GET with page and limit, POST with criteria). */
function budgetOrderRoutes(host: HostRuntime) {
  const budgetOrderViews = new DerivedViews<OrderRecord, Record<string, unknown>>();
  /** The GET (query page and limit) and POST (criteria) declarations of the budget's orders share this. */
  const budgetOrders = async (ctx: StoreContext, budgetId: string, criteria: Criteria) => {
    const customer = declaredCustomer(ctx);
    let budget: Promise<BudgetRow> | undefined;
    const customersBudget = () =>
      (budget ??= getBudget(host.db, customer.id, budgetId).then((found) => {
        if (!found) throw Errors.notFound('Budget', budgetId);
        return found;
      }));
    // Plain (no filter, term, ids or sort), the page comes with the budget's order count in one
    // statement that answers rows only for the customer's own budget; otherwise the budget first.
    if (!isPlainPage(criteria)) await customersBudget();
    // The budget is the customer's (checked before, or by the page's rows), so its id alone scopes the rows and the count stays on the index.
    const base = budgetOrdersSearchQuery(host.db, budgetId);
    let countOfPage: number | undefined;
    const page = await searchByCriteria<{ order_id: string; budget_data: string }>(
      base,
      criteria,
      BUDGET_ORDER_CRITERIA,
      (qb) => qb.select('bo.order_id', 'bo.budget_data'),
      {
        readPlainPage: async (limit, offset) => {
          const rows = await budgetOrderPage(host.db, customer.id, budgetId, limit, offset);
          if (rows.length) countOfPage = readInt(rows[0]!.order_count);
          return rows;
        },
        // Unfiltered, the total is the budget's maintained order count (read with the page, or with the budget).
        unfilteredTotal: async () => countOfPage ?? (await customersBudget()).orderCount,
      },
    );
    // An empty plain page does not tell whether the budget is the customer's: another customer's is a 404.
    if (page.rows.length === 0) await customersBudget();
    const orders = page.rows.length
      ? await host.orders.getMany(
          host.db,
          page.rows.map((r) => r.order_id),
        )
      : [];
    const dataById = new Map(page.rows.map((r) => [r.order_id, String(r.budget_data ?? '')]));
    // An order view the host keeps has its budget order view kept beside it, per budget data.
    const view = (order: OrderRecord, data: string) => budgetOrderView(order, readJson<BudgetData | null>(data, null)!);
    const views = orders.map((order) => {
      const data = dataById.get(String(order.id))!;
      return budgetOrderViews.of(order, data, () => view(order, data));
    });
    return { ...storeList(views, page), orders: views };
  };
  const budgetOrdersRoute = {
    path: '/budget/{budgetId}/orders',
    tags: TAGS,
    auth: 'login',
    needsCustomer: true,
    permission: 'budget.read',
  } as const;

  return [
    defineStoreRoute({
      ...budgetOrdersRoute,
      method: 'GET',
      operationId: 'readBudgetOrders',
      summary: 'Orders charged to a budget, newest first (query page and limit).',
      schemas: { params: pathParams('budgetId'), query: budgetOrdersQuery, responses: { 200: budgetOrdersResponse } },
      handler: ({ ctx, params, query }) => budgetOrders(ctx, params.budgetId, { page: query.page, limit: query.limit }),
    }),
    defineStoreRoute({
      ...budgetOrdersRoute,
      method: 'POST',
      operationId: 'searchBudgetOrders',
      summary: 'Orders charged to a budget, searched by criteria.',
      schemas: { params: pathParams('budgetId'), body: budgetOrdersBody, responses: { 200: budgetOrdersResponse } },
      handler: ({ ctx, params, body }) => budgetOrders(ctx, params.budgetId, body),
    }),
  ];
}

function budgetOrderView(record: OrderRecord, budgetData: BudgetData): Record<string, unknown> {
  const order = orderView(record);
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    orderDate: order.orderDate,
    stateMachineState: order.stateMachineState,
    currency: order.currency,
    totalPrice: order.amountTotal,
    netPrice: order.amountNet,
    taxAmount: order.taxAmount,
    billingAddress: order.billingAddress,
    orderCustomer: order.orderCustomer,
    deliveries: order.deliveries,
    transactions: order.transactions,
    lineItems: order.lineItems,
    documents: order.documents,
    budgetData,
  };
}
