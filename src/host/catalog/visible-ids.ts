import { LRUCache } from 'lru-cache';
import type { Executor } from '../../lib/db.js';
import { isId } from '../../lib/ids.js';
import type { StoreContext, VisibilityConstraint, VisibilityFilter } from '../../contract/index.js';
import { visibilityVersion } from './catalog-version.js';
import { applyConstraint } from './visibility.js';

/** Distinct sets of filter answers remembered per visibility version (in practice: per rule set of the customers). */
const ANSWER_SETS_MAX = 500;
/** Verdicts remembered in all, across answer sets; beyond it the answer sets are dropped and rebuilt on demand. */
const VERDICTS_MAX = 500_000;

function isTransaction(executor: Executor): boolean {
  return (executor as { isTransaction?: boolean }).isTransaction === true;
}

/**
 * Which of a list of products a context may see (active and passing every visibility filter),
 * remembered per visibility version and per the filters' answers for the context: a plugin list
 * over host products (`catalog.productIds`) asks about the same few hundred products on every
 * request, and the answer only changes when the visibility counter moves (product active, parent
 * or deleted, rules, assignments: `catalog.visibilityChanged`). Contexts whose filters answer alike
 * (e.g. customers matching the same rules) share the verdicts. Inside a transaction it always
 * asks the database: the transaction may hold a visibility change not yet counted.
 */
export function createVisibleIdCache(filters: VisibilityFilter[]) {
  let current: { version: number; byAnswers: LRUCache<string, Map<string, boolean>>; verdicts: number } | null = null;

  function verdictsFor(version: number, answers: VisibilityConstraint[]): Map<string, boolean> | null {
    // A request whose context was built before the latest change: asks the database, leaves the cache alone.
    if (current && version < current.version) return null;
    if (current?.version !== version || current.verdicts > VERDICTS_MAX)
      current = { version, byAnswers: new LRUCache({ max: ANSWER_SETS_MAX }), verdicts: 0 };
    const key = JSON.stringify(answers);
    let verdicts = current.byAnswers.get(key);
    if (!verdicts) current.byAnswers.set(key, (verdicts = new Map()));
    return verdicts;
  }

  /**
   * Per frozen list a caller keeps and asks about again: the answer, and the verdicts it was read
   * from. Verdicts once set never change within their map, so while the request's verdicts are that
   * map the answer stands, and a list of a thousand ids costs no pass over it.
   */
  const answersOfList = new WeakMap<readonly string[], { verdicts: Map<string, boolean>; visible: string[] }>();

  /** The valid ids of `ids` that `ctx` may see, distinct, in the order given (frozen when `ids` is). */
  return async function visibleIds(ctx: StoreContext, given: readonly string[], executor: Executor): Promise<string[]> {
    const cacheable = !isTransaction(executor);
    const version = cacheable ? await visibilityVersion(executor, ctx) : 0;
    const answers: VisibilityConstraint[] = [];
    for (const filter of filters) answers.push(await filter(executor, ctx, 'product'));
    const verdicts = cacheable ? verdictsFor(version, answers) : null;
    const kept = Object.isFrozen(given) && verdicts ? given : null;
    const known = kept ? answersOfList.get(kept) : undefined;
    if (known && known.verdicts === verdicts) return known.visible;
    const visible = await readVisible(verdicts, version, answers, [...new Set(given.filter(isId))], executor);
    if (!kept) return visible;
    Object.freeze(visible);
    answersOfList.set(kept, { verdicts: verdicts!, visible });
    return visible;
  };

  async function readVisible(
    verdicts: Map<string, boolean> | null,
    version: number,
    answers: VisibilityConstraint[],
    ids: string[],
    executor: Executor,
  ): Promise<string[]> {
    if (ids.length === 0) return [];
    const unknown = verdicts ? ids.filter((id) => !verdicts.has(id)) : ids;
    if (unknown.length > 0) {
      const query = executor('products').whereIn('products.id', unknown).whereNot('products.active', false);
      for (const answer of answers) applyConstraint(query, answer, 'products.id', executor);
      const seen = new Set((await query.pluck('products.id')) as string[]);
      if (!verdicts) return ids.filter((id) => seen.has(id));
      for (const id of unknown) verdicts.set(id, seen.has(id));
      if (current?.version === version) current.verdicts += unknown.length;
    }
    return ids.filter((id) => verdicts!.get(id) === true);
  }
}
