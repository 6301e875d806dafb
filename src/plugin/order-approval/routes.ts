import { defineStoreRoute, type HostRuntime, type StoreContext } from '../../contract/index.js';
import { DEFAULT_LIMIT, type CriteriaSpec } from '../../lib/criteria.js';
import { readBool, readInt } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { lineItemView } from '../../lib/line-items.js';
import { fromMinor } from '../../lib/money.js';
import { reply, routeAlias, type SchemaInput } from '../../lib/routes.js';
import { emptyBody, objectSchema, pathParams } from '../../lib/schemas.js';
import { storeList } from '../../lib/store-list.js';
import { fromDbTime } from '../../lib/time.js';
import { findEmployees, holds } from '../company/index.js';
import { getBudget } from '../budget/index.js';
import { APPROVE_PERMISSION, approverEntries, approverStatus, keyOf, seesAll } from './approvers.js';
import {
  APPROVALS,
  approvalLines,
  countPendingApprovals,
  decisionsOf,
  loadSettings,
  saveSettings,
  reservationsOf,
  reservationsOnBudget,
  searchApprovals,
  type ApprovalListEntry,
  type ApprovalSummary,
  type ApprovalSettings,
} from './repository.js';
import {
  activitySchema,
  approvalDetailSchema,
  approvalListResponse,
  approvalSearchBody,
  approvalStoreList,
  approveBody,
  approverStatusSchema,
  budgetSummarySchema,
  createBody,
  declineBody,
  executeBody,
  executionResultSchema,
  lineItemDeleteBody,
  lineItemPatchBody,
  refreshBody,
  refreshResultSchema,
  remindBody,
  settingsBody,
  settingsSchema,
  UPDATABLE_FIELDS,
  updateBody,
} from './schemas.js';
import type { OrderApprovalUseCases } from './use-cases/index.js';
import { ApprovalSummaryCache } from './summary-cache.js';
import { DerivedViews } from '../../lib/kept-views.js';
import { declaredCustomer } from '../declared.js';

const TAGS = ['Order approval'];
const noContent200 = () => reply(200);

const APPROVAL_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: `${APPROVALS}.id`, type: 'id' },
    approvalNumber: { column: `${APPROVALS}.approval_number`, type: 'string' },
    status: { column: `${APPROVALS}.status`, type: 'string' },
    requesterId: { column: `${APPROVALS}.requester_id`, type: 'id' },
    requesterType: { column: `${APPROVALS}.requester_type`, type: 'string' },
    isBlocked: { column: `${APPROVALS}.is_blocked`, type: 'boolean' },
    createdAt: { column: `${APPROVALS}.created_at`, type: 'date' },
    updatedAt: { column: `${APPROVALS}.updated_at`, type: 'date' },
  },
  termColumns: [`${APPROVALS}.approval_number`, `${APPROVALS}.requester_name`],
  defaultSort: [
    { column: `${APPROVALS}.created_at`, order: 'desc' },
    { column: `${APPROVALS}.id`, order: 'desc' },
  ],
  idColumn: `${APPROVALS}.id`,
};

/** An approval as the Store API answers it (list items add `lineItemCount`, the detail its lines and budgets). */
export type ApprovalView = ReturnType<typeof approvalView>;

export function approvalView(approval: ApprovalSummary, precision: number) {
  const money = (minor: number) => fromMinor(minor, precision);
  // 'ordering' exists only inside the execute transaction; outside it reads as approved.
  const status = approval.status === 'ordering' ? 'approved' : approval.status;
  return {
    id: approval.id,
    approvalNumber: approval.approvalNumber,
    status,
    isApproved: status === 'approved' || status === 'ordered',
    isDeclined: status === 'declined',
    isOrdered: status === 'ordered',
    isBlocked: approval.isBlocked,
    blockReasons: approval.blockReasons,
    reasons: approval.reasons,
    requester: {
      type: approval.requesterType,
      id: approval.requesterId,
      name: approval.requesterName,
      email: approval.requesterEmail,
    },
    customerComment: approval.customerComment,
    mode: approval.mode,
    nValue: approval.nValue,
    approverEmployeeIds: approval.approverEmployeeIds,
    currency: approval.currencyIso,
    netPrice: money(approval.netTotal),
    taxAmount: money(approval.taxTotal),
    totalPrice: money(approval.total),
    billingAddressId: approval.billingAddressId,
    shippingAddressId: approval.shippingAddressId,
    paymentMethod: approval.paymentMethod,
    shippingMethod: approval.shippingMethod,
    orderId: approval.orderId,
    orderNumber: approval.orderNumber,
    executionResult: approval.executionResult,
    lastRefreshedAt: fromDbTime(approval.lastRefreshedAt),
    decidedAt: fromDbTime(approval.decidedAt),
    createdAt: fromDbTime(approval.createdAt),
    updatedAt: fromDbTime(approval.updatedAt),
  };
}

