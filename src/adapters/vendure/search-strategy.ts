import {
  ConfigService,
  DefaultSearchPlugin,
  MysqlSearchStrategy,
  PostgresSearchStrategy,
  ProductVariant,
  SqliteSearchStrategy,
  TransactionalConnection,
  type ID,
  type Injector,
  type RequestContext,
  type RuntimeVendureConfig,
  type SearchStrategy,
} from '@vendure/core';
import type { Logger } from '../../contract/index.js';
import { activeShopVisibility } from './shop-visibility.js';

/**
 * Partial assortments in the Shop API `search` of Vendure's DefaultSearchPlugin, through the
 * plugin's configurable search strategy:
 *
 *   DefaultSearchPlugin.init({ bufferUpdates: false, searchStrategy: new SuiteB2BSearchStrategy() })
 *
 * It runs Vendure's own SQL strategy of the shop's database (SqliteSearchStrategy,
 * MysqlSearchStrategy, PostgresSearchStrategy — exported by @vendure/core, chosen as Vendure
 * chooses; or the one given), so term matching, scores, facets and paging stay Vendure's. The
 * narrowing rides on what that strategy is handed in `init`: its TransactionalConnection is one whose
 * search index repository hands out query builders that join each index row to its variant with
 * `NOT IN (hidden variants)` in the join condition. Every query those strategies build starts from
 * that repository (items, totals, facet and collection counts, MySQL's term sub-query), and join
 * conditions survive the `where` each of them sets first — test/unit/vendure/search-strategy.test.ts
 * runs the three of them on a recording connection and fails when a query is built some other way.
 * Requests of the Admin API, and customers without hidden products, run Vendure's strategy as it is.
 */
export class SuiteB2BSearchStrategy implements SearchStrategy {
  private inner: SearchStrategy | null = null;
  /** The hidden variant ids of a request, set before the wrapped strategy runs (its repository look-ups are synchronous). */
  private readonly hiddenByContext = new WeakMap<RequestContext, string[]>();

  /** @param wrapped one of Vendure's SQL search strategies (default: the one Vendure picks for the shop's database). */
  constructor(private readonly wrapped?: SearchStrategy) {}

  async init(injector: Injector): Promise<void> {
    const inner =
      this.wrapped ?? vendureStrategyFor(injector.get<ConfigService>(ConfigService).dbConnectionOptions.type);
    const connection = narrowingConnection(injector.get<TransactionalConnection>(TransactionalConnection), (ctx) =>
      this.hiddenByContext.get(ctx),
    );
    const narrowingInjector = Object.create(injector, {
      get: {
        value: (token: unknown) => (token === TransactionalConnection ? connection : injector.get(token as never)),
      },
    }) as Injector;
    await inner.init?.(narrowingInjector);
    this.inner = inner;
  }

  async destroy(): Promise<void> {
    await this.inner?.destroy?.();
  }

  private async narrowed<T>(ctx: RequestContext, run: (inner: SearchStrategy) => Promise<T>): Promise<T> {
    if (!this.inner) throw new Error('SuiteB2BSearchStrategy: init() has not run');
    const hidden = (await activeShopVisibility()?.of(ctx))?.hiddenVariantIds;
    if (hidden && hidden.size > 0) this.hiddenByContext.set(ctx, [...hidden]);
    else this.hiddenByContext.delete(ctx);
    return run(this.inner);
  }

  /** A search within a collection (category) hidden from the caller finds nothing, as the collection itself answers null. */
  private inHiddenCollection(
    ctx: RequestContext,
    input: { collectionId?: string | number | null; collectionSlug?: string | null },
  ) {
    const visibility = activeShopVisibility();
    return visibility
      ? visibility.collectionHidden(ctx, { id: input.collectionId, slug: input.collectionSlug })
      : Promise.resolve(false);
  }

  async getSearchResults(...[ctx, input, enabledOnly]: Parameters<SearchStrategy['getSearchResults']>) {
    if (await this.inHiddenCollection(ctx, input)) return [];
    return this.narrowed(ctx, (inner) => inner.getSearchResults(ctx, input, enabledOnly));
  }

  async getTotalCount(...[ctx, input, enabledOnly]: Parameters<SearchStrategy['getTotalCount']>) {
    if (await this.inHiddenCollection(ctx, input)) return 0;
    return this.narrowed(ctx, (inner) => inner.getTotalCount(ctx, input, enabledOnly));
  }

  async getFacetValueIds(...[ctx, input, enabledOnly]: Parameters<SearchStrategy['getFacetValueIds']>) {
    if (await this.inHiddenCollection(ctx, input)) return new Map<ID, number>();
    return this.narrowed(ctx, (inner) => inner.getFacetValueIds(ctx, input, enabledOnly));
  }

