import { LRUCache } from 'lru-cache';
import type { ContextVersionSource, HostRuntime, StoreContext } from '../../host/contract.js';
import type { Executor } from '../../lib/db.js';
import { numberKey, numbersOf, productIdsByNumber } from './repository.js';

/** The customer product numbers version (migration plugin/018): moves on every write to suite_customer_product_numbers. */
export const CUSTOMER_PRODUCT_NUMBERS_VERSION: ContextVersionSource = { table: 'suite_data_versions', name: 'customer-product-numbers' };

/** Customer × product entries kept per process (a number or none). */
const ENTRIES_MAX = 100_000;

/**
 * A customer's own number per product, kept per process while the customer product numbers version
 * read with the request's context is the one read before the number was (any write on any process
 * moves it: triggers). Products without a number are kept too. Unlike the host's kept reads this is
 * also used inside a transaction: the only transactions that ask (cart writes and checkout, through
 * the line-item processor) never write numbers, so a number they read is as committed as one read
 * outside. Without the version in the context (a host that does not read it) the numbers are read.
 */
export class CustomerNumberCache {
  private readonly entries = new LRUCache<string, { version: number; number: string | null }>({ max: ENTRIES_MAX });
  /** The other way round: customer × number key → the product it names (null: none). */
  private readonly productsByKey = new LRUCache<string, { version: number; productId: string | null }>({ max: ENTRIES_MAX });

  constructor(private readonly host: HostRuntime) {}

  /** The customer's numbers of `productIds` (products without one are absent), kept or read. */
  async numbersOf(ctx: StoreContext, executor: Executor, customerId: string, productIds: string[]): Promise<Map<string, string>> {
    const version = this.host.auth.contextVersion(ctx, CUSTOMER_PRODUCT_NUMBERS_VERSION);
    return version === undefined ? numbersOf(executor, customerId, productIds) : this.keptNumbersOf(version, executor, customerId, productIds);
  }

  /** One product's number (null: none) when the version is in the context, kept or read; undefined without it. */
  async keptNumberOf(ctx: StoreContext, executor: Executor, customerId: string, productId: string): Promise<string | null | undefined> {
    const version = this.host.auth.contextVersion(ctx, CUSTOMER_PRODUCT_NUMBERS_VERSION);
    if (version === undefined) return undefined;
    return (await this.keptNumbersOf(version, executor, customerId, [productId])).get(productId) ?? null;
  }

  /** Product ids by the customer's number key (numberKey) of `numbers`, kept or read (the fast order's look-up by number). */
  async productIdsByNumber(ctx: StoreContext, executor: Executor, customerId: string, numbers: string[]): Promise<Map<string, string>> {
    const version = this.host.auth.contextVersion(ctx, CUSTOMER_PRODUCT_NUMBERS_VERSION);
    if (version === undefined) return productIdsByNumber(executor, customerId, numbers);
    const result = new Map<string, string>();
    const missing: string[] = [];
    for (const key of new Set(numbers.map(numberKey).filter(Boolean))) {
      const entry = this.productsByKey.get(`${customerId}\u0000${key}`);
      if (entry?.version !== version) missing.push(key);
      else if (entry.productId !== null) result.set(key, entry.productId);
    }
    if (missing.length === 0) return result;
    const read = await productIdsByNumber(executor, customerId, missing);
    for (const key of missing) {
      const productId = read.get(key) ?? null;
      this.productsByKey.set(`${customerId}\u0000${key}`, { version, productId });
      if (productId !== null) result.set(key, productId);
    }
    return result;
  }

  private async keptNumbersOf(version: number, executor: Executor, customerId: string, productIds: string[]): Promise<Map<string, string>> {
    const result = new Map<string, string>();
    const missing: string[] = [];
    for (const productId of new Set(productIds)) {
      const entry = this.entries.get(`${customerId}\u0000${productId}`);
      if (entry?.version !== version) missing.push(productId);
      else if (entry.number !== null) result.set(productId, entry.number);
    }
    if (missing.length === 0) return result;
    const read = await numbersOf(executor, customerId, missing);
    for (const productId of missing) {
      const number = read.get(productId) ?? null;
      this.entries.set(`${customerId}\u0000${productId}`, { version, number });
      if (number !== null) result.set(productId, number);
    }
    return result;
  }
}

const caches = new WeakMap<HostRuntime, CustomerNumberCache>();

/** The cache of this host (the plugin's processor and the fast order routes share it). */
export function customerNumberCache(host: HostRuntime): CustomerNumberCache {
  let cache = caches.get(host);
  if (!cache) caches.set(host, (cache = new CustomerNumberCache(host)));
  return cache;
}
