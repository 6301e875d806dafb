import type { Knex } from 'knex';
import { dialectOf, selectRaw, selectRow, selectRows, type Dialect, type Executor } from '../../lib/db.js';
import { isId } from '../../lib/ids.js';
import type {
  AdminRoute,
  HostRuntime,
  ProductRecord,
  StoreContext,
  StoreRoute,
  VisibilityFilter,
} from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import {
  requestCatalogVersions,
  requestVisibilityVersion,
  visibilityChanged,
  visibilityVersion,
} from './catalog-version.js';
import { calculatePrice, calculatePrices } from './prices.js';
import {
  CATALOG_TABLES,
  PRODUCT_COLUMNS,
  categoryIdsColumn,
  inIdOrder,
  rememberTierPrices,
  selectProductsWithCategoriesAndTiers,
  tierPricesOfRows,
  tierQuantitiesOf,
  toProductRecords,
  type ProductRow,
} from './product-repository.js';
import { createProductCache } from './product-cache.js';
import { createProductSearch, PRODUCT_CRITERIA_FIELDS } from './product-search.js';
import { applyVisibility, visibilityConditions } from './visibility.js';
import { createVisibleIdCache } from './visible-ids.js';
import { RuleEngine } from './rule-engine.js';
import { catalogStoreRoutes } from './store-routes.js';
import { createVariantCatalog } from './variants.js';
import { ADMIN_ENTITIES } from '../admin/entity-definitions.js';
import { entityRoutes } from '../admin/entity-routes.js';

/** The reference host's catalog: the contract's, with its optional performance hook always there. */
export type HostCatalog = HostRuntime['catalog'] & Required<Pick<HostRuntime['catalog'], 'visibilityVersion'>>;

export interface CatalogModule extends Pick<HostRuntime, 'rules' | 'prices'> {
  catalog: HostCatalog;
  storeRoutes: StoreRoute[];
  adminRoutes: AdminRoute[];
  /**
   * `catalog.visibleProducts` for a transaction that writes no product (the cart writes): the kept
   * records serve it and what it reads is kept, as on the root connection.
   */
  visibleProductsInReadTransaction: HostRuntime['catalog']['visibleProducts'];
}

/**
 * `+table.active`: the same condition, but one no index answers. Without table statistics, SQLite
 * reads a list of 20 or more ids through the `(active, name)` index (every active row) instead of
 * the primary key (EXPLAIN: "SEARCH products USING INDEX products_active_name_index (active=?)",
 * 1.5–6 ms for a 20-line cart over 10,000 products); by id it is one key look-up per id.
 */
function activeByIdOnly(query: Knex.QueryBuilder, table: string): Knex.QueryBuilder {
  return query.whereRaw(`${unindexed(dialectOf(query))}?? = ?`, [`${table}.active`, true]);
}

/** The unary plus that keeps an index from answering a condition; PostgreSQL has no unary plus on booleans (and plans by its statistics). */
function unindexed(dialect: Dialect): string {
  return dialect === 'postgres' ? '' : '+';
}

/** ` and …` conditions on `products` that keep the context's visible, active products (for statements written as text). `+products.active`: see activeByIdOnly. */
async function visibleProductConditions(
  filters: VisibilityFilter[],
  ctx: StoreContext,
  executor: Executor,
): Promise<{ sql: string; bindings: Knex.RawBinding[] }> {
  const visible = await visibilityConditions(filters, ctx, 'product', 'products.id', executor);
  return {
    sql: ` and ${unindexed(dialectOf(executor))}products.active = ?${visible.sql}`,
    bindings: [true, ...visible.bindings],
  };
}

/**
 * The products of `ids` that meet `conditions` (visibleProductConditions), with their categories and
 * tier prices in one statement; each record remembers its tier prices (tierPricesReadWith), so pricing
 * it reads none. SQL text, not a knex builder: read on every product price, cart and fast order
 * request, where building it cost more CPU than running it.
 */
