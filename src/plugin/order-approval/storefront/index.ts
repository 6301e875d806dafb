import type { HostRuntime, StoreContext, StorefrontPage } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { isId } from '../../../lib/ids.js';
import { formErrors, type Form, type PageResult } from '../../employee/index.js';
import { page, routeCaller, routesByName, type PageApi } from '../../storefront-kit.js';
import { isApprover, isCompanyAdmin, keyOf, seesAll } from '../approvers.js';
import { orderApprovalRoutes } from '../routes.js';
import type { approvalListItemSchema } from '../schemas.js';
import type { SchemaInput } from '../../../lib/routes.js';
import type { OrderApprovalUseCases } from '../use-cases/index.js';
import { approvalChainReader } from '../rules/storefront.js';

type Api = PageApi<typeof orderApprovalRoutes>;

const LIST_LIMIT = 50;
const LIST_PATH = '/account/order-approvals';
const detailPath = (id: string) => `/account/order-approval/${id}`;

/** What the pages read of the routes' answers (the same objects the handlers build). */
type ApprovalListItem = SchemaInput<typeof approvalListItemSchema>;

const ACTION_LABELS: Record<string, string> = {
  created: 'Requested',
  approved: 'Approved',
  declined: 'Declined',
  reminded: 'Reminder sent',
  refreshed: 'Refreshed',
  executed: 'Ordered',
  updated: 'Changed',
  'line-item-updated': 'Line item changed',
  'line-item-deleted': 'Line item removed',
  'settings-applied': 'Approval settings applied',
  'level-approved': 'Level passed',
  escalated: 'Handed to the company admins',
};

/** What a redirect after a form may announce; nothing from the query string is echoed. */
const NOTICES: Record<string, string> = {
  approved: 'You approved the order request.',
  declined: 'You declined the order request.',
  ordered: 'The order was placed.',
  refreshed: 'Prices and stock were checked again.',
};

function dateTime(ctx: StoreContext, iso: unknown): string {
  if (typeof iso !== 'string') return '';
  const options = { dateStyle: 'medium', timeStyle: 'short', timeZone: ctx.salesChannel.timeZone || 'UTC' } as const;
  try {
    return new Intl.DateTimeFormat('en-GB', options).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(new Date(iso));
  }
}

function comment(form: Form): string | undefined {
  const value = typeof form.comment === 'string' ? form.comment.trim() : '';
  return value === '' ? undefined : value;
}

/**
 * The storefront pages of order approval: the list behind the account menu and the detail page the
 * mails link to, with the approve / decline / order / refresh forms. Every read and action goes
 * through the declared Store API route (its permission, schemas and handler).
 */
export function orderApprovalStorefrontPages(host: HostRuntime, service: OrderApprovalUseCases): StorefrontPage[] {
  const routes = routesByName(orderApprovalRoutes(host, service));
  const call = routeCaller();
  return [...approvalListPages({ call, routes }), ...approvalDetailPages(host, { call, routes })];
}

const isMe = (ctx: StoreContext, type: string, id: string | null) =>
  keyOf(ctx.actor.type, ctx.actor.id) === keyOf(type, id);

/** The list: the caller's own requests, what waits for their decision, what they decided. */
function approvalListPages({ call, routes }: Api): StorefrontPage[] {
  async function listPage(ctx: StoreContext): Promise<PageResult> {
    const mine = await call(ctx, routes.listOrderApprovals, {
      body: {
        limit: LIST_LIMIT,
        filter: [
          { type: 'equals', field: 'requesterType', value: ctx.actor.type },
          { type: 'equals', field: 'requesterId', value: ctx.actor.id ?? '' },
        ],
      },
    });
    const mayApprove = seesAll(ctx) || ctx.employee !== null;
    const toDecide: ApprovalListItem[] = [];
    let pendingTotal = 0;
    if (mayApprove) {
      const pending = await call(ctx, routes.listOrderApprovals, {
        body: { limit: LIST_LIMIT, filter: [{ type: 'equals', field: 'status', value: 'pending' }] },
      });
      for (const approval of pending.data) {
        if (
          !isApprover(ctx, {
            mode: approval.mode,
            approverEmployeeIds: approval.approverEmployeeIds,
            requesterType: approval.requester.type,
            requesterId: approval.requester.id,
          })
        )
          continue;
        const { approverStatus } = await call(ctx, routes.readOrderApprovalApprovers, {
          params: { orderApprovalId: approval.id },
        });
        const me = approverStatus.approvers.find((a) => isMe(ctx, a.type, a.employeeId));
        if (me?.status === 'pending') toDecide.push(approval);
      }
      pendingTotal = pending.total;
    }
    // What the caller approved or declined stays listed, read-only, also once their level has passed.
    const decided = mayApprove
      ? (
          await call(ctx, routes.listOrderApprovals, {
            body: { limit: LIST_LIMIT, decidedByMe: true },
          })
        ).data
      : [];
    const row = (approval: ApprovalListItem) => ({
      ...approval,
      createdAtText: dateTime(ctx, approval.createdAt),
      url: detailPath(approval.id),
    });
    return {
      template: 'order-approval-list',
      data: {
        title: 'Order approvals',
        mayApprove,
        toDecide: toDecide.map(row),
        decided: decided.map(row),
        morePending: pendingTotal > LIST_LIMIT,
        mine: mine.data.map(row),
        mineTotal: mine.total,
        mineMore: mine.total > mine.data.length,
      },
    };
  }

  return [{ path: LIST_PATH, auth: 'login', handler: ({ ctx }) => listPage(ctx) }];
}

