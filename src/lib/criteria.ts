import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { Errors } from './errors.js';
import { likeSql, readInt, selectRows } from './db.js';
import {
  decodeCursor,
  encodeCursor,
  keyAlias,
  keysetKeys,
  keyValueOf,
  orderByKeys,
  whereAfter,
  type KeysetKey,
} from './keyset.js';
import type { TypedSchema } from './routes.js';

/**
 * The shop platform's search criteria, compiled to knex. Fields are allow-listed per resource;
 * the caller's tenant scope is part of the base query the server builds and cannot be widened.
 */
export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 25;

export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'id';

export interface FieldSpec {
  column: string;
  type: FieldType;
  /** The column lives in a to-many table (e.g. a product's categories): a filter matches when any related row does (EXISTS). Not sortable. */
  via?: { table: string; foreignKey: string; localKey: string };
}

export interface CriteriaSpec {
  fields: Record<string, FieldSpec>;
  /** Columns `term` searches (LIKE %term%). */
  termColumns?: string[];
  defaultSort: Array<{ column: string; order: 'asc' | 'desc' }>;
  /** The id column `ids` filters on. */
  idColumn: string;
}

export type Filter =
  | { type: 'equals'; field: string; value: string | number | boolean | null }
  | { type: 'equalsAny'; field: string; value: Array<string | number> }
  | { type: 'contains' | 'prefix' | 'suffix'; field: string; value: string }
  | {
      type: 'range';
      field: string;
      parameters: { gte?: string | number; lte?: string | number; gt?: string | number; lt?: string | number };
    }
  | { type: 'not' | 'multi'; operator?: 'and' | 'or'; queries: Filter[] };

export interface Criteria {
  page?: number;
  limit?: number;
  filter?: Filter[];
  sort?: Array<{ field: string; order?: 'ASC' | 'DESC' | 'asc' | 'desc'; naturalSorting?: boolean }>;
  term?: string;
  ids?: string[];
  'total-count-mode'?: 0 | 1 | 2 | 'none' | 'exact' | 'next-pages';
  /** Keyset paging (src/lib/keyset.ts), for lists whose schema has `cursor`: "" for the first page, then the answer's `nextCursor`. */
  cursor?: string;
}

const scalar = { type: ['string', 'number', 'boolean', 'null'] };

/**
 * The JSON Schema of a criteria body for one resource (its field names are the allow-list). Its
 * recursive filter `$defs` is more than `FromSchema` reads: the schema states its type, `Criteria`
 * (plus what `extraProperties` adds, stated by the caller as E).
 */
export function criteriaSchema<E extends object = Record<never, never>>(
  fieldNames: string[],
  extraProperties: Record<string, unknown> = {},
): TypedSchema<Criteria & E> {
  const field = { type: 'string', enum: fieldNames };
  return {
    type: 'object',
    additionalProperties: false,
    $defs: {
      filter: {
        type: 'object',
        required: ['type'],
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'field', 'value'],
            properties: { type: { const: 'equals' }, field, value: scalar },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'field', 'value'],
            properties: {
              type: { const: 'equalsAny' },
              field,
              value: { type: 'array', maxItems: 1000, items: { type: ['string', 'number'] } },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'field', 'value'],
            properties: {
              type: { enum: ['contains', 'prefix', 'suffix'] },
              field,
              value: { type: 'string', maxLength: 255 },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'field', 'parameters'],
            properties: {
              type: { const: 'range' },
              field,
              parameters: {
                type: 'object',
                additionalProperties: false,
                minProperties: 1,
                properties: {
                  gte: { type: ['string', 'number'] },
                  lte: { type: ['string', 'number'] },
                  gt: { type: ['string', 'number'] },
                  lt: { type: ['string', 'number'] },
                },
              },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'queries'],
            properties: {
              type: { enum: ['not', 'multi'] },
              operator: { enum: ['and', 'or', 'AND', 'OR'] },
              queries: { type: 'array', maxItems: 50, items: { $ref: '#/$defs/filter' } },
            },
          },
        ],
      },
    },
    properties: {
      page: { type: 'integer', minimum: 1, default: 1 },
      limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
      filter: { type: 'array', maxItems: 50, items: { $ref: '#/$defs/filter' } },
      sort: {
        type: 'array',
        maxItems: 10,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['field'],
          properties: { field, order: { enum: ['ASC', 'DESC', 'asc', 'desc'] }, naturalSorting: { type: 'boolean' } },
        },
      },
      term: { type: 'string', maxLength: 255 },
      ids: { type: 'array', maxItems: MAX_LIMIT, items: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
      'total-count-mode': { enum: [0, 1, 2, 'none', 'exact', 'next-pages'] },
      associations: { type: 'object' },
      includes: { type: 'object' },
      ...extraProperties,
    },
  } as unknown as TypedSchema<Criteria & E>;
}

