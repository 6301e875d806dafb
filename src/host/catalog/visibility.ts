import type { Knex } from 'knex';
import type { Executor } from '../../lib/db.js';
import {
  VISIBILITY_ID_MARKER,
  type CatalogEntity,
  type StoreContext,
  type VisibilityConstraint,
  type VisibilityFilter,
} from '../../contract/index.js';

/** A condition as SQL text with its bindings. */
export interface SqlCondition {
  sql: string;
  bindings: Knex.RawBinding[];
}

/** One filter's answer as a condition on `idSql` (the entity's id column as SQL), or null when it narrows nothing. */
function constraintCondition(constraint: VisibilityConstraint, idSql: string): SqlCondition | null {
  const list = (ids: string[]) => ids.map(() => '?').join(', ');
  switch (constraint.kind) {
    case 'all':
      return null;
    case 'exclude':
      return constraint.ids.length > 0
        ? { sql: `${idSql} not in (${list(constraint.ids)})`, bindings: constraint.ids }
        : null;
    case 'only':
      return constraint.ids.length > 0
        ? { sql: `${idSql} in (${list(constraint.ids)})`, bindings: constraint.ids }
        : { sql: '1 = 0', bindings: [] };
    case 'sql':
      return {
        sql: `(${constraint.sql.split(VISIBILITY_ID_MARKER).join(idSql)})`,
        bindings: constraint.bindings as Knex.RawBinding[],
      };
  }
}

/** Adds one filter's answer to a query over the entity's table; `idColumn` is its qualified id column. */
export function applyConstraint(
  query: Knex.QueryBuilder,
  constraint: VisibilityConstraint,
  idColumn: string,
  executor: Executor,
): void {
  const condition = constraintCondition(constraint, executor.ref(idColumn).toQuery());
  if (condition) query.whereRaw(condition.sql, condition.bindings);
}

/**
 * Narrows a query over one catalog entity to what the context may see: every registered filter
 * answers for the connection the query runs on (`executor`), and each answer is ANDed in.
 * Host-internal: plugins register filters, they do not apply them.
 */
export async function applyVisibility(
  filters: VisibilityFilter[],
  ctx: StoreContext,
  entity: CatalogEntity,
  query: Knex.QueryBuilder,
  idColumn: string,
  executor: Executor,
): Promise<void> {
  for (const filter of filters) applyConstraint(query, await filter(executor, ctx, entity), idColumn, executor);
}

/** applyVisibility for a statement written as SQL text: the filters' conditions on `idSql`, each as ` and …` (empty when none narrows). */
export async function visibilityConditions(
  filters: VisibilityFilter[],
  ctx: StoreContext,
  entity: CatalogEntity,
  idSql: string,
  executor: Executor,
): Promise<SqlCondition> {
  let sql = '';
  const bindings: Knex.RawBinding[] = [];
  for (const filter of filters) {
    const condition = constraintCondition(await filter(executor, ctx, entity), idSql);
    if (!condition) continue;
    sql += ` and ${condition.sql}`;
    bindings.push(...condition.bindings);
  }
  return { sql, bindings };
}
