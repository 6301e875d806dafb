import type { Knex } from 'knex';
import type { HostRuntime, StoreContext, VisibilityFilter } from '../../host/contract.js';
import { KIND_BY_ENTITY, type AssignmentKind } from './kinds.js';
import { entitiesUnlockedBy, hasAnyAssignment } from './repository.js';

/** Above this many entities unlocked by one rule set, the filter asks the database instead of listing ids. */
const UNLOCKED_LIST_MAX = 1000;
const CACHED_RULE_SETS_MAX = 2000;

/** What one visibility version knows: per kind whether any assignment exists, per rule set what it unlocks. */
interface Snapshot {
  version: number;
  anyAssignment: Map<AssignmentKind, Promise<boolean>>;
  /** null: more than UNLOCKED_LIST_MAX entities */
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

/**
 * `(no assignment for the entity) OR (an assignment with one of the context's rules)`. `unlocked`
 * is the cached list of entities the context's rules unlock, or undefined/null to ask the database.
 */
function restrict(query: Knex.QueryBuilder, kind: AssignmentKind, idColumn: string, ruleIds: string[], unlocked: string[] | null | undefined): void {
  query.where((visible) => {
    visible.whereNotExists(function (this: Knex.QueryBuilder) {
      this.select(`spa_any.${kind.entityColumn}`).from(`${kind.table} as spa_any`).whereRaw('?? = ??', [`spa_any.${kind.entityColumn}`, idColumn]);
    });
    if (ruleIds.length === 0) return;
    if (unlocked) {
      if (unlocked.length > 0) visible.orWhereIn(idColumn, unlocked);
      return;
    }
    visible.orWhereExists(function (this: Knex.QueryBuilder) {
      this.select(`spa_match.${kind.entityColumn}`)
        .from(`${kind.table} as spa_match`)
        .whereRaw('?? = ??', [`spa_match.${kind.entityColumn}`, idColumn])
        .whereIn('spa_match.rule_id', ruleIds);
    });
  });
}

/**
 * The one visibility filter of partial assortments. Outside transactions it keeps, per visibility
 * version, whether a kind has assignments at all and which entities each rule set unlocks, so a
 * listing costs one indexed anti-join per row. Inside a transaction (cart, checkout) it runs the
 * plain subqueries on the query's own connection: a separate query on the root knex would wait
 * forever for SQLite's single connection.
 */
export function createVisibilityFilter(host: HostRuntime): VisibilityFilter {
  let current: Snapshot | null = null;
  const versionOfRequest = new WeakMap<StoreContext, Promise<number>>();

  async function snapshotFor(ctx: StoreContext): Promise<Snapshot> {
    let versionPromise = versionOfRequest.get(ctx);
    if (!versionPromise) versionOfRequest.set(ctx, (versionPromise = host.catalog.visibilityVersion(host.db)));
    const version = await versionPromise;
    if (current?.version !== version) current = { version, anyAssignment: new Map(), unlocked: new Map() };
    return current;
  }

  return async (ctx, entity, query, idColumn) => {
    const kind = KIND_BY_ENTITY.get(entity);
    if (!kind) return;
    if (isInTransaction(query)) {
      restrict(query, kind, idColumn, await ctx.ruleIds(), undefined);
      return;
    }
    const snapshot = await snapshotFor(ctx);
    if (!(await memo(snapshot.anyAssignment, kind, () => hasAnyAssignment(host.db, kind)))) return;
    const ruleIds = [...new Set(await ctx.ruleIds())].sort();
    const unlocked =
      ruleIds.length === 0
        ? []
        : await memo(
            snapshot.unlocked,
            `${kind.entity}:${ruleIds.join(',')}`,
            async () => {
              const ids = await entitiesUnlockedBy(host.db, kind, ruleIds, UNLOCKED_LIST_MAX);
              return ids.length > UNLOCKED_LIST_MAX ? null : ids;
            },
            CACHED_RULE_SETS_MAX,
          );
    restrict(query, kind, idColumn, ruleIds, unlocked);
  };
}