/** '!' as the LIKE escape: a backslash literal needs different quoting on SQLite and MySQL/MariaDB. */
export function escapeLike(value: string): string {
  return value.replace(/[!%_]/g, (c) => `!${c}`);
}

function fieldOf(spec: CriteriaSpec, name: string): FieldSpec {
  const field = spec.fields[name];
  if (!field)
    throw Errors.badRequest('SUITE__UNKNOWN_CRITERIA_FIELD', `Unknown field "${name}".`, { pointer: '/filter' });
  return field;
}

/** The column a sort on `name` orders by; a 400 for unknown and to-many fields. */
export function sortColumnOf(spec: CriteriaSpec, name: string): string {
  const field = fieldOf(spec, name);
  if (field.via)
    throw Errors.badRequest('SUITE__UNSORTABLE_FIELD', `The field "${name}" cannot be sorted on.`, {
      pointer: '/sort',
    });
  return field.column;
}

function normalise(field: FieldSpec, value: unknown): unknown {
  if (field.type === 'boolean') return value === true || value === 1 || value === '1' || value === 'true' ? 1 : 0;
  if (field.type === 'date' && typeof value === 'string') {
    const d = new Date(value);
    if (Number.isNaN(d.getTime()))
      throw Errors.badRequest('SUITE__INVALID_CRITERIA_VALUE', `"${value}" is not a date.`, { pointer: '/filter' });
    return d.toISOString().replace('T', ' ').replace('Z', '');
  }
  return value;
}

function onField(qb: Knex.QueryBuilder, field: FieldSpec, condition: (q: Knex.QueryBuilder) => void): void {
  const via = field.via;
  if (!via) {
    condition(qb);
    return;
  }
  qb.whereExists(function (this: Knex.QueryBuilder) {
    this.select(1).from(via.table).whereRaw('?? = ??', [via.foreignKey, via.localKey]);
    condition(this);
  });
}

export const MAX_FILTER_DEPTH = 10;

