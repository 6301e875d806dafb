import { DEFAULT_LIMIT, MAX_LIMIT } from './criteria.js';
import { CURSOR_PROPERTY } from './keyset.js';
import { objectSchema } from './schemas.js';
import type { SchemaInput, TypedSchema } from './routes.js';

/**
 * Admin API lists answer JSON:API: `data` of `{id, type, attributes}`, `meta.total` and `links`.
 * Every paged Admin list builds its answer here, so all of them page the same way.
 */

/** Where the host mounts the Admin API; list links are absolute paths on it. */
export const ADMIN_API_BASE = '/api';
const MAX_PAGE = 1_000_000;

/** The `limit` and `page` query parameters of a paged Admin list (spread into the route's query schema). */
export const jsonApiPageQuery = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT,
    default: DEFAULT_LIMIT,
    description: `Records per page: 1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}. Out of range is a 400.`,
  },
  page: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE,
    default: 1,
    description: `Page to return, from 1 (default 1) to ${MAX_PAGE}. Out of range is a 400; a page past the last answers an empty data array.`,
  },
} as const;

/**
 * The JSON:API `sort` query parameter of an Admin list over the given fields: `sort=name` ascending,
 * `sort=-createdAt` descending; one field (the list's own tie-breaker follows it). Another value is
 * a 400. Without it the list keeps its own order (`defaultOrder` says which), and the links leave it out.
 */
export function jsonApiSortQuery<const F extends readonly string[]>(fields: F, defaultOrder: string) {
  return {
    sort: {
      type: 'string',
      enum: fields.flatMap((field) => [field, `-${field}`]),
      description: `Sort by one of ${fields.join(', ')}; a leading "-" sorts descending. Without it: ${defaultOrder}.`,
    },
  } as const;
}

/** A `sort` value of jsonApiSortQuery as a field and an order. */
export function jsonApiSortOf(sort: string): { field: string; order: 'asc' | 'desc' } {
  return sort.startsWith('-') ? { field: sort.slice(1), order: 'desc' } : { field: sort, order: 'asc' };
}

/** The `cursor` query parameter of an Admin list that also pages by keyset (src/lib/keyset.ts): `links.next` then carries the next one. */
export const jsonApiCursorQuery = { cursor: CURSOR_PROPERTY } as const;

export interface JsonApiLinks {
  self: string;
  first: string;
  last: string;
  prev?: string;
  next?: string;
}

export interface JsonApiList<T> {
  data: T[];
  meta: { total: number; nextCursor?: string | null };
  links: JsonApiLinks;
}

const link = { type: 'string' };

/** The response schema of a paged Admin list of `resource` objects (typed as the list it admits). */
export function jsonApiListSchema<R extends Record<string, unknown>>(
  resource: R,
): TypedSchema<JsonApiList<SchemaInput<R>>> {
  const schema = objectSchema(
    {
      data: { type: 'array', items: resource },
      meta: objectSchema(
        {
          total: { type: 'integer', minimum: 0 },
          nextCursor: {
            type: ['string', 'null'],
            description: "Only when the request gave a `cursor`: the next page's, null on the last page.",
          },
        },
        ['total'],
      ),
      links: objectSchema({ self: link, first: link, last: link, prev: link, next: link }, ['self', 'first', 'last']),
    },
    ['data', 'meta', 'links'],
  );
  return schema as unknown as TypedSchema<JsonApiList<SchemaInput<R>>>;
}

export interface ListPage {
  /** The route's path on the Admin API, e.g. `/suite-customer-price`. */
  path: string;
  page: number;
  limit: number;
  total: number;
  /** Query parameters the list was filtered by; kept in every link (undefined ones are left out). */
  filters?: Record<string, string | number | undefined>;
  /** Keyset paging: the cursor this page was read with and the next page's (null on the last). */
  cursor?: { current: string; next: string | null };
}

/**
 * The links of one page: `self`, `first` and `last` always (`last` is page 1 of an empty list),
 * `prev` from page 2 on (a page past the end points back to the last page), `next` before the last.
 */
export function pageLinks({ path, page, limit, total, filters = {}, cursor }: ListPage): JsonApiLinks {
  const kept = Object.entries(filters).flatMap(([name, value]): Array<[string, string]> =>
    value === undefined || value === '' ? [] : [[name, String(value)]],
  );
  const link = (paging: Array<[string, string]>) =>
    `${ADMIN_API_BASE}${path}?${new URLSearchParams([['limit', String(limit)], ...paging, ...kept]).toString()}`;
  const to = (p: number) => link([['page', String(p)]]);
  const lastPage = Math.max(1, Math.ceil(total / limit));
  if (cursor) {
    // A keyset walk goes forward only: no `prev`; `last` is the last page by number.
    const links: JsonApiLinks = {
      self: link([['cursor', cursor.current]]),
      first: link([['cursor', '']]),
      last: to(lastPage),
    };
    if (cursor.next) links.next = link([['cursor', cursor.next]]);
    return links;
  }
  const links: JsonApiLinks = { self: to(page), first: to(1), last: to(lastPage) };
  if (page > 1) links.prev = to(Math.min(page - 1, lastPage));
  if (page < lastPage) links.next = to(page + 1);
  return links;
}

/** One page of an Admin list as a JSON:API document. */
export function jsonApiList<T>(data: T[], page: ListPage): JsonApiList<T> {
  return {
    data,
    meta: page.cursor ? { total: page.total, nextCursor: page.cursor.next } : { total: page.total },
    links: pageLinks(page),
  };
}

/**
 * An answer of an Admin API mounted elsewhere than ADMIN_API_BASE (Vendure: /b2b-admin-api): the
 * list links and the Location header the routes build on ADMIN_API_BASE, moved onto `base`.
 */
export function rebaseAdminLinks<T extends { body: unknown; headers: Record<string, string> }>(
  outcome: T,
  base: string,
): T {
  const onBase = (value: string) =>
    value.startsWith(`${ADMIN_API_BASE}/`) ? `${base}${value.slice(ADMIN_API_BASE.length)}` : value;
  const headers = Object.fromEntries(
    Object.entries(outcome.headers).map(([name, value]) => [
      name,
      name.toLowerCase() === 'location' ? onBase(value) : value,
    ]),
  );
  const body = outcome.body as { links?: unknown } | null;
  if (
    typeof body !== 'object' ||
    body === null ||
    Array.isArray(body) ||
    typeof body.links !== 'object' ||
    body.links === null
  )
    return { ...outcome, headers };
  const links = Object.fromEntries(
    Object.entries(body.links).map(([name, value]) => [name, typeof value === 'string' ? onBase(value) : value]),
  );
  return { ...outcome, headers, body: { ...body, links } };
}
