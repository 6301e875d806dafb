import 'reflect-metadata';
import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import {
  Collection,
  CollectionService,
  CollectionTranslation,
  Ctx,
  Product,
  ProductService,
  ProductVariant,
  ProductVariantService,
  Relations,
  UserInputError,
  type OrderInterceptor,
  type RelationPaths,
  type RequestContext,
} from '@vendure/core';
import type { StoreContext } from '../../contract/index.js';
import { selectRows } from '../../lib/db.js';
import { column, selectAs, table } from './vendure-schema.js';
import { catalogVisibility, type CatalogVisibility } from './catalog.js';
import type { AdapterState } from './state.js';

/**
 * Partial assortments in Vendure's own Shop API, through Vendure's extension points. The plugin's
 * visibility filters decide per request (the caller's Vendure session, or a plugin context token)
 * which variants and products are hidden; the adapter applies that to:
 * - `products`, `product(id|slug)`: Shop API resolvers of the plugin (`shopApiExtensions`) that
 *   override Vendure's own — Vendure's guard (`enabled`) plus `id notIn` the hidden products,
 *   ANDed to the caller's own filter; a hidden product answers null;
 * - `collection { productVariants }`: a `Collection.productVariants` field resolver of the plugin,
 *   the same with the hidden variants;
 * - `search` (DefaultSearchPlugin): the search strategy the shop configures
 *   (`SuiteB2BSearchStrategy`, search-strategy.ts): items, totals, facet and collection counts;
 * - `addItemToOrder` / `adjustOrderLine`: an OrderInterceptor refuses a hidden variant.
 * Only Shop API requests are narrowed; the Admin API sees everything.
 */
interface ListOptions {
  filter?: Record<string, unknown>;
  filterOperator?: string;
}

export interface ShopVisibility {
  /** Hidden variants and products for a Vendure request context (null: nothing hidden, or not the Shop API). */
  of(ctx: RequestContext): Promise<CatalogVisibility | null>;
  /** Vendure ids of the collections (categories) the caller may not see (null: none, or not the Shop API). */
  hiddenCollections(ctx: RequestContext): Promise<Set<string> | null>;
  /** Whether a collection named by id or slug (as `search` input names it) is hidden from the caller. */
  collectionHidden(ctx: RequestContext, ref: { id?: string | number | null; slug?: string | null }): Promise<boolean>;
  interceptor: OrderInterceptor;
}

/**
 * The visibility of the adapter configured last in this process (one adapter per process, see
 * plugin.ts): Vendure builds the plugin's resolvers and the shop's search strategy before or apart
 * from the adapter's configuration, so they read it from here.
 */
let active: ShopVisibility | null = null;

export function activeShopVisibility(): ShopVisibility | null {
  return active;
}

/**
 * List options with a guard ANDed to the caller's own filter (kept whole, whatever its operator), as
 * Vendure's Shop API resolvers add `enabled`; the guard here also holds `id notIn hidden`.
 */
function guarded(
  options: ListOptions | undefined,
  hidden: Set<string> | undefined,
  base: Record<string, unknown> = { enabled: { eq: true } },
): ListOptions {
  const guard: Record<string, unknown> = { ...base };
  if (hidden && hidden.size > 0) guard.id = { notIn: [...hidden] };
  const filter = options?.filter;
  if (!filter || Object.keys(filter).length === 0) return { ...options, filter: guard, filterOperator: undefined };
  const userBlock = options?.filterOperator === 'OR' ? { _or: [filter] } : { _and: [filter] };
  return { ...options, filter: { _and: [userBlock, guard] }, filterOperator: undefined };
}

