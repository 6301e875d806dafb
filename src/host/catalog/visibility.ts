import type { Knex } from 'knex';
import type { Executor } from '../../lib/db.js';
import { VISIBILITY_ID_MARKER, type CatalogEntity, type StoreContext, type VisibilityConstraint, type VisibilityFilter } from '../contract.js';

/** Adds one filter's answer to a query over the entity's table; `idColumn` is its qualified id column. */
export function applyConstraint(query: Knex.QueryBuilder, constraint: VisibilityConstraint, idColumn: string, executor: Executor): void {
  switch (constraint.kind) {
    case 'all':
      return;
    case 'exclude':
      if (constraint.ids.length > 0) query.whereNotIn(idColumn, constraint.ids);
      return;
    case 'only':
      query.whereIn(idColumn, constraint.ids);
      return;
    case 'sql':
      query.whereRaw(`(${constraint.sql.split(VISIBILITY_ID_MARKER).join(executor.ref(idColumn).toQuery())})`, constraint.bindings as Knex.RawBinding[]);
      return;
  }
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
  for (const filter of filters) applyConstraint(query, await filter(ctx, entity, executor), idColumn, executor);
}
