import { LRUCache } from 'lru-cache';
import { deepFreeze } from '../../lib/deep-freeze.js';

/** Order views kept per process; one is a few KB (about 8 KB for 20 lines), so at most some tens of MB. */
const VIEWS_MAX = 5_000;

export type OrderView = Record<string, unknown>;

/**
 * Order views (`getOrders`) kept per process with the stamp they were built at: the order's version
 * (moved by triggers on every write to the order and its parts, migrations/host/013) and its sales
 * channel's currency precision. A read outside a transaction first reads the stamps of the orders it
 * wants (one statement on the orders' primary key) and builds only those whose kept stamp differs.
 * Kept views are frozen, since every request that reads the order shares them.
 */
export class OrderViewCache {
  private readonly views = new LRUCache<string, { stamp: string; view: OrderView }>({ max: VIEWS_MAX });

  /** The view of order `id` kept at `stamp`, if any. */
  get(id: string, stamp: string): OrderView | undefined {
    const entry = this.views.get(id);
    return entry && entry.stamp === stamp ? entry.view : undefined;
  }

  /** Keeps `view` (frozen) as order `id` at `stamp` and answers it. */
  keep(id: string, stamp: string, view: OrderView): OrderView {
    this.views.set(id, { stamp, view: deepFreeze(view) });
    return view;
  }
}

/** The stamp of an order as read: its version and its currency precision. */
export function orderStamp(version: number | string, precision: number | string | null | undefined): string {
  return `${version}/${precision ?? ''}`;
}