export function shopVisibility(
  state: AdapterState,
  storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
): ShopVisibility {
  const byContext = new WeakMap<RequestContext, Promise<CatalogVisibility | null>>();

  function of(ctx: RequestContext): Promise<CatalogVisibility | null> {
    let pending = byContext.get(ctx);
    if (!pending) {
      pending = (async () => {
        const storeCtx = await storeContextOf(ctx);
        return storeCtx ? catalogVisibility(state, storeCtx) : null;
      })();
      byContext.set(ctx, pending);
    }
    return pending;
  }

  const collectionsByContext = new WeakMap<RequestContext, Promise<Set<string> | null>>();
  /** Every public collection but the root, less those the plugin's category filters let the caller see. */
  function hiddenCollections(ctx: RequestContext): Promise<Set<string> | null> {
    let pending = collectionsByContext.get(ctx);
    if (!pending) {
      pending = (async () => {
        const storeCtx = await storeContextOf(ctx);
        if (!storeCtx) return null;
        const all = await selectRows<{ id: string | number }>(
          state
            .db(table(Collection))
            .where(column(Collection, 'isRoot'), false)
            .where(column(Collection, 'isPrivate'), false)
            .select(selectAs(Collection, undefined, 'id')),
        );
        const pluginIds = all.map((row) => state.ids.toPlugin(row.id));
        const visible = new Set(
          await state.runtime.catalog.visibleEntityIds(state.db, storeCtx, 'category', pluginIds),
        );
        const hidden = all.filter((_row, index) => !visible.has(pluginIds[index]!)).map((row) => String(row.id));
        return hidden.length > 0 ? new Set(hidden) : null;
      })();
      collectionsByContext.set(ctx, pending);
    }
    return pending;
  }

  async function collectionHidden(ctx: RequestContext, ref: { id?: string | number | null; slug?: string | null }) {
    if (ref.id == null && !ref.slug) return false;
    const hidden = await hiddenCollections(ctx);
    if (!hidden) return false;
    if (ref.id != null && hidden.has(String(ref.id))) return true;
    if (!ref.slug) return false;
    const named = await selectRows<{ baseId: string | number }>(
      state
        .db(table(CollectionTranslation))
        .where(column(CollectionTranslation, 'slug'), ref.slug)
        .select(`${column(CollectionTranslation, 'base')} as baseId`),
    );
    return named.some((row) => hidden.has(String(row.baseId)));
  }

  const refusal = async (ctx: RequestContext, variantId: unknown): Promise<string | void> => {
    const visibility = await of(ctx);
    if (visibility?.hiddenVariantIds.has(String(variantId)))
      return 'SUITE__PRODUCT_NOT_VISIBLE: this product is not available to you.';
  };

  const interceptor: OrderInterceptor = {
    willAddItemToOrder: (ctx, _order, input) => refusal(ctx, input.productVariant.id),
    willAdjustOrderLine: (ctx, _order, input) => refusal(ctx, input.orderLine.productVariantId),
  };

  active = { of, hiddenCollections, collectionHidden, interceptor };
  return active;
}

const hiddenOf = async (ctx: RequestContext) => (await active?.of(ctx)) ?? null;

/**
 * Vendure's Shop API `products` and `product` with the partial assortment applied: the same service
 * calls and guards as Vendure's ShopProductsResolver (enabled products only, private facet values
 * left out), plus the hidden products.
 */
class SuiteB2BShopProductsResolver {
  constructor(private readonly productService: ProductService) {}

  async products(ctx: RequestContext, args: { options?: ListOptions }, relations: RelationPaths<Product>) {
    const visibility = await hiddenOf(ctx);
    return this.productService.findAll(ctx, guarded(args.options, visibility?.hiddenProductIds) as never, relations);
  }

  async product(ctx: RequestContext, args: { id?: string; slug?: string }, relations: RelationPaths<Product>) {
    let product: Product | undefined;
    if (args.id) product = await this.productService.findOne(ctx, args.id, relations);
    else if (args.slug) product = await this.productService.findOneBySlug(ctx, args.slug, relations);
    else throw new UserInputError('error.product-id-or-slug-must-be-provided');
    if (!product || product.enabled === false) return undefined;
    const visibility = await hiddenOf(ctx);
    if (visibility?.hiddenProductIds.has(String(product.id))) return undefined;
    product.facetValues = product.facetValues?.filter((value) => !value.facet.isPrivate);
    return product;
  }
}

/**
 * Vendure's Shop API `collections` and `collection(id|slug)` with the partial assortment of
 * categories applied: Vendure's guard (public collections only) plus the collections hidden from the
 * caller; a hidden `collection` answers null. A collection's `children` and `parent` leave the
 * hidden ones out too (SuiteB2BCollectionFieldsResolver).
 */
class SuiteB2BShopCollectionsResolver {
  constructor(private readonly collectionService: CollectionService) {}

  async collections(ctx: RequestContext, args: { options?: ListOptions }, relations: RelationPaths<Collection>) {
    const hidden = (await active?.hiddenCollections(ctx)) ?? undefined;
    return this.collectionService.findAll(
      ctx,
      guarded(args.options, hidden, { isPrivate: { eq: false } }) as never,
      relations,
    );
  }

