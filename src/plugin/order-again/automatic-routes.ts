import { defineStoreRoute, type HostRuntime, type StoreContext, type StoreRoute } from '../../host/contract.js';
import { readInt, selectRows } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { reply } from '../../lib/routes.js';
import { toCsv } from '../../lib/csv.js';
import { storeList } from '../../lib/store-list.js';
import { fromDbTime, toDbTime } from '../../lib/time.js';
import { declaredCustomer } from '../declared.js';
import {
  assortmentCount,
  assortmentPage,
  frequentPage,
  ORDERED,
  type AssortmentRow,
  type FrequentRow,
} from './automatic-lists.js';
import { assortmentBody, automaticList, exportBody, frequentBody, MAX_LIST_LIMIT, TAG } from './schemas.js';

/** The automatic lists are the company's order history: reading them needs orders.read-all. */
export const READ_ALL = 'orders.read-all';
const DEFAULT_LIMIT = 25;
const WINDOW_DAYS = 90;
const EXPORT_MAX = 10_000;
const common = { tags: [TAG], auth: 'login' as const, needsCustomer: true, permission: READ_ALL };

/** The window of "frequently ordered": [from, to], by default the 90 days up to now. */
function windowOf(body: { from?: string; to?: string }): { from: string; to: string } {
  const to = body.to ? new Date(body.to) : new Date();
  const from = body.from ? new Date(body.from) : new Date(to.getTime() - WINDOW_DAYS * 86_400_000);
  if (from > to)
    throw Errors.badRequest('SUITE__INVALID_WINDOW', '`from` must not be after `to`.', { pointer: '/from' });
  return { from: toDbTime(from), to: toDbTime(to) };
}

/** Rows with today's product records (only what the caller may see is named and marked visible). */
async function views(host: HostRuntime, ctx: StoreContext, rows: Array<AssortmentRow | FrequentRow>) {
  const products = new Map(
    (
      await host.catalog.visibleProducts(
        host.db,
        ctx,
        rows.map((r) => r.product_id),
      )
    ).map((p) => [p.id, p]),
  );
  return rows.map((row) => {
    const product = products.get(row.product_id);
    return {
      id: row.product_id,
      productId: row.product_id,
      productNumber: product?.productNumber ?? null,
      name: product?.name ?? null,
      visible: product !== undefined,
      orderCount: readInt(row.order_count),
      totalQuantity: readInt(row.total_quantity),
      lastQuantity: 'last_quantity' in row ? readInt(row.last_quantity) : null,
      lastOrderDate: fromDbTime(row.last_order_date)!,
    };
  });
}

async function frequentTotal(host: HostRuntime, customerId: string, window: { from: string; to: string }) {
  const [row] = await selectRows<{ n: unknown }>(
    host
      .db(ORDERED)
      .where({ customer_id: customerId })
      .whereBetween('order_date', [window.from, window.to])
      .countDistinct({ n: 'product_id' }),
  );
  return readInt(row?.n);
}

export function automaticListRoutes(host: HostRuntime): StoreRoute[] {
  return [
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/automatic-lists/assortment',
      operationId: 'readMyAssortment',
      summary:
        '"My assortment": every product the company ordered (cancelled orders not counted), the most recently ordered first, with the last order date and quantity, the order count and total quantity.',
      schemas: { body: assortmentBody, responses: { 200: automaticList } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const limit = body.limit ?? DEFAULT_LIMIT;
        const page = body.page ?? 1;
        const [rows, total] = await Promise.all([
          assortmentPage(host.db, customer.id, limit, (page - 1) * limit),
          assortmentCount(host.db, customer.id),
        ]);
        return storeList(await views(host, ctx, rows), { total, page, limit });
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/automatic-lists/frequent',
      operationId: 'readFrequentlyOrdered',
      summary:
        '"Frequently ordered": the products of the company\'s orders within a window (default the last 90 days), the most often ordered first.',
      schemas: { body: frequentBody, responses: { 200: automaticList } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const limit = body.limit ?? DEFAULT_LIMIT;
        const page = body.page ?? 1;
        const window = windowOf(body);
        const [rows, total] = await Promise.all([
          frequentPage(host.db, customer.id, window.from, window.to, limit, (page - 1) * limit),
          frequentTotal(host, customer.id, window),
        ]);
        return storeList(await views(host, ctx, rows), { total, page, limit });
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/automatic-lists/export',
      operationId: 'exportAutomaticList',
      summary: `An automatic list as CSV (at most ${EXPORT_MAX} products): product_number, name, order_count, total_quantity, last_quantity, last_order_date.`,
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
        const customer = declaredCustomer(ctx);
        const rows: Array<AssortmentRow | FrequentRow> = [];
        for (let offset = 0; offset < EXPORT_MAX; offset += MAX_LIST_LIMIT) {
          const page =
            body.list === 'assortment'
              ? await assortmentPage(host.db, customer.id, MAX_LIST_LIMIT, offset)
              : await (() => {
                  const window = windowOf(body);
                  return frequentPage(host.db, customer.id, window.from, window.to, MAX_LIST_LIMIT, offset);
                })();
          rows.push(...page);
          if (page.length < MAX_LIST_LIMIT) break;
        }
        const items = (await views(host, ctx, rows)).filter((item) => item.visible);
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