const approvalParams = pathParams('orderApprovalId');
const lineItemParams = pathParams('orderApprovalId', 'lineItemId');

/**
 * The order approval routes: settings, budget reservations, requesting and reading approvals,
 * deciding them, reminders and an approver's line edits.
 */
export function orderApprovalRoutes(host: HostRuntime, service: OrderApprovalUseCases) {
  return [
    ...approvalSettingsRoutes(host, service),
    ...budgetReservationRoutes(host),
    ...approvalRequestRoutes(host, service),
    ...approvalDecisionRoutes(service),
    ...approvalFollowUpRoutes(service),
  ];
}

/** Who approves a customer's orders: the settings, and applying them to pending approvals. */
function approvalSettingsRoutes(host: HostRuntime, service: OrderApprovalUseCases) {
  const { db } = host;
  const validateSettings = async (
    ctx: StoreContext,
    body: Pick<ApprovalSettings, 'mode'> & Partial<ApprovalSettings>,
  ): Promise<ApprovalSettings> => {
    const customer = declaredCustomer(ctx);
    const mode = body.mode;
    const approverEmployeeIds = body.approverEmployeeIds ?? [];
    const nValue = body.nValue ?? 1;
    const employees = await findEmployees(db, customer.id, approverEmployeeIds);
    for (const [index, id] of approverEmployeeIds.entries()) {
      const employee = employees.find((e) => e.id === id);
      if (!employee)
        throw Errors.badRequest('SUITE__UNKNOWN_EMPLOYEE', 'An approver does not belong to this customer.', {
          pointer: `/approverEmployeeIds/${index}`,
        });
      if (!holds(employee, APPROVE_PERMISSION))
        throw Errors.badRequest(
          'SUITE__APPROVER_NOT_PERMITTED',
          `${employee.name}'s role does not hold the permission "${APPROVE_PERMISSION}".`,
          { pointer: `/approverEmployeeIds/${index}` },
        );
    }
    if (mode === 'n-of') {
      if (approverEmployeeIds.length === 0)
        throw Errors.badRequest('SUITE__INVALID_APPROVAL_SETTINGS', 'Mode n-of needs at least one approver.', {
          pointer: '/approverEmployeeIds',
        });
      if (nValue > approverEmployeeIds.length)
        throw Errors.badRequest(
          'SUITE__INVALID_APPROVAL_SETTINGS',
          `nValue (${nValue}) cannot exceed the number of approvers (${approverEmployeeIds.length}).`,
          { pointer: '/nValue' },
        );
    }
    return { mode, approverEmployeeIds, nValue: mode === 'n-of' ? nValue : 1 };
  };

  return [
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/order-approval/settings/count-pending',
      operationId: 'countPendingOrderApprovals',
      summary: 'Number of pending order approvals of the customer.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: 'order-approval.manage-settings',
      schemas: { responses: { 200: objectSchema({ count: { type: 'integer', minimum: 0 } }, ['count']) } },
      async handler({ ctx }) {
        const customer = declaredCustomer(ctx);
        return { count: await countPendingApprovals(db, customer.id) };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/order-approval/settings/update-pending',
      operationId: 'applySettingsToPendingOrderApprovals',
      summary:
        'Applies the current approval settings to every pending approval (approving those that now have enough approvals).',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: 'order-approval.manage-settings',
      schemas: {
        body: emptyBody,
        responses: { 200: objectSchema({ updatedCount: { type: 'integer', minimum: 0 } }, ['updatedCount']) },
      },
      handler: async ({ ctx }) => ({ updatedCount: await service.updatePending(ctx) }),
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/order-approval/customer-settings',
      operationId: 'readOrderApprovalSettings',
      summary: "Who approves the customer's orders: mode, approvers and the number of approvals needed.",
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { responses: { 200: objectSchema({ settings: settingsSchema }, ['settings']) } },
      handler: async ({ ctx }) => ({ settings: await loadSettings(db, declaredCustomer(ctx).id) }),
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/order-approval/customer-settings',
      operationId: 'updateOrderApprovalSettings',
      summary: 'Sets who approves orders. New approvals use them; update-pending applies them to pending ones.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: 'order-approval.manage-settings',
      schemas: { body: settingsBody, responses: { 200: null } },
      async handler({ ctx, body }) {
        const settings = await validateSettings(ctx, body);
        await saveSettings(db, declaredCustomer(ctx).id, settings);
        return noContent200();
      },
    }),
  ];
}

