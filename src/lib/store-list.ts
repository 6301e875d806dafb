import { DEFAULT_LIMIT } from './criteria.js';
import type { SchemaInput, TypedSchema } from './routes.js';
import { objectSchema } from './schemas.js';

/**
 * The Store API list envelope: the shop platform's search result, which clients written for the
 * platform read (`elements`, not `data`). One schema builder and one value builder, so every list
 * answers and documents the same shape. Admin API lists answer JSON:API instead; lists whose shape
 * the specification names keep its fields (order approvals); budget and employee orders answer the
 * spec's `orders` beside the envelope's `elements`, so both kinds of client read them.
 */
export const SEARCH_RESULT_ALIAS = 'dal_entity_search_result';
/** The platform's alias for product listings (listing, search, product table). */
export const PRODUCT_LISTING_ALIAS = 'product_listing';

export interface StoreList<T> {
  total: number;
  page: number;
  limit: number;
  elements: T[];
  aggregations: Record<string, unknown>;
  apiAlias: string;
  /** Only when the request paged by `cursor` (src/lib/keyset.ts): the next page's cursor, null on the last page. */
  nextCursor?: string | null;
}

export interface StoreListOptions<E extends Record<string, unknown> = Record<string, unknown>> {
  apiAlias?: string;
  /** Fields the list answers besides the envelope's (e.g. the snippet list's `language`). */
  extra?: E;
  extraRequired?: string[];
}

/** What a list with the item schema I and the extra fields E answers (the extras as their schemas admit, optional). */
export type StoreListOf<I, E = Record<never, never>> = StoreList<SchemaInput<I>> & {
  [K in keyof E]?: SchemaInput<E[K]>;
};

/** The response schema of a Store API list whose elements have the schema `item` (typed as the list it admits). */
export function storeListResponse<
  I extends Record<string, unknown>,
  E extends Record<string, unknown> = Record<never, never>,
>(item: I, options: StoreListOptions<E> = {}): TypedSchema<StoreListOf<I, E>> {
  const schema = objectSchema(
    {
      total: { type: 'integer', minimum: 0 },
      page: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 0 },
      elements: { type: 'array', items: item },
      aggregations: { type: 'object' },
      apiAlias: { type: 'string', const: options.apiAlias ?? SEARCH_RESULT_ALIAS },
      nextCursor: {
        type: ['string', 'null'],
        description: 'Only when the request gave a `cursor`: the cursor of the next page, null on the last page.',
      },
      ...options.extra,
    },
    ['total', 'page', 'limit', 'elements', 'aggregations', 'apiAlias', ...(options.extraRequired ?? [])],
  );
  return schema as unknown as TypedSchema<StoreListOf<I, E>>;
}

/**
 * A page of a criteria search as the envelope: `paging` is the search's total, page and limit (a
 * search result, or the total with the criteria's page and limit; absent ones are the criteria defaults).
 */
export function storeList<T>(
  elements: T[],
  paging: { total: number; page?: number; limit?: number; nextCursor?: string | null },
  apiAlias = SEARCH_RESULT_ALIAS,
): StoreList<T> {
  const list: StoreList<T> = {
    total: paging.total,
    page: paging.page ?? 1,
    limit: paging.limit ?? DEFAULT_LIMIT,
    elements,
    aggregations: {},
    apiAlias,
  };
  if (paging.nextCursor !== undefined) list.nextCursor = paging.nextCursor;
  return list;
}

/** A list that is not paged (it answers every element at once): one page holding all of them. */
export function storeListOf<T>(elements: T[], apiAlias = SEARCH_RESULT_ALIAS): StoreList<T> {
  return storeList(elements, { total: elements.length, page: 1, limit: elements.length }, apiAlias);
}

/** A service's `{total, data}` page of a criteria search as the envelope (page and limit are the criteria's). */
export function criteriaList<T>(
  result: { total: number; data: T[]; nextCursor?: string | null },
  criteria: { page?: number; limit?: number },
  apiAlias = SEARCH_RESULT_ALIAS,
): StoreList<T> {
  return storeList(
    result.data,
    { total: result.total, page: criteria.page, limit: criteria.limit, nextCursor: result.nextCursor },
    apiAlias,
  );
}
