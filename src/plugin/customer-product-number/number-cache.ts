import { LRUCache } from 'lru-cache';
import type { ContextVersionSource, HostRuntime, StoreContext } from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { numberKey, numbersOf, productIdsByNumber } from './repository.js';

/** The customer product numbers version (migration plugin/018): moves on every write to suite_customer_product_numbers. */
export const CUSTOMER_PRODUCT_NUMBERS_VERSION: ContextVersionSource = {
  table: 'suite_data_versions',
  name: 'customer-product-numbers',
};

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
  /** Customer × product → its number; customer × number key → the product it names (null: none), each with the version it was read at. */
  private readonly numbersByProduct = new LRUCache<string, KeptEntry>({ max: ENTRIES_MAX });
  private readonly productsByKey = new LRUCache<string, KeptEntry>({ max: ENTRIES_MAX });

  constructor(private readonly host: HostRuntime) {}

  /** The customer's numbers of `productIds` (products without one are absent), kept or read. */
  async numbersOf(
    ctx: StoreContext,
    executor: Executor,
    customerId: string,
    productIds: string[],
  ): Promise<Map<string, string>> {
    const version = this.host.auth.contextVersion?.(ctx, CUSTOMER_PRODUCT_NUMBERS_VERSION);
    return version === undefined
      ? numbersOf(executor, customerId, productIds)
      : this.keptNumbersOf(version, executor, customerId, productIds);
  }

  /** One product's number (null: none) when the version is in the context, kept or read; undefined without it. */
  async keptNumberOf(
    ctx: StoreContext,
    executor: Executor,
    customerId: string,
    productId: string,
  ): Promise<string | null | undefined> {
    const version = this.host.auth.contextVersion?.(ctx, CUSTOMER_PRODUCT_NUMBERS_VERSION);
    if (version === undefined) return undefined;
    return (await this.keptNumbersOf(version, executor, customerId, [productId])).get(productId) ?? null;
  }

  /** Product ids by the customer's number key (numberKey) of `numbers`, kept or read (the fast order's look-up by number). */
  async productIdsByNumber(
    ctx: StoreContext,
    executor: Executor,
    customerId: string,
    numbers: string[],
  ): Promise<Map<string, string>> {
    const version = this.host.auth.contextVersion?.(ctx, CUSTOMER_PRODUCT_NUMBERS_VERSION);
    if (version === undefined) return productIdsByNumber(executor, customerId, numbers);
    const keys = new Set(numbers.map(numberKey).filter(Boolean));
    return kept(this.productsByKey, version, customerId, keys, (missing) =>
      productIdsByNumber(executor, customerId, missing),
    );
  }

  private keptNumbersOf(
    version: number,
    executor: Executor,
    customerId: string,
    productIds: string[],
  ): Promise<Map<string, string>> {
    return kept(this.numbersByProduct, version, customerId, new Set(productIds), (missing) =>
      numbersOf(executor, customerId, missing),
    );
  }
}

interface KeptEntry {
  version: number;
  value: string | null;
}

/** The values of the customer's `keys` kept at `version`, the others read (`read` answers the ones it found) and kept, absent ones as none. */
async function kept(
  entries: LRUCache<string, KeptEntry>,
  version: number,
  customerId: string,
  keys: Set<string>,
  read: (missing: string[]) => Promise<Map<string, string>>,
): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  const missing: string[] = [];
  for (const key of keys) {
    const entry = entries.get(`${customerId}\u0000${key}`);
    if (entry?.version !== version) missing.push(key);
    else if (entry.value !== null) result.set(key, entry.value);
  }
  if (missing.length === 0) return result;
  const found = await read(missing);
  for (const key of missing) {
    const value = found.get(key) ?? null;
    entries.set(`${customerId}\u0000${key}`, { version, value });
    if (value !== null) result.set(key, value);
  }
  return result;
}

const caches = new WeakMap<HostRuntime, CustomerNumberCache>();

/** The cache of this host (the plugin's processor and the fast order routes share it). */
export function customerNumberCache(host: HostRuntime): CustomerNumberCache {
  let cache = caches.get(host);
  if (!cache) caches.set(host, (cache = new CustomerNumberCache(host)));
  return cache;
}