async function readProductsWhere(
  executor: Executor,
  ids: string[],
  conditions: { sql: string; bindings: Knex.RawBinding[] },
): Promise<ProductRecord[]> {
  const sql = `${selectProductsWithCategoriesAndTiers(executor)} where products.id in (${ids.map(() => '?').join(', ')})${conditions.sql}`;
  const rows = await selectRaw<ProductRow>(executor, sql, [...ids, ...conditions.bindings]);
  const tiers = tierPricesOfRows(rows)!;
  const records = await toProductRecords(executor, rows);
  for (const record of records) rememberTierPrices(record, tiers.get(record.id) ?? []);
  return records;
}

/** Id and number of the products numbered one of `numbers` (any case on MySQL/MariaDB, whose collation ignores it), 500 numbers per statement. */
async function productsNumbered(
  executor: Executor,
  numbers: string[],
  activeOnly: boolean,
): Promise<Array<{ id: string; productNumber: string }>> {
  const found: Array<{ id: string; productNumber: string }> = [];
  for (let i = 0; i < numbers.length; i += 500) {
    const query = executor('products').whereIn('product_number', numbers.slice(i, i + 500));
    if (activeOnly) query.where('active', true);
    const rows = await selectRows<{ id: string; product_number: string }>(query.select('id', 'product_number'));
    for (const row of rows) found.push({ id: row.id, productNumber: String(row.product_number) });
  }
  return found;
}

/** The ids of the active products numbered exactly one of `numbers`, by number. */
async function activeIdsByNumber(executor: Executor, numbers: string[]): Promise<Map<string, string>> {
  const exact = new Set(numbers);
  return new Map(
    (await productsNumbered(executor, numbers, true))
      .filter((p) => exact.has(p.productNumber))
      .map((p) => [p.productNumber, p.id]),
  );
}

