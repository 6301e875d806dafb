import { LRUCache } from 'lru-cache';
import { deepFreeze } from '../../lib/deep-freeze.js';
import type { ProductRecord } from '../../contract/index.js';
import type { RequestCatalogVersions } from './catalog-version.js';
import { rememberTierPrices, tierPricesReadWith } from './product-repository.js';
import type { SqlCondition } from './visibility.js';

/** Products remembered per process (one record each, whatever the contexts that see it). */
const RECORDS_MAX = 20_000;
/** Distinct visibility conditions (in practice: per rule set of the customers) with verdicts of their own. */
const CONDITIONS_MAX = 500;
/** Verdicts remembered in all, across conditions; beyond it the generation is dropped and rebuilt on demand. */
const VERDICTS_MAX = 200_000;
/** Product numbers remembered with the id they name (or none). */
const NUMBERS_MAX = 50_000;

interface Generation {
  visibility: number;
  products: number;
  records: LRUCache<string, ProductRecord>;
  /** Per visibility condition (its SQL and bindings): per product id, whether that condition lets it through. */
  verdicts: LRUCache<string, Map<string, boolean>>;
  verdictCount: number;
  /** Per product number as asked (exact, any case kept apart): the id of the active product with exactly that number, '' for none. */
  idsByNumber: LRUCache<string, string>;
}

/** What one request may take from the cache and must give back to it. */
export interface KeptProducts {
  /** The ids of `ids` the cache has no verdict (or no record) for: to be read. */
  unknown(ids: string[]): string[];
  /** Keeps what the read of `asked` answered (`found`: the visible ones among them). */
  remember(asked: string[], found: ProductRecord[]): void;
  /** The visible records of `ids` the cache knows, frozen and shared by every request (with their tier prices, see tierPricesReadWith): copy one to change it. */
  known(ids: string[]): ProductRecord[];
}

/** A frozen copy of a record, with the tier prices read with it (frozen too): what every later request shares. */
function frozenCopy(record: ProductRecord): ProductRecord {
  const copied = deepFreeze({ ...record, categoryIds: [...record.categoryIds] });
  const tiers = tierPricesReadWith(record);
  if (tiers) rememberTierPrices(copied, tiers);
  return copied;
}

/**
 * Products read by id (`catalog.visibleProducts`) kept per process while the products version
 * (every write to products, their categories and tier prices: triggers of migrations/host/012) and
 * the visibility version (product visibility rules and assignments) are the ones the request read
 * with its context, before the rows were: a write on any process, by any writer, moves one of them
 * and the next request reads again. Records are kept once per product; whether a context may see
 * one is kept per visibility condition (the registered filters' answer for the context, as SQL),
 * so contexts answered alike share the verdicts. A request whose versions are older than the kept
 * ones reads the database and leaves the cache alone. Inside a transaction it is used only for a
 * transaction that writes no product (the host's cart writes); for any other the caller passes no versions.
 */
export function createProductCache() {
  let current: Generation | null = null;

  function generation(versions: RequestCatalogVersions): Generation | null {
    if (versions.products <= 0) return null; // no counter row (migration 012 not run): nothing tells a change
    if (
      current &&
      current.products === versions.products &&
      current.visibility === versions.visibility &&
      current.verdictCount <= VERDICTS_MAX
    )
      return current;
    if (current && (versions.products < current.products || versions.visibility < current.visibility)) return null;
    current = {
      visibility: versions.visibility,
      products: versions.products,
      records: new LRUCache({ max: RECORDS_MAX }),
      verdicts: new LRUCache({ max: CONDITIONS_MAX }),
      verdictCount: 0,
      idsByNumber: new LRUCache({ max: NUMBERS_MAX }),
    };
    return current;
  }

  /**
   * The ids of the active products numbered exactly `numbers` (absent: none), kept at the request's
   * products version (a product's number and its being active are product writes, which move it);
   * `read` answers the numbers not kept yet (number → id). Visibility is not part of it: the caller
   * asks for the records by id. Null when nothing may be kept (no versions, or older ones).
   */
  async function idsByNumber(
    versions: RequestCatalogVersions | undefined,
    numbers: string[],
    read: (numbers: string[]) => Promise<Map<string, string>>,
  ): Promise<Map<string, string> | null> {
    const kept = versions ? generation(versions) : null;
    if (!kept) return null;
    const unknown = numbers.filter((number) => !kept.idsByNumber.has(number));
    if (unknown.length > 0) {
      const found = await read(unknown);
      for (const number of unknown) kept.idsByNumber.set(number, found.get(number) ?? '');
    }
    const ids = new Map<string, string>();
    for (const number of numbers) {
      const id = kept.idsByNumber.get(number);
      if (id) ids.set(number, id);
    }
    return ids;
  }

  function forRequest(versions: RequestCatalogVersions | undefined, condition: SqlCondition): KeptProducts | null {
    const kept = versions ? generation(versions) : null;
    if (!kept) return null;
    const key = `${condition.sql}\u0000${JSON.stringify(condition.bindings)}`;
    let verdicts = kept.verdicts.get(key);
    if (!verdicts) kept.verdicts.set(key, (verdicts = new Map()));
    const byCondition = verdicts;
    return {
      unknown: (ids) =>
        ids.filter((id) => {
          const verdict = byCondition.get(id);
          return verdict === undefined || (verdict && !kept.records.has(id));
        }),
      remember(asked, found) {
        for (const record of found) kept.records.set(record.id, frozenCopy(record));
        const visible = new Set(found.map((record) => record.id));
        for (const id of asked) {
          if (!byCondition.has(id)) kept.verdictCount++;
          byCondition.set(id, visible.has(id));
        }
      },
      known(ids) {
        const records: ProductRecord[] = [];
        for (const id of ids) {
          const record = byCondition.get(id) ? kept.records.get(id) : undefined;
          if (record) records.push(record);
        }
        return records;
      },
    };
  }

  return { forRequest, idsByNumber };
}