  async collection(ctx: RequestContext, args: { id?: string; slug?: string }, relations: RelationPaths<Collection>) {
    let collection: Collection | undefined;
    if (args.id) {
      collection = await this.collectionService.findOne(ctx, args.id, relations);
      if (args.slug && collection && collection.slug !== args.slug)
        throw new UserInputError('error.collection-id-slug-mismatch');
    } else if (args.slug) collection = await this.collectionService.findOneBySlug(ctx, args.slug, relations);
    else throw new UserInputError('error.collection-id-or-slug-must-be-provided');
    if (!collection || collection.isPrivate) return undefined;
    if ((await active?.hiddenCollections(ctx))?.has(String(collection.id))) return undefined;
    return collection;
  }
}

/**
 * Vendure's Shop API `Collection` fields without what is hidden from the caller: `productVariants`
 * (enabled variants of the collection) without the hidden variants, `children` and `parent` without
 * the hidden collections (besides Vendure's private ones, as Vendure's own resolver does).
 */
class SuiteB2BCollectionFieldsResolver {
  constructor(
    private readonly productVariantService: ProductVariantService,
    private readonly collectionService: CollectionService,
  ) {}

  async children(ctx: RequestContext, collection: Collection) {
    const children = collection.children
      ? [...collection.children].sort((a, b) => a.position - b.position)
      : await this.collectionService.getChildren(ctx, collection.id);
    const hidden = await active?.hiddenCollections(ctx);
    return children.filter((child) => !child.isPrivate && !hidden?.has(String(child.id)));
  }

  async parent(ctx: RequestContext, collection: Collection) {
    const parent = collection.parent ?? (await this.collectionService.getParent(ctx, collection.id));
    if (!parent || parent.isPrivate || (await active?.hiddenCollections(ctx))?.has(String(parent.id))) return undefined;
    return parent;
  }

  async productVariants(
    ctx: RequestContext,
    collection: Collection,
    args: { options?: ListOptions },
    relations: RelationPaths<ProductVariant>,
  ) {
    const visibility = await hiddenOf(ctx);
    return this.productVariantService.getVariantsByCollectionId(
      ctx,
      collection.id,
      guarded(args.options, visibility?.hiddenVariantIds) as never,
      relations,
    );
  }
}

// Decorators applied as functions (tsx/esbuild emit no decorator metadata; see plugin.ts).
type Decorate = (target: object, key: string, descriptor: PropertyDescriptor) => void;
function method(
  target: { prototype: object },
  key: string,
  decorators: Decorate[],
  params: Array<(target: object, key: string, index: number) => void>,
): void {
  const descriptor = Object.getOwnPropertyDescriptor(target.prototype, key)!;
  params.forEach((param, index) => param(target.prototype, key, index));
  for (const decorate of decorators) decorate(target.prototype, key, descriptor);
}
Reflect.defineMetadata('design:paramtypes', [ProductService], SuiteB2BShopProductsResolver);
for (const key of ['products', 'product'])
  method(
    SuiteB2BShopProductsResolver,
    key,
    [Query()],
    [Ctx(), Args(), Relations({ entity: Product, omit: ['variants', 'assets'] })],
  );
Resolver()(SuiteB2BShopProductsResolver);
Reflect.defineMetadata('design:paramtypes', [CollectionService], SuiteB2BShopCollectionsResolver);
for (const key of ['collections', 'collection'])
  method(
    SuiteB2BShopCollectionsResolver,
    key,
    [Query()],
    [
      Ctx(),
      Args(),
      Relations({
        entity: Collection,
        omit: ['productVariants', 'assets', 'parent.productVariants', 'children.productVariants'],
      }),
    ],
  );
Resolver()(SuiteB2BShopCollectionsResolver);
Reflect.defineMetadata(
  'design:paramtypes',
  [ProductVariantService, CollectionService],
  SuiteB2BCollectionFieldsResolver,
);
method(
  SuiteB2BCollectionFieldsResolver,
  'productVariants',
  [ResolveField()],
  [Ctx(), Parent(), Args(), Relations({ entity: ProductVariant, omit: ['assets'] })],
);
for (const key of ['children', 'parent'])
  method(SuiteB2BCollectionFieldsResolver, key, [ResolveField()], [Ctx(), Parent()]);
Resolver('Collection')(SuiteB2BCollectionFieldsResolver);

/** The Shop API resolvers the plugin registers (`shopApiExtensions`): they override Vendure's own of the same fields. */
export const SHOP_VISIBILITY_RESOLVERS = [
  SuiteB2BShopProductsResolver,
  SuiteB2BShopCollectionsResolver,
  SuiteB2BCollectionFieldsResolver,
];