/** What open approvals reserve on a budget. */
function budgetReservationRoutes(host: HostRuntime) {
  const { db } = host;
  return [
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/order-approval/budget/{budgetId}/summary',
      operationId: 'readBudgetApprovalSummary',
      summary: 'What open approvals reserve on a budget.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: 'budget.read',
      schemas: {
        params: pathParams('budgetId'),
        responses: { 200: objectSchema({ budgetSummary: budgetSummarySchema }, ['budgetSummary']) },
      },
      async handler({ ctx, params }) {
        const customer = declaredCustomer(ctx);
        const budget = await getBudget(db, customer.id, params.budgetId);
        if (!budget) throw Errors.notFound('Budget', params.budgetId);
        const rows = await reservationsOnBudget(db, budget.id);
        const precision = ctx.salesChannel.currencyPrecision;
        const total = rows.reduce((sum, r) => sum + readInt(r.amount), 0);
        return {
          budgetSummary: {
            budgetId: budget.id,
            totalReserved: fromMinor(total, precision),
            pendingApprovals: rows.filter((r) => r.status === 'pending').length,
            orderApprovals: rows.map((r) => ({
              id: r.id,
              approvalNumber: r.approval_number,
              status: r.status,
              reservedAmount: fromMinor(readInt(r.amount), precision),
              exceedsBudget: readBool(r.exceeds),
              requesterName: r.requester_name,
              createdAt: fromDbTime(r.created_at)!,
            })),
          },
        };
      },
    }),
  ];
}

/**
 * The list of approvals the caller may see (all of the company for admins and approvers, else one's
 * own requests), with the kept summaries and views it reads through.
 */
function approvalLister(host: HostRuntime) {
  const { db } = host;
  const listSummaries = new ApprovalSummaryCache();
  const listViews = new DerivedViews<ApprovalSummary, ReturnType<typeof approvalView> & { lineItemCount: number }>();
  return async (ctx: StoreContext, body: SchemaInput<typeof approvalSearchBody>) => {
    const customer = declaredCustomer(ctx);
    const visibleTo = seesAll(ctx)
      ? 'all'
      : ctx.employee
        ? { employeeId: ctx.employee.id }
        : { requester: { type: ctx.actor.type, id: ctx.actor.id ?? '' } };
    const { decidedByMe, ...criteria } = body;
    // What the caller decided stays visible to them (read-only) once their level has passed.
    const page = await searchApprovals(
      db,
      customer.id,
      decidedByMe ? 'all' : visibleTo,
      criteria,
      APPROVAL_CRITERIA,
      listSummaries,
      decidedByMe ? keyOf(ctx.actor.type, ctx.actor.id) : undefined,
    );
    const precision = ctx.salesChannel.currencyPrecision;
    // The count goes last on the view itself (no copy of every row's view); a kept summary's view is kept beside it.
    const listView = (r: ApprovalListEntry) =>
      Object.assign(approvalView(r.approval, precision), { lineItemCount: r.lineItemCount });
    return {
      total: page.total,
      data: page.rows.map((r) => listViews.of(r.approval, `${precision}/${r.lineItemCount}`, () => listView(r))),
    };
  };
}

