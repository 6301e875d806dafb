import { expect } from 'chai';
import {
  ConfigService,
  MysqlSearchStrategy,
  PostgresSearchStrategy,
  RequestContext,
  SqliteSearchStrategy,
  TransactionalConnection,
  type Injector,
  type SearchStrategy,
} from '@vendure/core';
import { narrowingConnection, vendureStrategyFor } from '../../../src/adapters/vendure/search-strategy.js';

/**
 * SuiteB2BSearchStrategy narrows Vendure's own SQL search strategies through the connection it hands
 * them in init(): every query they build must come from `getRepository(ctx, SearchIndexItem)
 * .createQueryBuilder(…)` (which the adapter joins to the visible variants), or wrap such a query
 * (`rawConnection.createQueryBuilder().from('(<inner query>)')`, the totals). This test runs the three
 * strategies of the installed Vendure on a recording connection and fails when a Vendure release
 * builds a search query another way (the e2e tests cover SQLite and MariaDB against real data).
 */

interface Recorded {
  repositories: Array<{ target: string; withContext: boolean }>;
  builders: Array<{ alias: string; narrowed: boolean; source: 'repository' | 'raw'; from: string[] }>;
}

/** A query builder that records joins and `from`s and answers empty results; every other call chains. */
function fakeBuilder(recorded: Recorded, alias: string, source: 'repository' | 'raw') {
  const entry = { alias, narrowed: false, source, from: [] as string[] };
  recorded.builders.push(entry);
  const builder: object = new Proxy(
    {},
    {
      get(_target, key) {
        if (key === 'then') return undefined;
        if (key === 'getRawMany' || key === 'getMany') return () => Promise.resolve([]);
        if (key === 'getRawOne') return () => Promise.resolve({ total: 0 });
        if (key === 'getCount') return () => Promise.resolve(0);
        if (key === 'getQuery') return () => `(${entry.narrowed ? 'NARROWED' : 'OPEN'} ${alias})`;
        if (key === 'getParameters') return () => ({});
        if (key === 'escape') return (name: string) => `"${name}"`;
        if (key === 'innerJoin')
          return (_entity: unknown, _joinAlias: string, condition: string) => {
            if (/NOT IN \(:\.\.\.suiteHiddenVariantIds\)/.test(condition)) entry.narrowed = true;
            return builder;
          };
        if (key === 'from')
          return (from: unknown) => {
            entry.from.push(String(from));
            return builder;
          };
        return () => builder;
      },
    },
  );
  return builder;
}

function recordingConnection(recorded: Recorded): TransactionalConnection {
  const repositoryOf = (target: { name?: string }, withContext: boolean) => {
    recorded.repositories.push({ target: target.name ?? String(target), withContext });
    return { createQueryBuilder: (alias: string) => fakeBuilder(recorded, alias, 'repository') };
  };
  return {
    getRepository: (ctxOrTarget: unknown, maybeTarget?: { name?: string }) =>
      maybeTarget === undefined
        ? repositoryOf(ctxOrTarget as { name?: string }, false)
        : repositoryOf(maybeTarget, true),
    rawConnection: {
      getMetadata: (target: { name?: string }) => ({
        name: target.name,
        tableName: target.name === 'SearchIndexItem' ? 'search_index_item' : 'other',
      }),
      createQueryBuilder: () => fakeBuilder(recorded, 'raw', 'raw'),
    },
  } as unknown as TransactionalConnection;
}

const STRATEGIES: Array<[string, () => SearchStrategy]> = [
  ['SqliteSearchStrategy', () => new SqliteSearchStrategy()],
  ['MysqlSearchStrategy', () => new MysqlSearchStrategy()],
  ['PostgresSearchStrategy', () => new PostgresSearchStrategy()],
];

const INPUTS = [
  { groupByProduct: true },
  { groupByProduct: false, term: 'standing desk', take: 10, skip: 5 },
  { groupByProduct: true, term: 'desk', facetValueIds: ['1', '2'], collectionId: '3', inStock: true },
];

describe('Vendure: the search strategy narrowing (shape of the installed Vendure strategies)', () => {
  const ctx = new RequestContext({
    apiType: 'shop',
    isAuthorized: true,
    authorizedAsOwnerOnly: false,
    channel: { id: 1, defaultLanguageCode: 'en', defaultCurrencyCode: 'USD' } as never,
  });

  for (const [name, create] of STRATEGIES)
    it(`${name}: every query of items, totals, facet and collection counts starts from the narrowed search index`, async () => {
      const recorded: Recorded = { repositories: [], builders: [] };
      const connection = narrowingConnection(recordingConnection(recorded), () => ['7']);
      const injector = {
        get: (token: unknown) => (token === TransactionalConnection ? connection : {}),
      } as unknown as Injector;
      const strategy = create();
      await strategy.init?.(injector);
      for (const input of INPUTS) {
        await strategy.getSearchResults(ctx, input as never, true);
        await strategy.getTotalCount(ctx, input as never, true);
        await strategy.getFacetValueIds(ctx, input as never, true);
        await strategy.getCollectionIds(ctx, input as never, true);
      }
      expect(recorded.repositories.length, 'queries through the connection').to.be.greaterThan(0);
      expect(
        recorded.repositories,
        'every repository is the search index, asked for with the request context',
      ).to.deep.equal(recorded.repositories.map(() => ({ target: 'SearchIndexItem', withContext: true })));
      const open = recorded.builders.filter((b) => b.source === 'repository' && !b.narrowed);
      expect(open, 'search index queries without the narrowing join').to.deep.equal([]);
      for (const raw of recorded.builders.filter((b) => b.source === 'raw'))
        expect(
          raw.from.length > 0 && raw.from.every((from) => from.includes('NARROWED')),
          `a raw query reads only narrowed queries: ${raw.from.join(', ')}`,
        ).to.equal(true);
    });

  it('leaves a request without hidden products to the strategy as it is', async () => {
    const recorded: Recorded = { repositories: [], builders: [] };
    const connection = narrowingConnection(recordingConnection(recorded), () => undefined);
    const strategy = new SqliteSearchStrategy();
    await strategy.init({
      get: (token: unknown) => (token === TransactionalConnection ? connection : {}),
    } as unknown as Injector);
    await strategy.getSearchResults(ctx, { groupByProduct: true } as never, true);
    expect(recorded.builders.map((b) => b.narrowed)).to.deep.equal([false]);
  });

  it("picks Vendure's strategy for the shop's database as Vendure does", () => {
    expect(vendureStrategyFor('better-sqlite3')).to.be.instanceOf(SqliteSearchStrategy);
    expect(vendureStrategyFor('mariadb')).to.be.instanceOf(MysqlSearchStrategy);
    expect(vendureStrategyFor('mysql')).to.be.instanceOf(MysqlSearchStrategy);
    expect(vendureStrategyFor('postgres')).to.be.instanceOf(PostgresSearchStrategy);
    expect(ConfigService).to.be.a('function');
  });
});
