import type { HostRuntime, StoreContext, StorefrontPage } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { isId } from '../../lib/ids.js';
import type { SchemaInput } from '../../lib/routes.js';
import { fastOrderRoutes } from '../fast-order/index.js';
import type { ProductListService } from '../product-list/index.js';
import {
  attempt,
  dateText,
  download,
  routeCaller,
  routesByName,
  text,
  wholeNumber,
  type Form,
  type PageResult,
} from '../storefront-kit.js';
import { automaticListRoutes, READ_ALL } from './automatic-routes.js';
import { ORDERING, orderAgainRoutes } from './routes.js';
import type { orderAgainResponse } from './schemas.js';
import { nowMs } from '../../lib/time.js';

type Answer = SchemaInput<typeof orderAgainResponse>;

const CHANGE_TEXT: Record<string, string> = {
  'not-visible': 'no longer available to you',
  'price-changed': 'price changed',
  'quantity-adjusted': 'quantity adjusted to the quantity rule',
  'out-of-stock': 'out of stock',
};
const LISTS = {
  assortment: { path: '/account/assortment', title: 'My assortment' },
  frequent: { path: '/account/frequently-ordered', title: 'Frequently ordered' },
} as const;
const PAGE_SIZE = 100;
/** Linked from the host's order page with ?orderId= (a fixed path, so the host can ask whether the caller may open it). */
export const AGAIN_PATH = '/account/order-again';

/**
 * Order again (a form behind the order page's link, then the answer line by line) and the
 * automatic lists (a table with quantities to put into the cart through fast order's add-to-cart,
 * and the CSV export). Every page calls the declared Store API routes.
 */
export function orderAgainStorefrontPages(host: HostRuntime, lists: ProductListService): StorefrontPage[] {
  const routes = routesByName([
    ...orderAgainRoutes(host, lists),
    ...automaticListRoutes(host),
    ...fastOrderRoutes(host),
  ]);
  const call = routeCaller();

  function againPage(orderId: string, answer: Answer | null, error: string | null, status = 200): PageResult {
    return {
      template: 'b2b/order-again',
      status,
      data: {
        title: 'Order again',
        orderUrl: `/account/orders/${orderId}`,
        action: AGAIN_PATH,
        orderId,
        error,
        answer: answer && {
          ...answer,
          lines: answer.lines.map((line) => ({
            ...line,
            changesText: line.changes.map((c) => CHANGE_TEXT[c] ?? c).join(', '),
          })),
        },
      },
    };
  }

  async function listPage(ctx: StoreContext, kind: keyof typeof LISTS, query: Record<string, unknown>, error?: string) {
    const days = wholeNumber(query.days, 1, 3650) ?? 90;
    const page = wholeNumber(query.page, 1, 100_000) ?? 1;
    const result =
      kind === 'frequent'
        ? await call(ctx, routes.readFrequentlyOrdered, {
            body: { limit: PAGE_SIZE, page, from: new Date(nowMs() - days * 86_400_000).toISOString() },
          })
        : await call(ctx, routes.readMyAssortment, { body: { limit: PAGE_SIZE, page } });
    return {
      template: 'b2b/automatic-list',
      status: error ? 400 : 200,
      data: {
        title: LISTS[kind].title,
        kind,
        days: kind === 'frequent' ? days : null,
        total: result.total,
        next: result.total > page * PAGE_SIZE ? `${LISTS[kind].path}?page=${page + 1}&days=${days}` : null,
        items: result.elements.map((item) => ({
          ...item,
          lastOrderDateText: dateText(ctx, item.lastOrderDate),
          quantity: item.lastQuantity ?? 1,
        })),
        mayOrder: ctx.can(ORDERING),
        error: error ?? null,
      },
    };
  }

  const gate = { auth: 'login' as const, needsCustomer: true };
  return [
    {
      ...gate,
      path: AGAIN_PATH,
      anyPermission: [ORDERING],
      handler: ({ query }) => {
        const id = typeof query.orderId === 'string' ? query.orderId : '';
        if (!isId(id)) throw Errors.notFound('Order', id);
        return Promise.resolve(againPage(id, null, null));
      },
    },
    {
      ...gate,
      path: AGAIN_PATH,
      method: 'POST',
      anyPermission: [ORDERING],
      async handler({ ctx, form }) {
        const id = text(form, 'orderId', 64);
        if (!isId(id)) throw Errors.notFound('Order', id);
        const result = await attempt(() =>
          call(ctx, routes.orderAgain, { params: { orderId: id }, body: { target: 'cart' } }),
        );
        if ('error' in result) return againPage(id, null, result.error, 400);
        return againPage(id, result.ok, null);
      },
    },
    ...(['assortment', 'frequent'] as const).flatMap((kind): StorefrontPage[] => [
      {
        ...gate,
        path: LISTS[kind].path,
        anyPermission: [READ_ALL, ORDERING],
        handler: ({ ctx, query }) => listPage(ctx, kind, query),
      },
      {
        ...gate,
        path: `${LISTS[kind].path}/export`,
        method: 'POST',
        anyPermission: [READ_ALL, ORDERING],
        async handler({ ctx }) {
          const file = await call(ctx, routes.exportAutomaticList, { body: { list: kind } });
          return download(file, `${kind}.csv`, 'text/csv');
        },
      },
      {
        ...gate,
        path: `${LISTS[kind].path}/to-cart`,
        method: 'POST',
        anyPermission: [READ_ALL, ORDERING],
        async handler({ ctx, form }) {
          const items = quantitiesOf(form);
          if (items.length === 0) return listPage(ctx, kind, {}, 'Enter a quantity for at least one product.');
          const added = await call(ctx, routes.fastOrderAddToCart, { body: { items } });
          if (added.success) return { redirect: '/cart?done=added' };
          const failed = added.items.filter((item) => !item.added).length;
          return listPage(ctx, kind, {}, `${failed} products could not be put into the cart; the others are there.`);
        },
      },
    ]),
  ];
}

/** The form's `quantity-<productId>` fields with a quantity above 0. */
function quantitiesOf(form: Form): Array<{ productId: string; quantity: number }> {
  return Object.entries(form).flatMap(([name, value]) => {
    const productId = name.startsWith('quantity-') ? name.slice('quantity-'.length) : '';
    const quantity = wholeNumber(value, 1, 100_000);
    return isId(productId) && quantity ? [{ productId, quantity }] : [];
  });
}