/** Asking for approval, and reading approvals: the list, one approval, its activity, its approvers. */
function approvalRequestRoutes(host: HostRuntime, service: OrderApprovalUseCases) {
  const { db } = host;
  const listApprovals = approvalLister(host);
  const create = defineStoreRoute({
    method: 'POST',
    path: '/order-approval/create',
    operationId: 'createOrderApproval',
    summary:
      "Asks for approval of a cart; the approvers get a mail. The new approval's address is in the Location header.",
    tags: TAGS,
    auth: 'login',
    needsCustomer: true,
    permission: 'order-approval.request',
    idempotent: true,
    schemas: { body: createBody, responses: { 200: null } },
    async handler({ ctx, body }) {
      const id = await service.create(ctx, body);
      return reply(200, undefined, {
        headers: { Location: `/store-api/b2b/order-approval/${id}`, 'suite-order-approval-id': id },
      });
    },
  });
  const list = defineStoreRoute({
    method: 'POST',
    path: '/order-approval/list',
    operationId: 'listOrderApprovals',
    summary: "Order approvals, newest first: all of the company for admins and approvers, else one's own requests.",
    tags: TAGS,
    auth: 'login',
    needsCustomer: true,
    permission: null,
    schemas: { body: approvalSearchBody, responses: { 200: approvalListResponse } },
    async handler({ ctx, body }) {
      return listApprovals(ctx, body);
    },
  });
  return [
    create,
    list,
    // Where the real product's storefront connector calls them (decision 0048).
    routeAlias(create, { path: '/b2b/order-approval/create', operationId: 'createOrderApprovalB2b' }),
    routeAlias(list, {
      path: '/b2b/order-approval/list',
      operationId: 'searchOrderApprovalsB2b',
      summary:
        "The approvals of POST /order-approval/list in the platform's search result (`elements`, `total`, `page`, `limit`), as the real product's clients read it.",
      schemas: { body: approvalSearchBody, responses: { 200: approvalStoreList } },
      async handler({ ctx, body }: { ctx: StoreContext; body: SchemaInput<typeof approvalSearchBody> }) {
        const { total, data } = await listApprovals(ctx, body);
        return storeList(data, { total, page: body.page ?? 1, limit: body.limit ?? DEFAULT_LIMIT });
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/order-approval/{orderApprovalId}',
      operationId: 'readOrderApproval',
      summary: 'An order approval with its line items and budget reservations.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { params: approvalParams, responses: { 200: approvalDetailSchema } },
      async handler({ ctx, params }) {
        const approval = await service.visible(ctx, params.orderApprovalId);
        const precision = ctx.salesChannel.currencyPrecision;
        const lines = await approvalLines(db, approval.id);
        const budgets = await reservationsOf(db, approval.id);
        return {
          ...approvalView(approval, precision),
          lineItems: lines.map((l) => lineItemView(l, precision)),
          budgets: budgets.map((b) => ({
            budgetId: b.budgetId,
            name: b.name,
            reservedAmount: fromMinor(b.amount, precision),
            exceedsBudget: b.exceeds,
          })),
        };
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/order-approval/{orderApprovalId}/activity',
      operationId: 'readOrderApprovalActivity',
      summary: 'The activity log of an order approval, oldest first.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: {
        params: approvalParams,
        responses: { 200: objectSchema({ activities: { type: 'array', items: activitySchema } }, ['activities']) },
      },
      handler: async ({ ctx, params }) => ({ activities: await service.activities(ctx, params.orderApprovalId) }),
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/order-approval/{orderApprovalId}/approvers',
      operationId: 'readOrderApprovalApprovers',
      summary: "Each approver's decision in the current round, and whether they can still approve.",
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: {
        params: approvalParams,
        responses: { 200: objectSchema({ approverStatus: approverStatusSchema }, ['approverStatus']) },
      },
      async handler({ ctx, params }) {
        const approval = await service.visible(ctx, params.orderApprovalId);
        const entries = await approverEntries(host, db, approval);
        return {
          approverStatus: approverStatus(
            approval,
            entries,
            await decisionsOf(db, approval.id, approval.round, approval.level),
          ),
        };
      },
    }),
  ];
}

/** Deciding an approval: approve, decline, place its order, re-price it, change its comment or addresses. */
function approvalDecisionRoutes(service: OrderApprovalUseCases) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/order-approval/{orderApprovalId}/approve',
      operationId: 'approveOrderApproval',
      summary:
        'Approves (counts towards nValue in mode n-of); the requester and copied employees get a mail once it is approved.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { params: approvalParams, body: approveBody, responses: { 200: null } },
      async handler({ ctx, params, body }) {
        await service.decide(ctx, params.orderApprovalId, 'approved', body);
        return noContent200();
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/order-approval/{orderApprovalId}/decline',
      operationId: 'declineOrderApproval',
      summary: 'Declines with a reason; one decline declines. The requester and copied employees get a mail.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { params: approvalParams, body: declineBody, responses: { 200: null } },
      async handler({ ctx, params, body }) {
        await service.decide(ctx, params.orderApprovalId, 'declined', body);
        return noContent200();
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/order-approval/{orderApprovalId}/execute',
      operationId: 'executeOrderApproval',
      summary:
        'Places the order of an approved approval (once, however often it is called); refreshes first unless skipRefresh.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      idempotent: true,
      schemas: {
        params: approvalParams,
        body: executeBody,
        responses: { 200: objectSchema({ executionResult: executionResultSchema }, ['executionResult']) },
      },
      handler: async ({ ctx, params, body }) => ({
        executionResult: await service.execute(ctx, params.orderApprovalId, body),
      }),
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/order-approval/{orderApprovalId}/refresh',
      operationId: 'refreshOrderApproval',
      summary: "Re-prices the approval against today's catalog, prices and stock; a higher total needs approval again.",
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: {
        params: approvalParams,
        body: refreshBody,
        responses: { 200: objectSchema({ refreshResult: refreshResultSchema }, ['refreshResult']) },
      },
      handler: async ({ ctx, params, body }) => ({
        refreshResult: await service.refresh(ctx, params.orderApprovalId, body),
      }),
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/order-approval/{orderApprovalId}/update',
      operationId: 'updateOrderApproval',
      summary: 'Changes the comment or addresses of a pending or approved approval (requester or company admin).',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { params: approvalParams, body: updateBody, responses: { 200: null } },
      async handler({ ctx, params, body }) {
        // Decided: an update that names nothing is a mistake, not a refresh (refresh has its own route).
        if (!UPDATABLE_FIELDS.some((field) => field in body))
          throw Errors.badRequest(
            'SUITE__APPROVAL_UPDATE_EMPTY',
            `Nothing to update: send at least one of ${UPDATABLE_FIELDS.join(', ')}.`,
            { pointer: '' },
          );
        await service.update(ctx, params.orderApprovalId, body);
        return noContent200();
      },
    }),
  ];
}

