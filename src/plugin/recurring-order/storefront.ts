import type { HostRuntime, StoreContext, StorefrontPage } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { isId } from '../../lib/ids.js';
import {
  attempt,
  noticeOf,
  page,
  routeCaller,
  routesByName,
  text,
  wholeNumber,
  type Form,
  type PageResult,
} from '../storefront-kit.js';
import { MANAGE_PERMISSION, recurringOrderRoutes } from './routes.js';
import { dateOf } from './schedule.js';
import type { RecurringOrderService } from './service.js';
import { nowMs } from '../../lib/time.js';

export const RECURRING_ORDERS_PATH = '/account/recurring-orders';

const NOTICES: Record<string, string> = {
  created: 'The recurring order was set up.',
  paused: 'The recurring order is paused.',
  resumed: 'The recurring order runs again.',
  skipped: 'The next date is skipped.',
  cancelled: 'The recurring order was cancelled.',
  changed: 'Your choice for products that are no longer available was saved.',
};
const UNAVAILABLE_TEXT: Record<string, string> = {
  hold: 'hold the order and ask me',
  'leave-out': 'leave them out and order the rest',
};
const UNITS = ['day', 'week', 'month'] as const;
const isUnit = (unit: string): unit is (typeof UNITS)[number] => (UNITS as readonly string[]).includes(unit);
const UNIT_TEXT: Record<string, [string, string]> = {
  day: ['day', 'days'],
  week: ['week', 'weeks'],
  month: ['month', 'months'],
};

/**
 * The buyer's recurring orders in the account: the list with each one's schedule, next date and
 * last occurrences, pause/resume/skip/cancel buttons, and the form that sets one up from a product
 * list (`?productListId=`, linked from the product list page) or from the cart (`?fromCart=1`).
 */
export function recurringOrderStorefrontPages(host: HostRuntime, service: RecurringOrderService): StorefrontPage[] {
  const routes = routesByName(recurringOrderRoutes(service));
  const call = routeCaller();
  const actions = {
    pause: routes.pauseRecurringOrder,
    resume: routes.resumeRecurringOrder,
    skip: routes.skipRecurringOrder,
    cancel: routes.cancelRecurringOrder,
  };
  const common = { auth: 'login' as const, anyPermission: [MANAGE_PERMISSION], needsCustomer: true };

  async function listPage(
    ctx: StoreContext,
    query: Record<string, unknown>,
    extra: { error?: string; form?: Form } = {},
    status = 200,
  ): Promise<PageResult> {
    const found = await call(ctx, routes.listRecurringOrders, { body: { limit: 100 } });
    const productListId =
      typeof query.productListId === 'string' && isId(query.productListId) ? query.productListId : null;
    const fromCart = query.fromCart === '1';
    return {
      template: 'b2b/recurring-orders',
      status,
      data: {
        title: 'Recurring orders',
        orders: found.elements.map((order) => {
          const [one, many] = UNIT_TEXT[order.interval.unit] ?? ['', ''];
          return {
            ...order,
            intervalText: order.interval.count === 1 ? `every ${one}` : `every ${order.interval.count} ${many}`,
            mayPause: order.status === 'active',
            mayResume: order.status === 'paused',
            maySkip: (order.status === 'active' || order.status === 'paused') && order.nextDate !== null,
            mayCancel: order.status !== 'cancelled',
            unavailableText: UNAVAILABLE_TEXT[order.unavailableProducts] ?? order.unavailableProducts,
            holdsUnavailable: order.unavailableProducts === 'hold',
            mayChange: order.status !== 'cancelled' && order.status !== 'ended',
            actionUrl: `${RECURRING_ORDERS_PATH}/${order.id}`,
            lastOccurrences: order.occurrences.slice(0, 3),
          };
        }),
        create:
          productListId || fromCart
            ? {
                source: productListId ? 'product-list' : 'cart',
                productListId,
                name: extra.form ? text(extra.form, 'name', 255) : '',
                startDate: extra.form ? text(extra.form, 'startDate', 10) : dateOf(new Date(nowMs() + 86400000)),
                count: extra.form ? text(extra.form, 'count', 3) : '1',
                leaveOut: extra.form ? text(extra.form, 'unavailableProducts', 16) === 'leave-out' : false,
              }
            : null,
        error: extra.error ?? null,
        notice: noticeOf(query, NOTICES),
      },
    };
  }

  return [
    { ...common, path: RECURRING_ORDERS_PATH, handler: ({ ctx, query }) => listPage(ctx, query) },
    {
      ...common,
      path: RECURRING_ORDERS_PATH,
      method: 'POST',
      async handler({ ctx, form }) {
        const source = text(form, 'source', 16) === 'product-list' ? 'product-list' : 'cart';
        const productListId = text(form, 'productListId', 64);
        const unit = text(form, 'unit', 8);
        const count = wholeNumber(text(form, 'count'), 1, 365);
        const query = source === 'product-list' ? { productListId } : { fromCart: '1' };
        if (!count || !isUnit(unit))
          return listPage(ctx, query, { error: 'Choose how often: every 1 to 365 days, weeks or months.', form }, 400);
        const name = text(form, 'name', 255);
        const result = await attempt(() =>
          call(ctx, routes.createRecurringOrder, {
            body: {
              ...(name ? { name } : {}),
              source,
              ...(source === 'product-list' ? { productListId } : {}),
              interval: { unit, count },
              startDate: text(form, 'startDate', 10),
              unavailableProducts: text(form, 'unavailableProducts', 16) === 'leave-out' ? 'leave-out' : 'hold',
            },
          }),
        );
        if ('error' in result) return listPage(ctx, query, { error: result.error, form }, 400);
        return { redirect: `${RECURRING_ORDERS_PATH}?done=created` };
      },
    },
    page({
      ...common,
      path: `${RECURRING_ORDERS_PATH}/:id/unavailable-products`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        const id = params.id;
        if (!isId(id)) throw Errors.notFound('Recurring order', id);
        const choice = text(form, 'unavailableProducts', 16) === 'leave-out' ? 'leave-out' : 'hold';
        const result = await attempt(() =>
          call(ctx, routes.updateRecurringOrder, { params: { id }, body: { unavailableProducts: choice } }),
        );
        if ('error' in result) return listPage(ctx, {}, { error: result.error }, 400);
        return { redirect: `${RECURRING_ORDERS_PATH}?done=changed` };
      },
    }),
    ...(Object.keys(actions) as Array<keyof typeof actions>).map((action) =>
      page({
        ...common,
        path: `${RECURRING_ORDERS_PATH}/:id/${action}`,
        method: 'POST',
        async handler({ ctx, params }) {
          const id = params.id;
          if (!isId(id)) throw Errors.notFound('Recurring order', id);
          const result = await attempt(() => call(ctx, actions[action], { params: { id }, body: {} }));
          if ('error' in result) return listPage(ctx, {}, { error: result.error }, 400);
          const done = { pause: 'paused', resume: 'resumed', skip: 'skipped', cancel: 'cancelled' }[action];
          return { redirect: `${RECURRING_ORDERS_PATH}?done=${done}` };
        },
      }),
    ),
  ];
}