function applyFilter(qb: Knex.QueryBuilder, filter: Filter, spec: CriteriaSpec, depth = 1): void {
  if (depth > MAX_FILTER_DEPTH)
    throw Errors.badRequest(
      'SUITE__CRITERIA_TOO_DEEP',
      `Filters may be nested at most ${MAX_FILTER_DEPTH} levels deep.`,
      { pointer: '/filter' },
    );
  switch (filter.type) {
    case 'equals': {
      const field = fieldOf(spec, filter.field);
      const value = filter.value;
      if (value === null && field.via) {
        const via = field.via;
        qb.whereNotExists((q) => {
          q.select(1).from(via.table).whereRaw('?? = ??', [via.foreignKey, via.localKey]);
        });
      } else if (value === null) qb.whereNull(field.column);
      else
        onField(qb, field, (q) => {
          q.where(field.column, normalise(field, value) as string);
        });
      return;
    }
    case 'equalsAny': {
      const field = fieldOf(spec, filter.field);
      const values = filter.value.map((v) => normalise(field, v) as string);
      onField(qb, field, (q) => {
        q.whereIn(field.column, values);
      });
      return;
    }
    case 'contains':
    case 'prefix':
    case 'suffix': {
      const field = fieldOf(spec, filter.field);
      const v = escapeLike(String(filter.value));
      const pattern = filter.type === 'contains' ? `%${v}%` : filter.type === 'prefix' ? `${v}%` : `%${v}`;
      onField(qb, field, (q) => {
        q.whereRaw(likeSql(q), [field.column, pattern]);
      });
      return;
    }
    case 'range': {
      const field = fieldOf(spec, filter.field);
      const ops: Record<string, string> = { gte: '>=', lte: '<=', gt: '>', lt: '<' };
      const parameters = filter.parameters;
      onField(qb, field, (q) => {
        for (const [key, value] of Object.entries(parameters)) {
          if (value !== undefined) q.where(field.column, ops[key]!, normalise(field, value) as string);
        }
      });
      return;
    }
    case 'multi':
    case 'not': {
      const or = (filter.operator ?? 'and').toLowerCase() === 'or';
      const group = (inner: Knex.QueryBuilder) => {
        for (const sub of filter.queries) {
          if (or) inner.orWhere((q) => applyFilter(q, sub, spec, depth + 1));
          else inner.andWhere((q) => applyFilter(q, sub, spec, depth + 1));
        }
      };
      if (filter.queries.length === 0) return;
      if (filter.type === 'not') qb.whereNot(group);
      else qb.where(group);
      return;
    }
  }
}

/** Adds filters, term and ids of the criteria to a base query (which already carries the tenant scope). */
export function applyCriteriaFilters(
  base: Knex.QueryBuilder,
  criteria: Criteria,
  spec: CriteriaSpec,
): Knex.QueryBuilder {
  for (const filter of criteria.filter ?? []) base.where((qb) => applyFilter(qb, filter, spec));
  if (criteria.ids?.length) base.whereIn(spec.idColumn, criteria.ids);
  const term = criteria.term?.trim();
  if (term && spec.termColumns?.length) {
    const pattern = `%${escapeLike(term)}%`;
    base.where((qb) => {
      for (const column of spec.termColumns!) qb.orWhereRaw(likeSql(qb), [column, pattern]);
    });
  }
  return base;
}

export interface Page<T> {
  total: number;
  rows: T[];
  page: number;
  limit: number;
  /** Only when the criteria gave a cursor: the cursor of the next page, or null on the last. */
  nextCursor?: string | null;
}

/**
 * Exact totals cost a count over every matching row on each request. A caller that can name what
 * the total depends on (e.g. catalog version, rule set, filters) may keep it for a few seconds;
 * the page itself is always read live. Least recently used totals make room when the cache is full.
 */
const totalCache = new LRUCache<string, number>({ max: 10_000 });

export interface SearchOptions {
  /** Everything the total depends on besides the criteria's filters, term and ids; enables the total cache. */
  totalCacheKey?: string;
  totalCacheTtlMs?: number;
  /**
   * The exact total of `base` itself (no filter, term or ids), kept by the caller — a counter
   * written in the same transaction as the rows it counts. Used instead of count(*) when the
   * criteria narrow nothing, so the total costs one key read however many rows the list has.
   */
  unfilteredTotal?: () => Promise<number>;
  /** The exact total of `base` with the criteria, when the caller has counted it already (e.g. narrowByProductFields' `total`). */
  knownTotal?: number;
  /**
   * Reads the page instead of running the data query (sorted, limited and offset) as it is: for a
   * caller that can often answer the same rows by a cheaper query (e.g. the leading rows of a ranked
   * search). It must answer exactly the rows the data query would.
   */
  readPage?: (dataQuery: Knex.QueryBuilder, limit: number) => Promise<unknown[]>;
  /**
   * Reads the page of `base` itself, in the spec's default sort, `limit` rows from `offset`: used
   * instead of building the data query when the criteria neither narrow (filter, term, ids) nor sort
   * the rows — e.g. one SQL text that also brings what `unfilteredTotal` answers. It must answer
   * exactly the rows the data query would.
   */
  readPlainPage?: (limit: number, offset: number) => Promise<unknown[]>;
}

