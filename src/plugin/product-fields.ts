import type { Knex } from 'knex';
import type { HostRuntime, StoreContext } from '../contract/index.js';
import {
  applyCriteriaFilters,
  escapeLike,
  filtersName,
  resolveFiltersToIds,
  sortColumnOf,
  type Criteria,
  type CriteriaSpec,
} from '../lib/criteria.js';
import { likeSql, selectRows, type Executor } from '../lib/db.js';

/**
 * A plugin list whose rows name host products and that shows, filters, searches or sorts by
 * product fields. The plugin's SQL reads only its own table; the host answers, through
 * `catalog.productIds`, which of the products the rows name match (and in which order): one call
 * for what the context may see, one per product filter, one for a term, one per product sort.
 */
export interface ProductFieldsOfList {
  /** The list's criteria fields that are product fields, mapped to the host's field names. */
  fields: Record<string, string>;
  /** The list's criteria field (and its column in `spec`) that holds the product id. */
  productIdField: string;
  /** The list's own term columns (the product's number and name are searched through the host). */
  ownTermColumns: string[];
  /** Sorts after the criteria's, before the spec's default sort (e.g. by product number). */
  defaultSort?: Array<{ field: string; order: 'asc' | 'desc' }>;
}

/** The own filters and ids of a list's criteria: what the candidate rows are read by. */
export type OwnCriteria = Pick<Criteria, 'filter' | 'ids'>;

export interface NarrowOptions {
  /**
   * The product id of each row of `base` that passes `own` (one per row, not made distinct), in
   * place of reading them with `base`: for a list that keeps them (e.g. per a version of its rows).
   */
  candidateProductIds?: (own: OwnCriteria) => Promise<string[]>;
}

export interface NarrowedList {
  /** The criteria for searchByCriteria: product filters became id filters, term and product sorts are taken out. */
  criteria: Criteria;
  /** Adds the sorts (own columns, and product fields as the host ordered them) to the data query. */
  order(qb: Knex.QueryBuilder): Knex.QueryBuilder;
  /**
   * The list's total when the narrowing counted it already (rows of visible products, no product
   * filter or term): for searchByCriteria's `knownTotal`, which then needs no count query.
   */
  total?: number;
}

/** `CASE column WHEN ? THEN 0 … END`: the position of the row's product in `ids`; null when there are none. */
function positionOf(column: string, ids: string[]): { sql: string; bindings: string[] } | null {
  if (ids.length === 0) return null;
  return { sql: `CASE ?? ${ids.map((_, i) => `WHEN ? THEN ${i}`).join(' ')} END`, bindings: [column, ...ids] };
}

/** Per frozen list of candidate rows (kept by the list, e.g. the event overview's): its distinct ids, frozen. */
const distinctOfKept = new WeakMap<readonly string[], string[]>();

function distinctIds(rows: readonly string[]): string[] {
  if (!Object.isFrozen(rows)) return [...new Set(rows)];
  let ids = distinctOfKept.get(rows);
  if (!ids) distinctOfKept.set(rows, (ids = Object.freeze([...new Set(rows)]) as string[]));
  return ids;
}

interface VisibilitySplit {
  /** The products among the candidates the context may not see. */
  hidden: string[];
  /** How many of the rows name a product the context may see. */
  shownRows: number;
}

/**
 * Per frozen answer of the host (contract 3.3: the same frozen array while the verdicts stand), for
 * the frozen rows it answered: the split, so a kept list is not walked again on every request.
 */
const splitOfKept = new WeakMap<readonly string[], VisibilitySplit & { rows: readonly string[] }>();

function splitByVisibility(
  rows: readonly string[],
  all: readonly string[],
  visible: readonly string[],
): VisibilitySplit {
  const kept = Object.isFrozen(rows) && Object.isFrozen(visible) ? splitOfKept.get(visible) : undefined;
  if (kept && kept.rows === rows) return kept;
  const visibleSet = new Set(visible);
  const split = {
    hidden: all.filter((id) => !visibleSet.has(id)),
    shownRows: rows.reduce((n, id) => (visibleSet.has(id) ? n + 1 : n), 0),
  };
  if (Object.isFrozen(rows) && Object.isFrozen(visible)) splitOfKept.set(visible, { ...split, rows });
  return split;
}

