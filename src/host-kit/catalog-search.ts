import type { Knex } from 'knex';
import { escapeLike, sortColumnOf, type CriteriaSpec, type Filter } from '../lib/criteria.js';
import { dialectOf, likeSql, type Dialect } from '../lib/db.js';
import { Errors } from '../lib/errors.js';
import { isId } from '../lib/ids.js';
import { toMinor } from '../lib/money.js';

/**
 * Product search helpers every host's `catalog.searchProducts` uses on its own product table read
 * as `products` (id, product_number, name): money filters in minor units, the fast order's
 * number-first term match and the plugin's sort keys. The reference host's search
 * (host/catalog/product-search.ts) and the Vendure adapter's (adapters/vendure/product-search.ts).
 */

/** Money is a number with the currency's precision at the edge, minor units in the table: converts filters on money fields. */
export function moneyFiltersToMinor(
  filters: Filter[] | undefined,
  moneyFields: string[],
  precision: number,
): Filter[] | undefined {
  const convert = (value: unknown): number => {
    const amount = typeof value === 'number' ? value : Number(value);
    if (typeof value === 'boolean' || value === '' || !Number.isFinite(amount))
      throw Errors.badRequest('SUITE__INVALID_CRITERIA_VALUE', 'A price filter needs a number.', {
        pointer: '/filter',
      });
    return toMinor(amount, precision);
  };
  return filters?.map((filter): Filter => {
    if ('queries' in filter)
      return { ...filter, queries: moneyFiltersToMinor(filter.queries, moneyFields, precision) ?? [] };
    if (!moneyFields.includes(filter.field)) return filter;
    if (filter.type === 'equals') return filter.value === null ? filter : { ...filter, value: convert(filter.value) };
    if (filter.type === 'equalsAny') return { ...filter, value: filter.value.map(convert) };
    if (filter.type === 'range')
      return {
        ...filter,
        parameters: Object.fromEntries(Object.entries(filter.parameters).map(([k, v]) => [k, convert(v)])),
      };
    throw Errors.badRequest('SUITE__INVALID_CRITERIA_VALUE', `The filter "${filter.type}" does not apply to prices.`, {
      pointer: '/filter',
    });
  });
}

/** The exclusive upper bound of a prefix range: the prefix with its last character incremented. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/**
 * `column` starts with one of `prefixes`, written so the column's index serves it: LIKE 'x%' on
 * MySQL/MariaDB (case-insensitive collation; ILIKE on PostgreSQL, without the index), a range per prefix on SQLite (whose LIKE cannot use
 * a BINARY index), which therefore matches the term as typed, upper- and lower-cased.
 */
function wherePrefix(qb: Knex.QueryBuilder, dialect: Dialect, column: string, prefixes: string[]): void {
  qb.where((q) => {
    if (dialect !== 'sqlite') q.whereRaw(likeSql(q), [column, `${escapeLike(prefixes[0]!)}%`]);
    else
      for (const prefix of new Set(prefixes))
        q.orWhere((r) => {
          r.where(column, '>=', prefix).andWhere(column, '<', prefixEnd(prefix));
        });
  });
}

/** `CASE products.id WHEN ? THEN ? … END`: the plugin's sort key of the product, null for others. */
export function sortKeyOf(keys: Map<string, number>): { sql: string; bindings: Array<string | number> } {
  const entries = [...keys].filter(([id, key]) => isId(id) && Number.isFinite(key));
  // NULL as an expression: PostgreSQL refuses a bare constant in ORDER BY.
  if (entries.length === 0) return { sql: '(CASE WHEN 1 = 0 THEN 0 END)', bindings: [] };
  return { sql: `CASE products.id ${entries.map(() => 'WHEN ? THEN ?').join(' ')} END`, bindings: entries.flat() };
}

/**
 * The number-first match of a term (the fast order's): product number prefix, or one of the
 * products the plugin matched itself, or part of the name. The number matches are index look-ups;
 * only the name needs a scan, and a term without LIKE wildcards is matched without an ESCAPE
 * clause, which SQLite evaluates twice as fast. Ranked: exact number, plugin's exact, number
 * prefix, plugin's prefix, the rest.
 */
export type SortEntry = { field: string; order?: string };

/** Orders a product search by sort entries: a plugin's ordering (an id → rank map, see sortKeyOf) or a field of the spec. */
export function orderProducts(
  qb: Knex.QueryBuilder,
  entries: SortEntry[],
  orderings: Record<string, Map<string, number>>,
  spec: CriteriaSpec,
): void {
  for (const entry of entries) {
    const direction = (entry.order ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
    const keys = orderings[entry.field];
    if (keys) {
      const key = sortKeyOf(keys);
      // Products without a key sort first ascending, as on SQLite and MySQL/MariaDB (PostgreSQL sorts NULL as the largest value).
      const nulls = dialectOf(qb) === 'postgres' ? (direction === 'asc' ? ' nulls first' : ' nulls last') : '';
      qb.orderByRaw(`${key.sql} ${direction}${nulls}`, key.bindings);
    } else qb.orderBy(sortColumnOf(spec, entry.field), direction);
  }
}

export function numberFirstMatch(dialect: Dialect, text: string, alsoMatch: { exact: string[]; prefix: string[] }) {
  const lower = text.toLowerCase();
  const others = [...new Set([...alsoMatch.exact, ...alsoMatch.prefix].filter(isId))];
  const byNumber = (match: Knex.QueryBuilder) => {
    match.orWhere((q) => wherePrefix(q, dialect, 'products.product_number', [text, text.toUpperCase(), lower]));
    if (others.length > 0) match.orWhereIn('products.id', others);
  };
  return {
    where(qb: Knex.QueryBuilder) {
      qb.where((match) => {
        byNumber(match);
        if (/[!%_]/.test(text) || dialect === 'postgres')
          match.orWhereRaw(likeSql(match), ['products.name', `%${escapeLike(text)}%`]);
        else match.orWhere('products.name', 'like', `%${text}%`);
      });
    },
    /**
     * The page of a ranked search (`rank` then any order) on MySQL/MariaDB: every product matched by
     * number ranks before every product matched only by name, so while there are enough of them the
     * page is the number matches alone — an index range, where the whole match scans every
     * product's name and sorts every match (fast order search page statement: 20 ms → 1 ms at 10,000
     * products). Otherwise the full query, as before (one cheap statement more). Not on SQLite: its
     * number match is the term as typed, upper- and lower-cased, while the rank compares lower-cased,
     * so a mixed-case number matched by name can rank among the number matches.
     */
    readRankedPage:
      dialect !== 'mysql'
        ? undefined
        : async (dataQuery: Knex.QueryBuilder, limit: number): Promise<unknown[]> => {
            const head = (await dataQuery.clone().where(byNumber)) as unknown[];
            return head.length === limit ? head : ((await dataQuery) as unknown[]);
          },
    rank(qb: Knex.QueryBuilder) {
      const exact = alsoMatch.exact.filter(isId);
      const prefix = alsoMatch.prefix.filter(isId);
      const inList = (ids: string[]) => (ids.length ? `products.id IN (${ids.map(() => '?').join(', ')})` : '1 = 0');
      qb.orderByRaw(
        `CASE WHEN LOWER(products.product_number) = ? THEN 0 WHEN ${inList(exact)} THEN 1 WHEN LOWER(SUBSTR(products.product_number, 1, ?)) = ? THEN 2 WHEN ${inList(prefix)} THEN 3 ELSE 4 END`,
        [lower, ...exact, text.length, lower, ...prefix],
      );
    },
  };
}