/** Whether the criteria narrow the base query (a filter, a term or ids). */
export function narrowsRows(criteria: Criteria): boolean {
  return (criteria.filter?.length ?? 0) > 0 || (criteria.ids?.length ?? 0) > 0 || (criteria.term?.trim() ?? '') !== '';
}

/** Whether the criteria neither narrow nor sort the rows: the page is the base query's own, in the spec's default sort (`readPlainPage`). */
export function isPlainPage(criteria: Criteria): boolean {
  return !narrowsRows(criteria) && !criteria.sort?.length;
}

/**
 * Runs a criteria search: `base` selects from the resource with its joins and tenant scope;
 * `select` adds the columns of the data query.
 */
export async function searchByCriteria<T>(
  base: Knex.QueryBuilder,
  criteria: Criteria,
  spec: CriteriaSpec,
  select: (qb: Knex.QueryBuilder) => Knex.QueryBuilder,
  options: SearchOptions = {},
): Promise<Page<T>> {
  const page = criteria.page ?? 1;
  const limit = criteria.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit > MAX_LIMIT || limit < 1)
    throw Errors.badRequest('SUITE__INVALID_LIMIT', `limit must be between 1 and ${MAX_LIMIT}.`, { pointer: '/limit' });
  const filtered = applyCriteriaFilters(base, criteria, spec);
  if (criteria.cursor !== undefined)
    return searchByKeyset<T>(filtered, criteria, criteria.cursor, spec, select, options);
  const readDataQuery = async (): Promise<unknown> => {
    const dataQuery = select(filtered.clone());
    for (const sort of criteria.sort ?? [])
      dataQuery.orderBy(sortColumnOf(spec, sort.field), (sort.order ?? 'ASC').toLowerCase() as 'asc' | 'desc');
    for (const sort of spec.defaultSort) dataQuery.orderBy(sort.column, sort.order);
    // The limit as a literal (knex makes it an integer): SQLite plans the page's sort for it, 10–25 µs
    // less per listing page than with a bound limit; MySQL/MariaDB receive literals anyway.
    dataQuery.limit(limit, { skipBinding: true }).offset((page - 1) * limit);
    return options.readPage ? options.readPage(dataQuery, limit) : dataQuery;
  };
  const mode = criteria['total-count-mode'];
  const readPlainPage = isPlainPage(criteria) ? options.readPlainPage : undefined;
  const result: unknown = readPlainPage ? await readPlainPage(limit, (page - 1) * limit) : await readDataQuery();
  const rows = result as T[];
  let total: number;
  if (mode === 0 || mode === 'none') total = rows.length;
  else if (rows.length < limit && (page === 1 || rows.length > 0)) {
    // A page that is not full is the last one: the rows before it and its own are all there are (no count).
    total = (page - 1) * limit + rows.length;
  } else if (mode === 2 || mode === 'next-pages') {
    const ahead = await selectRows<unknown>(
      filtered
        .clone()
        .clearSelect()
        .clearOrder()
        .select(spec.idColumn)
        .limit(limit * 5 + 1)
        .offset((page - 1) * limit),
    );
    total = (page - 1) * limit + ahead.length;
  } else total = await exactTotal(filtered, criteria, options);
  return { total, rows, page, limit };
}

/** The number of rows `filtered` (the base with the criteria's filters) matches: known, kept by the caller, cached or counted. */
async function exactTotal(filtered: Knex.QueryBuilder, criteria: Criteria, options: SearchOptions): Promise<number> {
  if (options.knownTotal !== undefined) return options.knownTotal;
  if (options.unfilteredTotal && !narrowsRows(criteria)) return options.unfilteredTotal();
  const key = options.totalCacheKey
    ? `${options.totalCacheKey}|${JSON.stringify([criteria.filter, criteria.term, criteria.ids])}`
    : undefined;
  const cached = key === undefined ? undefined : totalCache.get(key);
  if (cached !== undefined) return cached;
  const [row]: Array<{ count?: unknown }> = await filtered.clone().clearSelect().clearOrder().count({ count: '*' });
  const total = readInt(row?.count);
  if (key !== undefined) totalCache.set(key, total, { ttl: options.totalCacheTtlMs ?? 10_000 });
  return total;
}

