import type { HostRuntime, StoreContext } from '../../contract/index.js';
import { readInt } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { fromDbTime, toDbTime, now } from '../../lib/time.js';
import { declaredCustomer } from '../declared.js';
import {
  assortmentCount,
  assortmentPage,
  frequentCount,
  frequentPage,
  listedProductIds,
  type AssortmentRow,
  type FrequentRow,
  type ListScope,
  type ProductNarrowing,
  type Window,
} from './repository.js';

/** With it the lists are the company's order history; with only orders.create the caller's own orders. */
export const READ_ALL = 'orders.read-all';
export const ORDERING = 'orders.create';
const WINDOW_DAYS = 90;

/**
 * Whose orders the caller's lists read (decision 0045): the company's with
 * orders.read-all, else the caller's own with orders.create, else 403 (as the pipeline answers).
 */
export function listScope(ctx: StoreContext): ListScope {
  const customer = declaredCustomer(ctx);
  if (ctx.can(READ_ALL)) return { customerId: customer.id };
  if (ctx.can(ORDERING) && ctx.actor.id)
    return { customerId: customer.id, placedBy: { type: ctx.actor.type, id: ctx.actor.id } };
  throw Errors.forbidden(`The permission "${READ_ALL}" or "${ORDERING}" is required.`, 'SUITE__PERMISSION_DENIED');
}

/** The window of "frequently ordered": [from, to], by default the 90 days up to now. */
export function windowOf(body: { from?: string; to?: string }): Window {
  const to = body.to ? new Date(body.to) : now();
  const from = body.from ? new Date(body.from) : new Date(to.getTime() - WINDOW_DAYS * 86_400_000);
  if (from > to)
    throw Errors.badRequest('SUITE__INVALID_WINDOW', '`from` must not be after `to`.', { pointer: '/from' });
  return { from: toDbTime(from), to: toDbTime(to) };
}

/**
 * What the caller may see of the list's products (decision 0011): the host answers which of the
 * candidates are visible; the shorter of "visible" and "hidden" narrows the list's SQL, so paging
 * and totals count only rows the caller may see and a ruled-out product leaves no row (and no id).
 */
export async function visibleNarrowing(
  host: HostRuntime,
  ctx: StoreContext,
  scope: ListScope,
  window?: Window,
): Promise<ProductNarrowing> {
  const candidates = await listedProductIds(host.db, scope, window);
  if (candidates.length === 0) return null;
  const visible = new Set(await host.catalog.productIds(host.db, ctx, { within: candidates }));
  const hidden = candidates.filter((id) => !visible.has(id));
  if (hidden.length === 0) return null;
  return hidden.length <= visible.size ? { except: hidden } : { only: [...visible] };
}

/** Rows with today's product records (all of them visible: the narrowing left the others out). */
export async function views(host: HostRuntime, ctx: StoreContext, rows: Array<AssortmentRow | FrequentRow>) {
  const products = new Map(
    (
      await host.catalog.visibleProducts(
        host.db,
        ctx,
        rows.map((r) => r.product_id),
      )
    ).map((p) => [p.id, p]),
  );
  return rows.flatMap((row) => {
    const product = products.get(row.product_id);
    // Hidden between the narrowing and this read: left out as well.
    if (!product) return [];
    return [
      {
        id: row.product_id,
        productId: row.product_id,
        productNumber: product.productNumber,
        name: product.name,
        visible: true,
        orderCount: readInt(row.order_count),
        totalQuantity: readInt(row.total_quantity),
        lastQuantity: 'last_quantity' in row ? readInt(row.last_quantity) : null,
        lastOrderDate: fromDbTime(row.last_order_date)!,
      },
    ];
  });
}

export async function readAssortment(host: HostRuntime, ctx: StoreContext, limit: number, page: number) {
  const scope = listScope(ctx);
  const narrowing = await visibleNarrowing(host, ctx, scope);
  const [rows, total] = await Promise.all([
    assortmentPage(host.db, scope, narrowing, limit, (page - 1) * limit),
    assortmentCount(host.db, scope, narrowing),
  ]);
  return { items: await views(host, ctx, rows), total };
}

export async function readFrequent(host: HostRuntime, ctx: StoreContext, window: Window, limit: number, page: number) {
  const scope = listScope(ctx);
  const narrowing = await visibleNarrowing(host, ctx, scope, window);
  const [rows, total] = await Promise.all([
    frequentPage(host.db, scope, window, narrowing, limit, (page - 1) * limit),
    frequentCount(host.db, scope, window, narrowing),
  ]);
  return { items: await views(host, ctx, rows), total };
}

/** Every row of a list (at most `max`), a page of `pageSize` at a time. */
export async function wholeList(
  host: HostRuntime,
  ctx: StoreContext,
  body: { list: 'assortment' | 'frequent'; from?: string; to?: string },
  pageSize: number,
  max: number,
) {
  const scope = listScope(ctx);
  const window = body.list === 'frequent' ? windowOf(body) : undefined;
  const narrowing = await visibleNarrowing(host, ctx, scope, window);
  const rows: Array<AssortmentRow | FrequentRow> = [];
  for (let offset = 0; offset < max; offset += pageSize) {
    const page = window
      ? await frequentPage(host.db, scope, window, narrowing, pageSize, offset)
      : await assortmentPage(host.db, scope, narrowing, pageSize, offset);
    rows.push(...page);
    if (page.length < pageSize) break;
  }
  return views(host, ctx, rows);
}
