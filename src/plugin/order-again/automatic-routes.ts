import { defineStoreRoute, type HostRuntime } from '../../contract/index.js';
import { reply } from '../../lib/routes.js';
import { toCsv } from '../../lib/csv.js';
import { storeList } from '../../lib/store-list.js';
import { readAssortment, readFrequent, wholeList, windowOf } from './automatic-service.js';
import { assortmentBody, automaticList, exportBody, frequentBody, MAX_LIST_LIMIT, TAG } from './schemas.js';

export { READ_ALL } from './automatic-service.js';

const DEFAULT_LIMIT = 25;
const EXPORT_MAX = 10_000;
const WHO =
  " With orders.read-all the company's orders, with only orders.create the caller's own (403 without either); products the caller may not see today are left out.";
/** The permission is one of two keys (decided in the use case: listScope), so the declaration names none. */
const common = { tags: [TAG], auth: 'login' as const, needsCustomer: true, permission: null };

export function automaticListRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/automatic-lists/assortment',
      operationId: 'readMyAssortment',
      summary:
        '"My assortment": every product ordered (cancelled orders not counted), the most recently ordered first, with the last order date and quantity, the order count and total quantity.' +
        WHO,
      schemas: { body: assortmentBody, responses: { 200: automaticList } },
      async handler({ ctx, body }) {
        const limit = body.limit ?? DEFAULT_LIMIT;
        const page = body.page ?? 1;
        const { items, total } = await readAssortment(host, ctx, limit, page);
        return storeList(items, { total, page, limit });
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/automatic-lists/frequent',
      operationId: 'readFrequentlyOrdered',
      summary:
        '"Frequently ordered": the products ordered within a window (default the last 90 days), the most often ordered first.' +
        WHO,
      schemas: { body: frequentBody, responses: { 200: automaticList } },
      async handler({ ctx, body }) {
        const limit = body.limit ?? DEFAULT_LIMIT;
        const page = body.page ?? 1;
        const { items, total } = await readFrequent(host, ctx, windowOf(body), limit, page);
        return storeList(items, { total, page, limit });
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/automatic-lists/export',
      operationId: 'exportAutomaticList',
      summary: `An automatic list as CSV (at most ${EXPORT_MAX} products): product_number, name, order_count, total_quantity, last_quantity, last_order_date.${WHO}`,
      schemas: {
        body: exportBody,
        responses: {
          200: {
            contentType: 'text/csv',
            description: 'product_number, name, order_count, total_quantity, last_quantity, last_order_date',
          },
        },
      },
      async handler({ ctx, body, headers }) {
        const items = await wholeList(host, ctx, body, MAX_LIST_LIMIT, EXPORT_MAX);
        const csv = await toCsv(
          ['product_number', 'name', 'order_count', 'total_quantity', 'last_quantity', 'last_order_date'],
          items.map((i) => [
            i.productNumber,
            i.name,
            i.orderCount,
            i.totalQuantity,
            i.lastQuantity ?? '',
            i.lastOrderDate,
          ]),
        );
        headers.setHeader('Content-Disposition', `attachment; filename="${body.list}.csv"`);
        return reply(200, csv, { contentType: 'text/csv; charset=utf-8' });
      },
    }),
  ];
}