/** A page after the row a cursor names (src/lib/keyset.ts); `filtered` is the base with the criteria's filters. */
async function searchByKeyset<T>(
  filtered: Knex.QueryBuilder,
  criteria: Criteria,
  cursor: string,
  spec: CriteriaSpec,
  select: (qb: Knex.QueryBuilder) => Knex.QueryBuilder,
  options: SearchOptions,
): Promise<Page<T>> {
  if ((criteria.page ?? 1) !== 1)
    throw Errors.badRequest('SUITE__CURSOR_WITH_PAGE', 'Page by `cursor` or by `page`, not both.', {
      pointer: '/page',
    });
  const limit = criteria.limit ?? DEFAULT_LIMIT;
  const requested = (criteria.sort ?? []).map((sort): KeysetKey => ({
    column: sortColumnOf(spec, sort.field),
    order: (sort.order ?? 'ASC').toLowerCase() as 'asc' | 'desc',
  }));
  const keys = keysetKeys(requested, spec.defaultSort, spec.idColumn);
  const decoded = decodeCursor(keys, cursor);
  const after = decoded?.values ?? null;
  const dataQuery = select(filtered.clone()).select(
    Object.fromEntries(keys.map((key, i) => [keyAlias(i), key.column])),
  );
  if (after) whereAfter(dataQuery, keys, after);
  orderByKeys(dataQuery, keys);
  // One row more than the page: whether a next page exists, without a count.
  const read = await selectRows<Record<string, unknown>>(dataQuery.limit(limit + 1, { skipBinding: true }));
  const rows = read.slice(0, limit);
  const last = rows.at(-1);
  const hasNext = read.length > limit;
  const mode = criteria['total-count-mode'];
  // The total is counted on the first page only (or when a later page asks with mode 1 / 'exact'): the
  // next cursor carries it, so a walk counts once however deep it goes (decision 0023). A cursor made
  // before totals were carried has none and is counted as before.
  let total: number;
  if (mode === 0 || mode === 'none' || (!after && !hasNext)) total = rows.length;
  else if (after && decoded?.total !== undefined && mode !== 1 && mode !== 'exact') total = decoded.total;
  else total = await exactTotal(filtered, criteria, options);
  const carried = mode === 0 || mode === 'none' ? undefined : total;
  const nextCursor =
    hasNext && last
      ? encodeCursor(
          keys,
          keys.map((_, i) => keyValueOf(last[keyAlias(i)])),
          carried,
        )
      : null;
  for (const row of rows) for (let i = 0; i < keys.length; i++) delete row[keyAlias(i)];
  return { total, rows: rows as T[], page: 1, limit, nextCursor };
}

/**
 * The criteria's `term` as a filter: any of `fields` contains it, or any of `alsoMatching` holds.
 * For a list whose term covers other fields than those of the list it reads (the list's own term
 * is then not used).
 */
export function termAsFilter(criteria: Criteria, fields: string[], alsoMatching: Filter[] = []): Criteria {
  const { term: rawTerm, ...rest } = criteria;
  const term = rawTerm?.trim();
  if (!term) return rest;
  const anyOf: Filter[] = [
    ...fields.map((field): Filter => ({ type: 'contains', field, value: term })),
    ...alsoMatching,
  ];
  return { ...rest, filter: [...(criteria.filter ?? []), { type: 'multi', operator: 'or', queries: anyOf }] };
}

/** Renames fields in the criteria's filters and sort (a route's field names → those of the list it reads). */
export function renameCriteriaFields(criteria: Criteria, names: Record<string, string>): Criteria {
  const rename = (field: string) => names[field] ?? field;
  const renameFilter = (filter: Filter): Filter =>
    'queries' in filter
      ? { ...filter, queries: filter.queries.map(renameFilter) }
      : { ...filter, field: rename(filter.field) };
  return {
    ...criteria,
    ...(criteria.filter ? { filter: criteria.filter.map(renameFilter) } : {}),
    ...(criteria.sort ? { sort: criteria.sort.map((sort) => ({ ...sort, field: rename(sort.field) })) } : {}),
  };
}

