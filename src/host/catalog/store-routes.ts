import type { Knex } from 'knex';
import { criteriaSchema, filtersName, searchByCriteria, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import { CURSOR_PROPERTY } from '../../lib/keyset.js';
import { readInt, selectRow, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { idParam, objectSchema, pathParams } from '../../lib/schemas.js';
import { PRODUCT_LISTING_ALIAS, SEARCH_RESULT_ALIAS, storeList, storeListResponse } from '../../lib/store-list.js';
import type { RouteInput } from '../../lib/routes.js';
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- in scope so the build's declaration of catalogStoreRoutes can name its inferred route types (TS4058)
import type { validatedAs } from '../../lib/routes.js';
import { defineStoreRoute, type CatalogEntity, type StoreContext } from '../../contract/index.js';

/** A handler's input once the route's schemas have validated it. */
type Input<B = unknown, P = unknown, Q = unknown> = RouteInput<StoreContext, B, Q, P>;
import type { HostInternals } from '../internals.js';
import {
  categoryView,
  categoryViewSchema,
  cmsPageView,
  landingPageViewSchema,
  navigationTreeSchema,
  productViewSchema,
  productViews,
  type NavigationNodeView,
} from './catalog-views.js';
import {
  CATALOG_TABLES,
  categoryIdsColumn,
  PRODUCT_COLUMNS,
  tierPricesColumn,
  tierPricesOfRows,
  toProductRecords,
  type ProductRow,
} from './product-repository.js';
import { moneyFiltersToMinor, productCriteriaSpec } from './product-search.js';
import { applyVisibility } from './visibility.js';
import { priceRefusal } from '../../lib/price-providers.js';
import type { HostCatalog } from './index.js';

const PRICE_FIELDS: ReadonlySet<string> = new Set(['price']);

export const categoryCriteriaSpec: CriteriaSpec = {
  fields: {
    id: { column: 'categories.id', type: 'id' },
    parentId: { column: 'categories.parent_id', type: 'id' },
    name: { column: 'categories.name', type: 'string' },
    position: { column: 'categories.position', type: 'number' },
    active: { column: 'categories.active', type: 'boolean' },
    createdAt: { column: 'categories.created_at', type: 'date' },
  },
  termColumns: ['categories.name'],
  defaultSort: [
    { column: 'categories.position', order: 'asc' },
    { column: 'categories.name', order: 'asc' },
    { column: 'categories.id', order: 'asc' },
  ],
  idColumn: 'categories.id',
};

const productCriteriaBody = criteriaSchema(Object.keys(productCriteriaSpec.fields), { cursor: CURSOR_PROPERTY });
const searchBody = {
  ...criteriaSchema<{ search: string }>(Object.keys(productCriteriaSpec.fields), {
    search: { type: 'string', minLength: 1, maxLength: 255 },
    cursor: CURSOR_PROPERTY,
  }),
  required: ['search'],
};
const categoryCriteriaBody = criteriaSchema(Object.keys(categoryCriteriaSpec.fields), { cursor: CURSOR_PROPERTY });
const productList = storeListResponse(productViewSchema);
const productListing = storeListResponse(productViewSchema, { apiAlias: PRODUCT_LISTING_ALIAS });

/** What the catalog's Store API handlers read with: the host, its catalog, and the product columns of a priced view. */
interface CatalogReader {
  internals: HostInternals;
  catalog: HostCatalog;
  db: HostInternals['db'];
  registries: HostInternals['registries'];
  /** The columns of product rows that `views` turns into priced views: with their category ids and tier prices, so no further query reads them. */
  viewColumns: Array<string | Knex.Raw>;
}

/** Active rows the context may see. Wrapped in an object: a query builder is thenable, so returning it from an async function would run it. */
async function visibleQuery(
  reader: CatalogReader,
  ctx: StoreContext,
  entity: CatalogEntity,
  executor: Executor = reader.db,
): Promise<{ query: Knex.QueryBuilder }> {
  const table = CATALOG_TABLES[entity];
  const query = executor(table).where(`${table}.active`, true);
  await applyVisibility(reader.internals.registries.visibilityFilters, ctx, entity, query, `${table}.id`, executor);
  return { query };
}

/** (3.5) What plugins add to a product's answer (`catalog.addProductExtension`), as `extensions` keyed by their names; nothing without them. */
async function productExtensions(
  reader: CatalogReader,
  ctx: StoreContext,
  productId: string,
): Promise<{ extensions?: Record<string, Record<string, unknown>> }> {
  const extensions: Record<string, Record<string, unknown>> = {};
  for (const extension of reader.internals.registries.productExtensions) {
    const value = (await extension.load(reader.db, ctx, [productId])).get(productId);
    if (value) extensions[extension.name] = value;
  }
  return Object.keys(extensions).length ? { extensions } : {};
}

async function views(reader: CatalogReader, ctx: StoreContext, rows: ProductRow[], withTiers = false) {
  const { registries, db } = reader;
  return productViews(registries, ctx, await toProductRecords(db, rows), db, {
    withTiers,
    tiers: tierPricesOfRows(rows),
  });
}

/**
 * A filter or sort on the price reveals what a price gate withholds (contract 3.6): such a context
 * gets the gate's refusal (401 SUITE__LOGIN_REQUIRED for a closed shop's guests) instead.
 */
async function refuseWithheldPriceCriteria(
  reader: CatalogReader,
  ctx: StoreContext,
  criteria: Criteria,
): Promise<void> {
  const onPrice =
    filtersName(criteria.filter, PRICE_FIELDS) || (criteria.sort ?? []).some((s) => PRICE_FIELDS.has(s.field));
  if (!onPrice) return;
  const refusal = await priceRefusal(reader.registries.priceGates, reader.db, ctx);
  if (refusal) throw refusal;
}

/**
 * Product listings. Their total is kept for a few seconds per visibility version, rule set and
 * narrowing (`scope`), so a visibility filter costs only on the page query; the page is always live.
 */
async function listProducts(
  reader: CatalogReader,
  ctx: StoreContext,
  criteria: Criteria,
  scope: string,
  narrow?: (query: Knex.QueryBuilder) => void,
  apiAlias = SEARCH_RESULT_ALIAS,
) {
  const { internals, catalog, db } = reader;
  await refuseWithheldPriceCriteria(reader, ctx, criteria);
  const { query } = await visibleQuery(reader, ctx, 'product');
  narrow?.(query);
  const totalCacheKey = `product:${scope}:${ctx.salesChannel.id}:${await catalog.visibilityVersion(db, ctx)}:${(await ctx.ruleIds()).join(',')}`;
  const page = await searchByCriteria<ProductRow>(
    query,
    { ...criteria, filter: moneyFiltersToMinor(criteria.filter, ['price'], ctx.salesChannel.currencyPrecision) },
    productCriteriaSpec,
    (qb) => qb.select(reader.viewColumns),
    internals.config.listingTotalCacheSeconds > 0
      ? { totalCacheKey, totalCacheTtlMs: internals.config.listingTotalCacheSeconds * 1000 }
      : {},
  );
  return storeList(await views(reader, ctx, page.rows), page, apiAlias);
}

/** Every active category the context may see (not pruned by ancestors: navigation prunes by walking from a root). */
async function visibleCategories(reader: CatalogReader, ctx: StoreContext) {
  const rows: Array<Record<string, unknown>> = await (
    await visibleQuery(reader, ctx, 'category')
  ).query.select('categories.id', 'categories.parent_id', 'categories.name', 'categories.position');
  const children = new Map<string | null, Array<Record<string, unknown>>>();
  for (const row of rows) {
    const parent = (row.parent_id as string | null) ?? null;
    children.set(parent, [...(children.get(parent) ?? []), row]);
  }
  for (const list of children.values())
    list.sort(
      (a, b) =>
        readInt(a.position) - readInt(b.position) ||
        String(a.name).localeCompare(String(b.name)) ||
        String(a.id).localeCompare(String(b.id)),
    );
  return { ids: new Set(rows.map((r) => String(r.id))), children };
}

async function visibleRow(
  reader: CatalogReader,
  ctx: StoreContext,
  entity: CatalogEntity,
  id: string,
  label: string,
): Promise<Record<string, unknown>> {
  const table = CATALOG_TABLES[entity];
  const row = await selectRow<Record<string, unknown>>(
    (await visibleQuery(reader, ctx, entity)).query.where(`${table}.id`, id).first(`${table}.*`),
  );
  if (!row) throw Errors.notFound(label, id);
  return row;
}

/** A CMS page; product-listing sections with `productIds` get the products the context may see. */
async function cmsPage(reader: CatalogReader, ctx: StoreContext, cmsPageId: unknown) {
  const { db, catalog, registries } = reader;
  if (typeof cmsPageId !== 'string') return null;
  const row = await selectRow<Record<string, unknown>>(db('cms_pages').where({ id: cmsPageId }).first());
  if (!row) return null;
  const page = cmsPageView(row);
  const sections = [];
  for (const section of page.sections) {
    if (section.type === 'product-listing' && Array.isArray(section.productIds)) {
      const ids = section.productIds.filter((v): v is string => typeof v === 'string');
      const products = await catalog.visibleProducts(db, ctx, ids);
      sections.push({ ...section, products: await productViews(registries, ctx, products, db) });
    } else sections.push(section);
  }
  return { ...page, sections };
}

/** The ids of a visible category and of its visible subcategories, at any depth. */
function categorySubtree(children: Map<string | null, Array<Record<string, unknown>>>, categoryId: string): string[] {
  const subtree: string[] = [];
  const pending = [categoryId];
  while (pending.length) {
    const current = pending.pop()!;
    subtree.push(current);
    for (const child of children.get(current) ?? []) pending.push(String(child.id));
  }
  return subtree;
}

/** Listing, reading and searching products, and a category's products. */
function productRoutes(reader: CatalogReader) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/product',
      operationId: 'listProducts',
      summary: 'Products the caller may see, by criteria, priced for the caller.',
      tags: ['Catalog'],
      auth: 'public',
      permission: null,
      schemas: { body: productCriteriaBody, bodyName: 'ProductCriteria', responses: { 200: productList } },
      handler: async ({ ctx, body }) => listProducts(reader, ctx, body, 'all'),
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/product/{productId}',
      operationId: 'readProduct',
      summary: 'One product with its tier prices; 404 when it is inactive or hidden from the caller.',
      tags: ['Catalog'],
      auth: 'public',
      permission: null,
      schemas: { params: pathParams('productId'), responses: { 200: productViewSchema } },
      async handler({ ctx, params }: Input<unknown, { productId: string }>) {
        const row = await selectRow<ProductRow>(
          (await visibleQuery(reader, ctx, 'product')).query
            .where('products.id', params.productId)
            .first(reader.viewColumns),
        );
        if (!row) throw Errors.notFound('product', params.productId);
        const [view] = await views(reader, ctx, [row], true);
        return { ...view!, ...(await productExtensions(reader, ctx, params.productId)) };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/search',
      operationId: 'searchProducts',
      summary: 'Products whose name or number contains the search term, by criteria.',
      tags: ['Catalog'],
      auth: 'public',
      permission: null,
      schemas: { body: searchBody, responses: { 200: productListing } },
      async handler({ ctx, body }) {
        const { search, ...criteria } = body;
        if (search.trim() === '')
          throw Errors.badRequest('SUITE__INVALID_INPUT', 'The search term is empty.', { pointer: '/search' });
        return listProducts(reader, ctx, { ...criteria, term: search }, 'all', undefined, PRODUCT_LISTING_ALIAS);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/product-listing/{categoryId}',
      operationId: 'listCategoryProducts',
      summary: 'Products of a category and its visible subcategories, by criteria.',
      tags: ['Catalog'],
      auth: 'public',
      permission: null,
      schemas: { params: pathParams('categoryId'), body: productCriteriaBody, responses: { 200: productListing } },
      async handler({ ctx, params, body }: Input<Criteria, { categoryId: string }>) {
        const { ids, children } = await visibleCategories(reader, ctx);
        if (!ids.has(params.categoryId)) throw Errors.notFound('category', params.categoryId);
        const subtree = categorySubtree(children, params.categoryId);
        return listProducts(
          reader,
          ctx,
          body,
          `category:${params.categoryId}`,
          (query) => {
            query.whereExists((q) => {
              q.select(1)
                .from('product_categories')
                .whereRaw('?? = ??', ['product_categories.product_id', 'products.id'])
                .whereIn('product_categories.category_id', subtree);
            });
          },
          PRODUCT_LISTING_ALIAS,
        );
      },
    }),
  ];
}

