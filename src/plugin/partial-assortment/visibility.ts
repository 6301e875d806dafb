import type { HostRuntime, StoreContext, VisibilityConstraint, VisibilityFilter } from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { deepFreeze } from '../../lib/deep-freeze.js';
import { KIND_BY_ENTITY, type AssignmentKind } from './kinds.js';
import { entitiesUnlockedBy, restrictBySubqueries, restrictedEntities } from './repository.js';

/**
 * Up to this many ids the filter sends a list (below MariaDB's in_predicate_conversion_threshold
 * of 1000, so the list stays a sorted-array lookup); beyond it, it asks the assignment table.
 */
const ID_LIST_MAX = 999;
const CACHED_RULE_SETS_MAX = 2000;

/** What one visibility version knows; null stands for "more than ID_LIST_MAX". */
interface Snapshot {
  version: number;
  /** per kind: the entities that have any assignment */
  restricted: Map<AssignmentKind, Promise<string[] | null>>;
  /** per kind and rule set: the entities those rules unlock */
  unlocked: Map<string, Promise<string[] | null>>;
  /** per kind and rule set: the subquery constraint, when the lists are too long (compiled once, frozen) */
  subqueries: Map<string, VisibilityConstraint>;
}

function isTransaction(executor: Executor): boolean {
  return (executor as { isTransaction?: boolean }).isTransaction === true;
}

function memo<K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>, max = Infinity): Promise<V> {
  const cached = map.get(key);
  if (cached) return cached;
  if (map.size >= max) map.delete(map.keys().next().value as K);
  const loading = load();
  map.set(key, loading);
  loading.catch(() => map.delete(key));
  return loading;
}

/**
 * A subquery constraint per rule set, compiled once and shared frozen: the same for every request
 * of that rule set (at that version), and knex's pass over its text was a few per cent of a product read.
 */
function compiledOnce(
  kept: Map<string, VisibilityConstraint>,
  ruleSet: string,
  compile: () => VisibilityConstraint,
): VisibilityConstraint {
  let constraint = kept.get(ruleSet);
  if (!constraint) {
    if (kept.size >= CACHED_RULE_SETS_MAX) kept.clear();
    kept.set(ruleSet, (constraint = deepFreeze(compile())));
  }
  return constraint;
}

/** The context's rule ids (distinct, sorted) and the key of their set for `kind`. */
async function ruleSetOf(ctx: StoreContext, kind: AssignmentKind): Promise<{ ruleIds: string[]; ruleSet: string }> {
  const ruleIds = [...new Set(await ctx.ruleIds())].sort();
  return { ruleIds, ruleSet: `${kind.entity}:${ruleIds.join(',')}` };
}

const upTo = (ids: string[]) => (ids.length > ID_LIST_MAX ? null : ids);

/**
 * The one visibility filter of partial assortments. Outside transactions it keeps, per visibility
 * version, which entities are restricted and, per rule set, which of them the rules unlock. When
 * few entities are restricted (the usual case for categories and landing pages, and for shops that
 * restrict a few hundred products) the filter is a short `NOT IN (hidden ids)`; otherwise every row
 * costs one primary-key probe of the assignment table.
 * Inside a transaction (cart, checkout) it answers the plain subqueries, which the host runs in
 * its query on the transaction: a separate query on the root knex would wait forever for SQLite's
 * single connection. It answers in the contract's host-neutral forms: hidden ids (`exclude`) or a
 * predicate on the entity id (`sql`).
 */
export function createVisibilityFilter(host: HostRuntime): VisibilityFilter {
  let current: Snapshot | null = null;
  const inTransactions = new Map<string, VisibilityConstraint>();
  const versionOfRequest = new WeakMap<StoreContext, Promise<number>>();

  async function snapshotFor(
    ctx: StoreContext,
    readVersion: NonNullable<HostRuntime['catalog']['visibilityVersion']>,
  ): Promise<Snapshot> {
    let versionPromise = versionOfRequest.get(ctx);
    if (!versionPromise) versionOfRequest.set(ctx, (versionPromise = readVersion(host.db, ctx)));
    const version = await versionPromise;
    if (current?.version !== version)
      current = { version, restricted: new Map(), unlocked: new Map(), subqueries: new Map() };
    return current;
  }

  return async (executor, ctx, entity) => {
    const kind = KIND_BY_ENTITY.get(entity);
    if (!kind) return { kind: 'all' };
    const readVersion = host.catalog.visibilityVersion?.bind(host.catalog);
    // In a transaction, or on a host without a visibility version (nothing to key a cache on): plain
    // subqueries, which depend on the rule set alone, compiled once per rule set.
    if (isTransaction(executor) || !readVersion) {
      const { ruleIds, ruleSet } = await ruleSetOf(ctx, kind);
      return compiledOnce(inTransactions, ruleSet, () => restrictBySubqueries(executor, kind, ruleIds, null));
    }
    const snapshot = await snapshotFor(ctx, readVersion);
    const restricted = await memo(snapshot.restricted, kind, async () =>
      upTo(await restrictedEntities(host.db, kind, ID_LIST_MAX)),
    );
    if (restricted?.length === 0) return { kind: 'all' };
    const { ruleIds, ruleSet } = await ruleSetOf(ctx, kind);
    const unlocked =
      ruleIds.length === 0
        ? []
        : await memo(
            snapshot.unlocked,
            ruleSet,
            async () => upTo(await entitiesUnlockedBy(host.db, kind, ruleIds, ID_LIST_MAX)),
            CACHED_RULE_SETS_MAX,
          );
    if (restricted && unlocked) {
      const open = new Set(unlocked);
      const hidden = restricted.filter((id) => !open.has(id));
      return hidden.length > 0 ? { kind: 'exclude', ids: hidden } : { kind: 'all' };
    }
    return compiledOnce(snapshot.subqueries, ruleSet, () => restrictBySubqueries(executor, kind, ruleIds, unlocked));
  };
}
