import { searchByCriteria, MAX_LIMIT, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import type { Executor } from '../../lib/db.js';
import { objectSchema } from '../../lib/schemas.js';
import { defineStoreRoute, type HostRuntime, type SalesChannel, type StoreRoute } from '../../host/contract.js';
import { storeList, storeListResponse } from '../../lib/store-list.js';

export const SNIPPETS = 'b2b_snippets';
export const FALLBACK_LANGUAGE = 'en';
export const TAG = 'Account';

const snippetCriteria: CriteriaSpec = {
  fields: { key: { column: 's.snippet_key', type: 'string' } },
  termColumns: ['s.snippet_key', 's.value'],
  defaultSort: [{ column: 's.snippet_key', order: 'asc' }],
  idColumn: 's.id',
};

/** Snippets are kept per primary language subtag ('en-GB' → 'en'); a language without any falls back to English. */
export async function snippetLanguage(executor: Executor, salesChannel: SalesChannel): Promise<string> {
  const language = salesChannel.languageCode.split(/[-_]/)[0]!.toLowerCase();
  if (language === FALLBACK_LANGUAGE) return language;
  return (await executor(SNIPPETS).where({ language }).first('id')) ? language : FALLBACK_LANGUAGE;
}

/** Every snippet of the sales channel's language as a key → value map. */
export async function snippetMap(executor: Executor, salesChannel: SalesChannel): Promise<Map<string, string>> {
  const rows = await executor(SNIPPETS)
    .where({ language: await snippetLanguage(executor, salesChannel) })
    .select('snippet_key', 'value');
  return new Map(rows.map((r: { snippet_key: string; value: string }) => [r.snippet_key, r.value]));
}

export function snippetRoutes(host: HostRuntime): StoreRoute[] {
  return [
    defineStoreRoute({
      method: 'GET',
      path: '/snippets',
      operationId: 'listSnippets',
      summary:
        'Storefront text snippets in the sales channel’s language (query prefix, term, page, limit; limit defaults to 500).',
      tags: [TAG],
      auth: 'public',
      permission: null,
      schemas: {
        query: objectSchema({
          page: { type: 'integer', minimum: 1, default: 1 },
          limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: MAX_LIMIT },
          term: { type: 'string', maxLength: 255 },
          prefix: { type: 'string', maxLength: 191, pattern: '^[A-Za-z0-9._-]+$' },
        }),
        responses: {
          200: storeListResponse(
            objectSchema({ id: { type: 'string' }, key: { type: 'string' }, value: { type: 'string' } }, [
              'id',
              'key',
              'value',
            ]),
            {
              extra: { language: { type: 'string' } },
              extraRequired: ['language'],
            },
          ),
        },
      },
      async handler({ ctx, query }) {
        const language = await snippetLanguage(host.db, ctx.salesChannel);
        const base = host.db(`${SNIPPETS} as s`).where('s.language', language);
        const criteria: Criteria = {
          page: query.page,
          limit: query.limit,
          term: query.term,
          filter: query.prefix ? [{ type: 'prefix', field: 'key', value: query.prefix }] : [],
        };
        const page = await searchByCriteria<{ snippet_key: string; value: string }>(
          base,
          criteria,
          snippetCriteria,
          (qb) => qb.select('s.snippet_key', 's.value'),
        );
        return {
          ...storeList(
            page.rows.map((r) => ({ id: r.snippet_key, key: r.snippet_key, value: r.value })),
            page,
          ),
          language,
        };
      },
    }),
  ];
}
