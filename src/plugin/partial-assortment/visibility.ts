import type { Knex } from 'knex';
import type { HostRuntime, StoreContext, VisibilityFilter } from '../../host/contract.js';
import { KIND_BY_ENTITY, type AssignmentKind } from './kinds.js';
import { entitiesUnlockedBy, restrictedEntities } from './repository.js';

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
}

function isInTransaction(query: Knex.QueryBuilder): boolean {
  return (query as unknown as { client?: { transacting?: boolean } }).client?.transacting === true;
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

const upTo = (ids: string[]) => (ids.length > ID_LIST_MAX ? null : ids);

/**
 * `(no assignment for the entity) OR (an assignment with one of the context's rules)` as
 * correlated probes of the assignment table's primary key (entity, rule): a listing page walks its
 * sort index and probes only the rows it looks at (totals are kept by the host's listing cache, so
 * a full count runs rarely). Written as scalar counts, not EXISTS: MariaDB turns EXISTS into a
 * materialized semi-join that copies the whole assignment table on every statement.
 * `unlocked`, when known, replaces the second probe by a list.
 */
function restrictBySubqueries(query: Knex.QueryBuilder, kind: AssignmentKind, idColumn: string, ruleIds: string[], unlocked: string[] | null): void {
  const entityColumn = `${kind.table}.${kind.entityColumn}`;
  query.where((visible) => {
    visible.whereRaw('(select count(*) from ?? where ?? = ??) = 0', [kind.table, entityColumn, idColumn]);
    if (ruleIds.length === 0) return;
    if (unlocked) {
      if (unlocked.length > 0) visible.orWhereIn(idColumn, unlocked);
      return;
    }
    visible.orWhereRaw(`(select count(*) from ?? where ?? = ?? and ?? in (${ruleIds.map(() => '?').join(', ')})) > 0`, [kind.table, entityColumn, idColumn, `${kind.table}.rule_id`, ...ruleIds]);
  });
}

/**
 * The one visibility filter of partial assortments. Outside transactions it keeps, per visibility
 * version, which entities are restricted and, per rule set, which of them the rules unlock. When
 * few entities are restricted (the usual case for categories and landing pages, and for shops that
 * restrict a few hundred products) the filter is a short `NOT IN (hidden ids)`; otherwise every row
 * costs one primary-key probe of the assignment table.
 * Inside a transaction (cart, checkout) it runs the plain subqueries on the query's own connection:
 * a separate query on the root knex would wait forever for SQLite's single connection.
 */
export function createVisibilityFilter(host: HostRuntime): VisibilityFilter {
  let current: Snapshot | null = null;
  const versionOfRequest = new WeakMap<StoreContext, Promise<number>>();

  async function snapshotFor(ctx: StoreContext): Promise<Snapshot> {
    let versionPromise = versionOfRequest.get(ctx);
    if (!versionPromise) versionOfRequest.set(ctx, (versionPromise = host.catalog.visibilityVersion(host.db)));
    const version = await versionPromise;
    if (current?.version !== version) current = { version, restricted: new Map(), unlocked: new Map() };
    return current;
  }

  return async (ctx, entity, query, idColumn) => {
    const kind = KIND_BY_ENTITY.get(entity);
    if (!kind) return;
    if (isInTransaction(query)) {
      restrictBySubqueries(query, kind, idColumn, await ctx.ruleIds(), null);
      return;
    }
    const snapshot = await snapshotFor(ctx);
    const restricted = await memo(snapshot.restricted, kind, async () => upTo(await restrictedEntities(host.db, kind, ID_LIST_MAX)));
    if (restricted?.length === 0) return;
    const ruleIds = [...new Set(await ctx.ruleIds())].sort();
    const unlocked =
      ruleIds.length === 0
        ? []
        : await memo(snapshot.unlocked, `${kind.entity}:${ruleIds.join(',')}`, async () => upTo(await entitiesUnlockedBy(host.db, kind, ruleIds, ID_LIST_MAX)), CACHED_RULE_SETS_MAX);
    if (restricted && unlocked) {
      const open = new Set(unlocked);
      const hidden = restricted.filter((id) => !open.has(id));
      if (hidden.length > 0) query.whereNotIn(idColumn, hidden);
      return;
    }
    restrictBySubqueries(query, kind, idColumn, ruleIds, unlocked);
  };
}
