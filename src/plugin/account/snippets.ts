import { MAX_LIMIT, type Criteria } from '../../lib/criteria.js';
import type { Executor } from '../../lib/db.js';
import { objectSchema } from '../../lib/schemas.js';
import { defineStoreRoute, type HostRuntime, type SalesChannel } from '../../contract/index.js';
import { storeList, storeListResponse } from '../../lib/store-list.js';
import { hasSnippetsIn, searchSnippets, snippetsIn } from './repository.js';

export const FALLBACK_LANGUAGE = 'en';
export const TAG = 'Account';

/** Snippets are kept per primary language subtag ('en-GB' → 'en'); a language without any falls back to English. */
export async function snippetLanguage(executor: Executor, salesChannel: SalesChannel): Promise<string> {
  const language = salesChannel.languageCode.split(/[-_]/)[0]!.toLowerCase();
  if (language === FALLBACK_LANGUAGE) return language;
  return (await hasSnippetsIn(executor, language)) ? language : FALLBACK_LANGUAGE;
}

/** Every snippet of the sales channel's language as a key → value map. */
export async function snippetMap(executor: Executor, salesChannel: SalesChannel): Promise<Map<string, string>> {
  const rows = await snippetsIn(executor, await snippetLanguage(executor, salesChannel));
  return new Map(rows.map((r) => [r.snippet_key, r.value]));
}

export function snippetRoutes(host: HostRuntime) {
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
        const criteria: Criteria = {
          page: query.page,
          limit: query.limit,
          term: query.term,
          filter: query.prefix ? [{ type: 'prefix', field: 'key', value: query.prefix }] : [],
        };
        const page = await searchSnippets(host.db, language, criteria);
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