  /** The collection counts of the visible variants, without the collections (categories) hidden from the caller. */
  async getCollectionIds(...[ctx, input, enabledOnly]: Parameters<SearchStrategy['getCollectionIds']>) {
    if (await this.inHiddenCollection(ctx, input)) return new Map<ID, number>();
    const counts = await this.narrowed(ctx, (inner) => inner.getCollectionIds(ctx, input, enabledOnly));
    const hidden = await activeShopVisibility()?.hiddenCollections(ctx);
    if (hidden) for (const id of [...counts.keys()]) if (hidden.has(String(id))) counts.delete(id);
    return counts;
  }
}

/** The strategy Vendure's FulltextSearchService picks for a database type when none is configured. */
export function vendureStrategyFor(type: string): SearchStrategy {
  if (type === 'mysql' || type === 'mariadb' || type === 'aurora-mysql') return new MysqlSearchStrategy();
  if (type === 'postgres' || type === 'aurora-postgres' || type === 'cockroachdb') return new PostgresSearchStrategy();
  if (type === 'sqlite' || type === 'sqljs' || type === 'better-sqlite3') return new SqliteSearchStrategy();
  throw new Error(`SuiteB2BSearchStrategy: no Vendure search strategy for database type "${type}"`);
}

interface QueryBuilderLike {
  innerJoin(entity: unknown, alias: string, condition: string, parameters: Record<string, unknown>): unknown;
}

/** Binds a function property to its object (a Proxy hands out the target's methods). */
function bound(target: object, key: string | symbol): unknown {
  const value: unknown = Reflect.get(target, key, target);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}

/**
 * Vendure's TransactionalConnection as the wrapped strategy sees it: `getRepository(ctx, <search
 * index>)` of a request with hidden variants answers a repository whose query builders are joined to
 * the visible variants only; everything else is the connection itself.
 */
export function narrowingConnection(
  connection: TransactionalConnection,
  hiddenOf: (ctx: RequestContext) => string[] | undefined,
): TransactionalConnection {
  const isSearchIndex = (target: unknown): boolean => {
    try {
      // By the entity's name (the DefaultSearchPlugin does not export its class), never its table's.
      return connection.rawConnection.getMetadata(target as never).name === 'SearchIndexItem';
    } catch {
      return false;
    }
  };
  const narrowed = (repository: object, hidden: string[]) =>
    new Proxy(repository, {
      get(target, key) {
        if (key !== 'createQueryBuilder') return bound(target, key);
        return (alias?: string, ...rest: unknown[]) => {
          const qb = (
            target as { createQueryBuilder(alias?: string, ...rest: unknown[]): QueryBuilderLike }
          ).createQueryBuilder(alias, ...rest);
          const row = alias ?? 'si';
          const visible = `${row}_suite_visible`;
          qb.innerJoin(
            ProductVariant,
            visible,
            `${visible}.id = ${row}.productVariantId AND ${visible}.id NOT IN (:...suiteHiddenVariantIds)`,
            { suiteHiddenVariantIds: hidden },
          );
          return qb;
        };
      },
    });
  return new Proxy(connection, {
    get(target, key) {
      if (key !== 'getRepository') return bound(target, key);
      return (...args: unknown[]) => {
        const repository = (target.getRepository as (...args: unknown[]) => object)(...args);
        const [ctxOrTarget, maybeTarget] = args;
        if (maybeTarget === undefined) return repository;
        const hidden = hiddenOf(ctxOrTarget as RequestContext);
        return hidden && hidden.length > 0 && isSearchIndex(maybeTarget) ? narrowed(repository, hidden) : repository;
      };
    },
  });
}

/** Warns at boot when the shop runs the DefaultSearchPlugin without the narrowing strategy (its `search` then shows every product). */
export function checkSearchStrategy(config: RuntimeVendureConfig, log: Logger): void {
  const searchPlugin = config.plugins.some(
    (plugin) => plugin === DefaultSearchPlugin || (plugin as { module?: unknown }).module === DefaultSearchPlugin,
  );
  const strategy = (DefaultSearchPlugin.options as { searchStrategy?: unknown } | undefined)?.searchStrategy;
  if (searchPlugin && !(strategy instanceof SuiteB2BSearchStrategy))
    log.warn(
      'Suite B2B: DefaultSearchPlugin runs without SuiteB2BSearchStrategy; Shop API search is not narrowed by partial assortments (docs/vendure.md)',
    );
}