/**
 * Narrows `base` (the plugin's rows, tenant scope applied) to rows whose product `ctx` may see
 * (active and visible; `ctx` null: any product, for sales staff) and resolves the criteria's
 * product fields. The candidates the host is asked about are the products of the rows that pass
 * the list's own top-level filters and ids (those are ANDed, so they may narrow first).
 */
export async function narrowByProductFields(
  host: HostRuntime,
  ctx: StoreContext | null,
  base: Knex.QueryBuilder,
  criteria: Criteria,
  spec: CriteriaSpec,
  list: ProductFieldsOfList,
  executor?: Executor,
  options: NarrowOptions = {},
): Promise<NarrowedList> {
  const productIdColumn = spec.fields[list.productIdField]!.column;
  const productFields = new Set(Object.keys(list.fields));
  const own: OwnCriteria = {
    filter: (criteria.filter ?? []).filter((f) => !filtersName([f], productFields)),
    ids: criteria.ids,
  };
  // Cloned before the narrowing below adds to `base`.
  const candidateQuery = options.candidateProductIds ? null : applyCriteriaFilters(base.clone(), own, spec);
  const readCandidates =
    options.candidateProductIds ?? (() => selectRows<string>(candidateQuery!.pluck(productIdColumn)));
  // Read only when the host is asked something: one product id per row (made distinct here, not by a
  // DISTINCT, which costs the database a temporary index).
  let rows: readonly string[] | null = null;
  const candidates = async () => distinctIds((rows ??= await readCandidates(own)));
  let within: string[] | null = null;
  let total: number | undefined;
  const term = criteria.term?.trim();
  if (ctx) {
    const all = await candidates();
    const visible = await host.catalog.productIds(executor ?? host.db, ctx, { within: all });
    const { hidden, shownRows } = splitByVisibility(rows!, all, visible);
    // The shorter list goes into the plugin's query: usually few products are hidden.
    if (hidden.length < visible.length) {
      if (hidden.length > 0) base.whereNotIn(productIdColumn, hidden);
    } else base.whereIn(productIdColumn, visible);
    within = visible;
    // Without a product filter or a term the rows read are the list's rows: their count is its total.
    if (!term && !filtersName(criteria.filter, productFields)) total = shownRows;
  }
  const ask = async (query: Omit<Parameters<HostRuntime['catalog']['productIds']>[1], 'within'>) =>
    host.catalog.productIds(executor ?? host.db, ctx, { within: (within ??= await candidates()), ...query });

  const filter = await resolveFiltersToIds(criteria.filter, productFields, list.productIdField, async (leaf) => ({
    in: await ask({ filter: [{ ...leaf, field: list.fields[leaf.field]! }] }),
  }));

  if (term) {
    const matching = await ask({ term });
    const pattern = `%${escapeLike(term)}%`;
    if (list.ownTermColumns.length === 0 && matching.length === 0) base.whereRaw('1 = 0');
    else
      base.where((qb) => {
        for (const column of list.ownTermColumns) qb.orWhereRaw(likeSql(qb), [column, pattern]);
        if (matching.length > 0) qb.orWhereIn(productIdColumn, matching);
      });
  }

  const sorts: Array<{ column: string } | { position: { sql: string; bindings: string[] } | null }> = [];
  const directions: Array<'asc' | 'desc'> = [];
  for (const entry of [...(criteria.sort ?? []), ...(list.defaultSort ?? [])]) {
    const direction = (entry.order ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
    directions.push(direction);
    if (productFields.has(entry.field))
      sorts.push({
        position: positionOf(
          productIdColumn,
          await ask({ sort: [{ field: list.fields[entry.field]!, order: direction }] }),
        ),
      });
    else sorts.push({ column: sortColumnOf(spec, entry.field) });
  }
  const { term: _term, sort: _sort, ...rest } = criteria;
  return {
    criteria: { ...rest, filter },
    ...(total === undefined ? {} : { total }),
    order(qb) {
      sorts.forEach((sort, i) => {
        if ('column' in sort) qb.orderBy(sort.column, directions[i]);
        // The host ordered the ids in the requested direction already.
        else if (sort.position) qb.orderByRaw(`${sort.position.sql} asc`, sort.position.bindings);
      });
      return qb;
    },
  };
}
