import { KeptViews } from '../../lib/kept-views.js';
import type { OrderRecord } from '../../contract/index.js';

/**
 * Order records kept per process; one is a few KB (about 8 KB for 20 lines), so at most some tens of
 * MB, and as much again for the Store API views kept beside them (lib/order-view.ts).
 */
const VIEWS_MAX = 5_000;

/**
 * Order records (`getOrderRecords`) kept per process with the stamp they were built at: the order's version
 * (moved by triggers on every write to the order and its parts, migrations/host/013) and its sales
 * channel's currency precision. A read outside a transaction first reads the stamps of the orders it
 * wants (one statement on the orders' primary key) and builds only those whose kept stamp differs.
 */
export class OrderViewCache extends KeptViews<OrderRecord> {
  constructor() {
    super(VIEWS_MAX);
  }
}

/** The stamp of an order as read: its version and its currency precision. */
export function orderStamp(version: number | string, precision: number | string | null | undefined): string {
  return `${version}/${precision ?? ''}`;
}