/** Categories, the navigation tree and landing pages. */
function categoryRoutes(reader: CatalogReader) {
  return [
    defineStoreRoute({
      method: 'GET',
      path: '/category/{categoryId}',
      operationId: 'readCategory',
      summary: 'One category with its CMS page; 404 when it is inactive or hidden from the caller.',
      tags: ['Catalog'],
      auth: 'public',
      permission: null,
      schemas: { params: pathParams('categoryId'), responses: { 200: categoryViewSchema } },
      async handler({ ctx, params }: Input<unknown, { categoryId: string }>) {
        const row = await visibleRow(reader, ctx, 'category', params.categoryId, 'category');
        return { ...categoryView(row), cmsPage: await cmsPage(reader, ctx, row.cms_page_id) };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/category',
      operationId: 'listCategories',
      summary: 'Categories the caller may see, by criteria.',
      tags: ['Catalog'],
      auth: 'public',
      permission: null,
      schemas: {
        body: categoryCriteriaBody,
        bodyName: 'CategoryCriteria',
        responses: { 200: storeListResponse(categoryViewSchema) },
      },
      async handler({ ctx, body }) {
        const page = await searchByCriteria<Record<string, unknown>>(
          (await visibleQuery(reader, ctx, 'category')).query,
          body,
          categoryCriteriaSpec,
          (qb) => qb.select('categories.*'),
        );
        return storeList(page.rows.map(categoryView), page);
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/navigation/{rootId}',
      operationId: 'readNavigation',
      summary: 'The tree of visible categories below a root (`main-navigation`: the top level), `depth` levels deep.',
      tags: ['Catalog'],
      auth: 'public',
      permission: null,
      schemas: {
        params: objectSchema({ rootId: { anyOf: [idParam, { const: 'main-navigation' }] } }, ['rootId']),
        query: objectSchema({ depth: { type: 'integer', minimum: 1, maximum: 10, default: 2 } }),
        responses: { 200: navigationTreeSchema },
      },
      async handler({ ctx, params, query }: Input<unknown, { rootId: string }, { depth?: number }>) {
        const { ids, children } = await visibleCategories(reader, ctx);
        const rootId = params.rootId === 'main-navigation' ? null : params.rootId;
        if (rootId !== null && !ids.has(rootId)) throw Errors.notFound('category', rootId);
        const depth = Number(query.depth ?? 2);
        const build = (parentId: string | null, level: number): NavigationNodeView[] =>
          (children.get(parentId) ?? []).map((row) => ({
            id: String(row.id),
            parentId: (row.parent_id as string | null) ?? null,
            name: String(row.name),
            position: readInt(row.position),
            level,
            childCount: children.get(String(row.id))?.length ?? 0,
            children: level < depth ? build(String(row.id), level + 1) : [],
          }));
        return build(rootId, 1);
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/landing-page/{landingPageId}',
      operationId: 'readLandingPage',
      summary: 'A landing page with its CMS sections; 404 when it is inactive or hidden from the caller.',
      tags: ['Catalog'],
      auth: 'public',
      permission: null,
      schemas: { params: pathParams('landingPageId'), responses: { 200: landingPageViewSchema } },
      async handler({ ctx, params }: Input<unknown, { landingPageId: string }>) {
        const row = await visibleRow(reader, ctx, 'landing_page', params.landingPageId, 'landing page');
        return {
          id: String(row.id),
          versionId: String(row.version_id),
          name: String(row.name),
          url: String(row.url),
          active: true,
          cmsPage: await cmsPage(reader, ctx, row.cms_page_id),
        };
      },
    }),
  ];
}

export function catalogStoreRoutes(internals: HostInternals, catalog: HostCatalog) {
  const db = internals.db;
  const reader: CatalogReader = {
    internals,
    catalog,
    db,
    registries: internals.registries,
    viewColumns: [...PRODUCT_COLUMNS, categoryIdsColumn(db), tierPricesColumn(db)],
  };
  return [...productRoutes(reader), ...categoryRoutes(reader)];
}