/** One approval, with the approve / decline / order / refresh forms. */
function approvalDetailPages(host: HostRuntime, { call, routes }: Api): StorefrontPage[] {
  const readChain = approvalChainReader(host);

  async function detailPage(
    ctx: StoreContext,
    id: string,
    extra: { error?: string; notice?: string | null } = {},
    status = 200,
  ): Promise<PageResult> {
    if (!isId(id)) throw Errors.notFound('Order approval', id);
    const params = { orderApprovalId: id };
    const approval = await call(ctx, routes.readOrderApproval, { params });
    const { approverStatus } = await call(ctx, routes.readOrderApprovalApprovers, {
      params,
    });
    const { activities } = await call(ctx, routes.readOrderApprovalActivity, { params });
    const chain = await readChain(ctx, id, (iso) => dateTime(ctx, iso));
    const me = approverStatus.approvers.find((a) => isMe(ctx, a.type, a.employeeId));
    const isRequester = isMe(ctx, approval.requester.type, approval.requester.id);
    const open = approval.status === 'pending' || approval.status === 'approved';
    return {
      template: 'order-approval-detail',
      status,
      data: {
        title: `Order approval ${approval.approvalNumber}`,
        approval: {
          ...approval,
          createdAtText: dateTime(ctx, approval.createdAt),
          decidedAtText: dateTime(ctx, approval.decidedAt),
        },
        approvers: approverStatus.approvers.map((a) => ({ ...a, isMe: a === me })),
        chain,
        activities: activities.map((a) => ({
          ...a,
          label: ACTION_LABELS[a.action] ?? a.action,
          createdAtText: dateTime(ctx, a.createdAt),
        })),
        canDecide: me?.canApprove === true,
        canExecute: approval.status === 'approved' && !approval.isBlocked && (isRequester || isCompanyAdmin(ctx)),
        canRefresh: open,
        isRequester,
        error: extra.error ?? null,
        notice: extra.notice ?? null,
        listUrl: LIST_PATH,
      },
    };
  }

  /** Runs a form's action; a 400 shows the detail page again with the reason, anything else propagates. */
  async function act(ctx: StoreContext, id: string, work: () => Promise<unknown>, done: string): Promise<PageResult> {
    if (!isId(id)) throw Errors.notFound('Order approval', id);
    const result = await formErrors(work);
    if ('error' in result) return detailPage(ctx, id, { error: result.error.message }, 400);
    return { redirect: `${detailPath(id)}?done=${done}` };
  }

  return [
    page({
      path: '/account/order-approval/:id',
      auth: 'login',
      handler: ({ ctx, params, query }) =>
        detailPage(ctx, params.id, { notice: typeof query.done === 'string' ? (NOTICES[query.done] ?? null) : null }),
    }),
    page({
      path: '/account/order-approval/:id/approve',
      method: 'POST',
      auth: 'login',
      handler: ({ ctx, params, form }) =>
        act(
          ctx,
          params.id,
          () =>
            call(ctx, routes.approveOrderApproval, {
              params: { orderApprovalId: params.id },
              body: { comment: comment(form) ?? null },
            }),
          'approved',
        ),
    }),
    page({
      path: '/account/order-approval/:id/decline',
      method: 'POST',
      auth: 'login',
      async handler({ ctx, params, form }) {
        const reason = comment(form);
        if (!reason) return detailPage(ctx, params.id, { error: 'Please say why you decline the order request.' }, 400);
        return act(
          ctx,
          params.id,
          () =>
            call(ctx, routes.declineOrderApproval, {
              params: { orderApprovalId: params.id },
              body: { comment: reason },
            }),
          'declined',
        );
      },
    }),
    page({
      path: '/account/order-approval/:id/execute',
      method: 'POST',
      auth: 'login',
      handler: ({ ctx, params }) =>
        act(
          ctx,
          params.id,
          async () => {
            const { executionResult } = await call(ctx, routes.executeOrderApproval, {
              params: { orderApprovalId: params.id },
              body: {},
            });
            if (!executionResult.success)
              throw Errors.badRequest(
                'SUITE__ORDER_APPROVAL_EXECUTION_FAILED',
                executionResult.errorMessage ?? 'The order could not be placed.',
              );
          },
          'ordered',
        ),
    }),
    page({
      path: '/account/order-approval/:id/refresh',
      method: 'POST',
      auth: 'login',
      handler: ({ ctx, params }) =>
        act(
          ctx,
          params.id,
          () => call(ctx, routes.refreshOrderApproval, { params: { orderApprovalId: params.id }, body: {} }),
          'refreshed',
        ),
    }),
  ];
}

export function registerOrderApprovalStorefront(host: HostRuntime, service: OrderApprovalUseCases): void {
  for (const page of orderApprovalStorefrontPages(host, service)) host.storefront.page(page);
}