/** What a filter on a field owned elsewhere resolves to: the ids it matches, or the ids it does not. */
export type IdMatch = { in: string[] } | { notIn: string[] };

/**
 * Replaces every filter on one of `fields` (at any depth of multi/not) by a filter on `idField`:
 * `resolve(leaf)` answers which ids the leaf matches. Lets a list filter by fields another party
 * keeps (the host's product fields in a plugin list, the plugin's fields in a host search) while
 * `not` and `or` keep their meaning.
 */
export async function resolveFiltersToIds(
  filters: Filter[] | undefined,
  fields: ReadonlySet<string>,
  idField: string,
  resolve: (leaf: Exclude<Filter, { queries: Filter[] }>) => Promise<IdMatch>,
): Promise<Filter[] | undefined> {
  if (!filters) return filters;
  const result: Filter[] = [];
  for (const filter of filters) {
    if ('queries' in filter)
      result.push({ ...filter, queries: (await resolveFiltersToIds(filter.queries, fields, idField, resolve)) ?? [] });
    else if (!fields.has(filter.field)) result.push(filter);
    else {
      const match = await resolve(filter);
      result.push(
        'in' in match
          ? { type: 'equalsAny', field: idField, value: match.in }
          : { type: 'not', queries: [{ type: 'equalsAny', field: idField, value: match.notIn }] },
      );
    }
  }
  return result;
}

/** Whether the criteria filter or sort on one of `fields` (at any depth). */
export function filtersName(filters: Filter[] | undefined, fields: ReadonlySet<string>): boolean {
  return (filters ?? []).some((f) => ('queries' in f ? filtersName(f.queries, fields) : fields.has(f.field)));
}

/**
 * Evaluates one filter leaf on a value held in memory (a figure another party computed, e.g. the
 * host's order sums): numbers and dates compare as numbers, strings as text; a date that does not
 * parse is the same 400 as in SQL.
 */
export function leafMatches(
  type: FieldType,
  value: number | string | null,
  leaf: Exclude<Filter, { queries: Filter[] }>,
): boolean {
  const comparable = (v: string | number | boolean | null | undefined): number | string | null => {
    if (v === null || v === undefined) return null;
    if (type === 'date') {
      const time = new Date(String(v)).getTime();
      if (Number.isNaN(time))
        throw Errors.badRequest('SUITE__INVALID_CRITERIA_VALUE', `"${String(v)}" is not a date.`, {
          pointer: '/filter',
        });
      return time;
    }
    if (type === 'number') return Number(v);
    return String(v);
  };
  const own = comparable(value);
  switch (leaf.type) {
    // Operands are converted before the value is looked at, so a bad operand is a 400 even on an empty list.
    case 'equals': {
      const operand = comparable(leaf.value);
      return operand === null ? own === null : own !== null && own === operand;
    }
    case 'equalsAny': {
      const operands = leaf.value.map(comparable);
      return own !== null && operands.includes(own);
    }
    case 'contains':
    case 'prefix':
    case 'suffix': {
      if (value === null) return false;
      const text = String(value).toLowerCase();
      const part = String(leaf.value).toLowerCase();
      return leaf.type === 'contains'
        ? text.includes(part)
        : leaf.type === 'prefix'
          ? text.startsWith(part)
          : text.endsWith(part);
    }
    case 'range': {
      const p = leaf.parameters;
      const bound = (v: string | number | undefined) => (v === undefined ? undefined : comparable(v)!);
      const [gte, lte, gt, lt] = [bound(p.gte), bound(p.lte), bound(p.gt), bound(p.lt)];
      if (own === null) return false;
      return (
        (gte === undefined || own >= gte) &&
        (lte === undefined || own <= lte) &&
        (gt === undefined || own > gt) &&
        (lt === undefined || own < lt)
      );
    }
  }
}