/** Reminding approvers, and an approver's changes to the lines. */
function approvalFollowUpRoutes(service: OrderApprovalUseCases) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/order-approval/{orderApprovalId}/remind',
      operationId: 'remindOrderApprover',
      summary: 'Mails one pending approver a reminder (at most one per approver per interval).',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: {
        params: approvalParams,
        body: remindBody,
        responses: {
          200: objectSchema({ remindersSent: { type: 'integer', minimum: 0 }, approverId: { type: 'string' } }, [
            'remindersSent',
            'approverId',
          ]),
        },
      },
      async handler({ ctx, params, body }) {
        return {
          remindersSent: await service.remind(ctx, params.orderApprovalId, body.approverId),
          approverId: body.approverId,
        };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/order-approval/{orderApprovalId}/remind/all',
      operationId: 'remindAllOrderApprovers',
      summary: 'Mails every pending approver a reminder (at most one per approver per interval).',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: {
        params: approvalParams,
        body: emptyBody,
        responses: { 200: objectSchema({ remindersSent: { type: 'integer', minimum: 0 } }, ['remindersSent']) },
      },
      handler: async ({ ctx, params }) => ({ remindersSent: await service.remind(ctx, params.orderApprovalId, null) }),
    }),
    defineStoreRoute({
      method: 'PATCH',
      path: '/b2b/order-approval/{orderApprovalId}/line-items/{lineItemId}',
      operationId: 'updateOrderApprovalLineItem',
      summary: "An approver changes a line's quantity; re-priced, logged, and a higher total needs approval again.",
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { params: lineItemParams, body: lineItemPatchBody, responses: { 200: null } },
      async handler({ ctx, params, body }) {
        await service.updateLineItem(ctx, params.orderApprovalId, params.lineItemId, body.quantity);
        return noContent200();
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/order-approval/{orderApprovalId}/line-items/{lineItemId}/delete',
      operationId: 'deleteOrderApprovalLineItem',
      summary: 'An approver removes a line with a reason; logged in the activity.',
      tags: TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { params: lineItemParams, body: lineItemDeleteBody, responses: { 200: null } },
      async handler({ ctx, params, body }) {
        await service.deleteLineItem(ctx, params.orderApprovalId, params.lineItemId, body.reason);
        return noContent200();
      },
    }),
  ];
}