/** Catalog (products, categories, landing pages, visibility), the rule engine and prices. */
export function createCatalogModule(internals: HostInternals): CatalogModule {
  const { registries } = internals;
  const ruleEngine = new RuleEngine(internals.db);
  const visibleProductsOnly = (ctx: StoreContext, query: Knex.QueryBuilder, executor: Executor) =>
    applyVisibility(registries.visibilityFilters, ctx, 'product', query, 'products.id', executor);
  const search = createProductSearch(
    internals.dialect,
    visibleProductsOnly,
    createVisibleIdCache(registries.visibilityFilters),
  );
  const variantCatalog = createVariantCatalog(internals.db, visibleProductsOnly);
  const keptProducts = createProductCache();

  /**
   * Kept per process at the request's products and visibility versions (product-cache.ts), with
   * `keep`: on the root connection, or in a transaction that writes no product (any other may hold
   * product writes the versions do not count yet). The versions were read with the context, before
   * the transaction began, so what it reads is never older than they say.
   */
  async function visibleProducts(
    ctx: StoreContext,
    ids: string[],
    executor: Executor,
    keep: boolean,
  ): Promise<ProductRecord[]> {
    const wanted = [...new Set(ids.filter(isId))];
    if (wanted.length === 0) return [];
    const visible = await visibleProductConditions(registries.visibilityFilters, ctx, executor);
    const kept = keep ? keptProducts.forRequest(requestCatalogVersions(ctx), visible) : null;
    const unknown = kept ? kept.unknown(wanted) : wanted;
    const read = unknown.length > 0 ? await readProductsWhere(executor, unknown, visible) : [];
    if (!kept) return inIdOrder(read, ids);
    kept.remember(unknown, read);
    const readIds = new Set(unknown);
    return inIdOrder([...read, ...kept.known(wanted.filter((id) => !readIds.has(id)))], ids);
  }

  /**
   * On the root connection the numbers' ids are kept at the request's products version and the
   * records come from visibleProducts (kept too): a warm fast order add by number reads no product.
   * In a transaction, read as before.
   */
  async function visibleProductsByNumber(
    ctx: StoreContext,
    numbers: string[],
    executor: Executor,
  ): Promise<ProductRecord[]> {
    const wanted = [...new Set(numbers.filter((n) => typeof n === 'string' && n.length > 0))];
    if (wanted.length === 0) return [];
    const ids =
      executor === internals.db
        ? await keptProducts.idsByNumber(requestCatalogVersions(ctx), wanted, (unknown) =>
            activeIdsByNumber(executor, unknown),
          )
        : null;
    if (!ids) return search.visibleByNumber(executor, wanted, ctx);
    return visibleProducts(ctx, [...ids.values()], executor, true);
  }

  const catalog: HostCatalog = {
    addVisibilityFilter: (filter) => void registries.visibilityFilters.push(filter),
    addProductExtension: (extension) => void registries.productExtensions.push(extension),
    visibleProducts: (executor, ctx, ids) => visibleProducts(ctx, ids, executor, executor === internals.db),
    visibleProductsByNumber: (executor, ctx, numbers) => visibleProductsByNumber(ctx, numbers, executor),
    productCriteriaFields: PRODUCT_CRITERIA_FIELDS,
    searchProducts: search.searchProducts,
    productIds: search.productIds,
    tierQuantities: tierQuantitiesOf,
    async products(executor, ids) {
      const wanted = [...new Set(ids.filter(isId))];
      if (wanted.length === 0) return [];
      const rows = await selectRows<ProductRow>(
        executor('products')
          .whereIn('products.id', wanted)
          .select([...PRODUCT_COLUMNS, categoryIdsColumn(executor)]),
      );
      return inIdOrder(await toProductRecords(executor, rows), ids);
    },
    async visibleEntityIds(executor, ctx, entity, ids) {
      const table = CATALOG_TABLES[entity];
      const wanted = [...new Set(ids.filter(isId))];
      if (!table || wanted.length === 0) return [];
      const query = activeByIdOnly(executor(table).whereIn(`${table}.id`, wanted), table);
      await applyVisibility(registries.visibilityFilters, ctx, entity, query, `${table}.id`, executor);
      const visible = new Set(await selectRows<string>(query.pluck(`${table}.id`)));
      return wanted.filter((id) => visible.has(id));
    },
    productIdsByNumbers: (executor, productNumbers) => productsNumbered(executor, [...new Set(productNumbers)], false),
    async entityVersionId(executor, entity, id) {
      const table = CATALOG_TABLES[entity];
      if (!table || !isId(id)) return null;
      const row = await selectRow<{ version_id: string }>(executor(table).where({ id }).first('version_id'));
      return row ? String(row.version_id) : null;
    },
    variants: variantCatalog.variants,
    propertySimilarProducts: variantCatalog.propertySimilarProducts,
    visibilityChanged,
    visibilityVersion,
  };

  const rules: HostRuntime['rules'] = {
    // The visibility version read with the request's context is the root connection's; a
    // transaction reads its own (it may have written rules).
    matchingRuleIds: (executor, ctx) =>
      ruleEngine.matchingRuleIds(ctx, executor, executor === internals.db ? requestVisibilityVersion(ctx) : undefined),
    exists: (executor, ruleId) => ruleEngine.exists(executor, ruleId),
  };

  const prices: HostRuntime['prices'] = {
    addPriceProvider: (provider) => void registries.priceProviders.push(provider),
    addPriceGate: (gate) => void registries.priceGates.push(gate),
    calculate: (executor, ctx, product, quantity) =>
      calculatePrice(registries.priceProviders, ctx, product, quantity, executor),
    calculateMany: (executor, ctx, items) => calculatePrices(registries.priceProviders, ctx, items, executor),
  };

  const adminRoutes = ADMIN_ENTITIES.flatMap((entity) => entityRoutes(internals, entity, visibilityChanged));
  return {
    catalog,
    rules,
    prices,
    storeRoutes: catalogStoreRoutes(internals, catalog),
    adminRoutes,
    visibleProductsInReadTransaction: (executor, ctx, ids) => visibleProducts(ctx, ids, executor, true),
  };
}
