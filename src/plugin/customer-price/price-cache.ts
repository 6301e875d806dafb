import { LRUCache } from 'lru-cache';
import type { ContextVersionSource, HostRuntime, StoreContext } from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { applies, storedPrices, type ApplicablePrice, type StoredPrice } from './repository.js';

/** The customer prices version (migration plugin/017): moves on every write to suite_customer_prices. */
export const CUSTOMER_PRICES_VERSION: ContextVersionSource = { table: 'suite_data_versions', name: 'customer-prices' };

/** Customer × product entries kept per process (an entry is a few rows, mostly none). */
const ENTRIES_MAX = 100_000;

/**
 * The price rows of a customer and its group per product, kept per process while the customer
 * prices version read with the request's context is the one read before the rows were (any write
 * on any process moves it: triggers). Rows are kept whatever their period, quantity and currency,
 * and those are applied per request, so time passing needs no write. A product without rows is kept
 * too: a customer without prices (most of them) pays no statement for a page seen before. Inside a
 * transaction (cart writes, checkout), or without the version in the context, the rows are read.
 */
export class CustomerPriceCache {
  private readonly entries = new LRUCache<string, { version: number; rows: StoredPrice[] }>({ max: ENTRIES_MAX });

  constructor(private readonly host: HostRuntime) {}

  /** The version this request may use kept rows at, or undefined: read them. */
  version(ctx: StoreContext, executor: Executor): number | undefined {
    return executor.isTransaction ? undefined : this.host.auth.contextVersion?.(ctx, CUSTOMER_PRICES_VERSION);
  }

  /** The rows that apply to `productIds` for quantities up to `maxQuantity` at `atMs`, from the kept rows, reading the products not kept at `version`. */
  async applicable(
    executor: Executor,
    version: number,
    customerId: string,
    groupId: string | null,
    productIds: string[],
    maxQuantity: number,
    atMs: number,
    currencyIso: string,
  ): Promise<ApplicablePrice[]> {
    const owner = `${customerId}\u0000${groupId ?? ''}\u0000`;
    const kept = new Map<string, StoredPrice[]>();
    const missing: string[] = [];
    for (const productId of productIds) {
      const entry = this.entries.get(owner + productId);
      if (entry && entry.version === version) kept.set(productId, entry.rows);
      else missing.push(productId);
    }
    if (missing.length > 0) {
      for (const productId of missing) kept.set(productId, []);
      for (const row of await storedPrices(executor, customerId, groupId, missing)) kept.get(row.productId)!.push(row);
      for (const productId of missing) this.entries.set(owner + productId, { version, rows: kept.get(productId)! });
    }
    const result: ApplicablePrice[] = [];
    for (const rows of kept.values())
      for (const row of rows) if (applies(row, atMs, currencyIso, maxQuantity)) result.push(row);
    return result;
  }
}
