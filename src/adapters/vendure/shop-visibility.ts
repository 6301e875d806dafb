import type { OrderInterceptor, RequestContext } from '@vendure/core';
import type { StoreContext } from '../../host/contract.js';
import { catalogVisibility, type CatalogVisibility } from './catalog.js';
import type { AdapterState } from './state.js';

/**
 * Partial assortments in Vendure's own Shop API. The plugin's visibility filters decide per
 * request (the caller's Vendure session, or a plugin context token) which variants and products
 * are hidden; the adapter applies that to:
 * - `products`: an `id notIn` filter ANDed into the list options of ProductService.findAll;
 * - `product(id|slug)`: ProductService.findOne / findOneBySlug answer nothing for a hidden product;
 * - `collection { productVariants }`: the same `id notIn` filter (hidden variants) ANDed into the
 *   list options of ProductVariantService.getVariantsByCollectionId;
 * - `search` (DefaultSearchPlugin): `productVariantId NOT IN (…)` added where the search strategy
 *   applies its own term and filters (items, totals, facet and collection counts alike);
 * - `addItemToOrder` / `adjustOrderLine`: an OrderInterceptor refuses a hidden variant.
 * Only Shop API requests are narrowed; the Admin API sees everything.
 */
interface ListOptions {
  filter?: Record<string, unknown>;
  filterOperator?: string;
}
/** The parts of Vendure's ProductService the adapter wraps. */
interface ProductServiceLike {
  findAll(ctx: RequestContext, options?: ListOptions, ...rest: unknown[]): Promise<unknown>;
  findOne(ctx: RequestContext, ...rest: unknown[]): Promise<{ id: unknown } | undefined>;
  findOneBySlug(ctx: RequestContext, ...rest: unknown[]): Promise<{ id: unknown } | undefined>;
}
/** The part of Vendure's ProductVariantService the adapter wraps (collection variant listings). */
interface VariantServiceLike {
  getVariantsByCollectionId(ctx: RequestContext, collectionId: unknown, options?: ListOptions, ...rest: unknown[]): Promise<unknown>;
}
/** The TypeORM query builder of the search strategy, as far as the adapter adds to it. */
interface WhereBuilder {
  andWhere(where: string, parameters?: Record<string, unknown>): unknown;
}
interface SearchServiceLike {
  search(ctx: RequestContext, input: unknown, enabledOnly?: boolean): Promise<unknown>;
  facetValues(ctx: RequestContext, input: unknown, enabledOnly?: boolean): Promise<unknown>;
  collections(ctx: RequestContext, input: unknown, enabledOnly?: boolean): Promise<unknown>;
  _searchStrategy?: { applyTermAndFilters?(ctx: RequestContext, qb: WhereBuilder, input: unknown): unknown };
}

export interface ShopVisibility {
  /** Hidden variants and products for a Vendure request context (null: nothing hidden, or not the Shop API). */
  of(ctx: RequestContext): Promise<CatalogVisibility | null>;
  interceptor: OrderInterceptor;
  /** Wraps Vendure's services; answers the function that takes the wrappers off again (at shutdown). */
  install(services: { productService: unknown; variantService: unknown; searchService: unknown }): () => void;
}

/** List options with `id notIn hidden` ANDed to the caller's own filter (kept whole, whatever its operator). */
function withoutIds(options: ListOptions | undefined, hidden: Set<string> | undefined): ListOptions | undefined {
  if (!hidden || hidden.size === 0) return options;
  const notHidden = { id: { notIn: [...hidden] } };
  const filter = options?.filter;
  const userBlock = filter && Object.keys(filter).length > 0 ? (options?.filterOperator === 'OR' ? { _or: [filter] } : { _and: [filter] }) : null;
  return { ...options, filter: userBlock ? { _and: [userBlock, notHidden] } : notHidden, filterOperator: undefined };
}

export function shopVisibility(state: AdapterState, storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>): ShopVisibility {
  const byContext = new WeakMap<RequestContext, Promise<CatalogVisibility | null>>();
  /** What `search` computed, for the synchronous strategy hook of the same request. */
  const resolved = new WeakMap<RequestContext, CatalogVisibility | null>();

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

  const refusal = async (ctx: RequestContext, variantId: unknown): Promise<string | void> => {
    const visibility = await of(ctx);
    if (visibility?.hiddenVariantIds.has(String(variantId))) return 'SUITE__PRODUCT_NOT_VISIBLE: this product is not available to you.';
  };

  const interceptor: OrderInterceptor = {
    willAddItemToOrder: (ctx, _order, input) => refusal(ctx, input.productVariant.id),
    willAdjustOrderLine: (ctx, _order, input) => refusal(ctx, input.orderLine.productVariantId),
  };

  function install({ productService, variantService, searchService }: { productService: unknown; variantService: unknown; searchService: unknown }): () => void {
    // What was there before each wrapper: Vendure may hand the next app of this process the same
    // service objects (tests boot shops one after another), which must not call a stopped adapter.
    const restores: Array<() => void> = [];
    const remember = <T extends object>(target: T, key: keyof T & string) => {
      const own = Object.getOwnPropertyDescriptor(target, key);
      restores.push(() => {
        if (own) Object.defineProperty(target, key, own);
        else delete target[key];
      });
    };
    const products = productService as ProductServiceLike;
    for (const key of ['findAll', 'findOne', 'findOneBySlug'] as const) remember(products, key);
    const findAll = products.findAll.bind(products);
    const findOne = products.findOne.bind(products);
    const findOneBySlug = products.findOneBySlug.bind(products);
    products.findAll = async (ctx: RequestContext, options?: ListOptions, ...rest: unknown[]) => findAll(ctx, withoutIds(options, (await of(ctx))?.hiddenProductIds), ...rest);
    const variants = variantService as VariantServiceLike;
    remember(variants, 'getVariantsByCollectionId');
    const byCollection = variants.getVariantsByCollectionId.bind(variants);
    variants.getVariantsByCollectionId = async (ctx: RequestContext, collectionId: unknown, options?: ListOptions, ...rest: unknown[]) =>
      byCollection(ctx, collectionId, withoutIds(options, (await of(ctx))?.hiddenVariantIds), ...rest);
    const hideHidden = async (ctx: RequestContext, product: { id: unknown } | undefined) => {
      if (!product) return product;
      const visibility = await of(ctx);
      return visibility?.hiddenProductIds.has(String(product.id)) ? undefined : product;
    };
    products.findOne = async (ctx: RequestContext, ...rest: unknown[]) => hideHidden(ctx, await findOne(ctx, ...rest));
    products.findOneBySlug = async (ctx: RequestContext, ...rest: unknown[]) => hideHidden(ctx, await findOneBySlug(ctx, ...rest));

    const search = searchService as SearchServiceLike | null;
    const strategy = search?._searchStrategy;
    if (search && strategy?.applyTermAndFilters) {
      for (const method of ['search', 'facetValues', 'collections'] as const) {
        remember(search, method);
        const original = search[method].bind(search);
        search[method] = async (ctx: RequestContext, input: unknown, enabledOnly?: boolean) => {
          resolved.set(ctx, await of(ctx));
          return original(ctx, input, enabledOnly);
        };
      }
      remember(strategy, 'applyTermAndFilters');
      const apply = strategy.applyTermAndFilters.bind(strategy);
      strategy.applyTermAndFilters = (ctx: RequestContext, qb: WhereBuilder, input: unknown) => {
        const result = apply(ctx, qb, input);
        const hidden = resolved.get(ctx)?.hiddenVariantIds;
        if (hidden && hidden.size > 0) qb.andWhere('si.productVariantId NOT IN (:...suiteHiddenVariantIds)', { suiteHiddenVariantIds: [...hidden] });
        return result;
      };
    } else state.log.warn('Suite B2B: no DefaultSearchPlugin search strategy found; Shop API search is not narrowed by partial assortments');
    return () => restores.splice(0).reverse().forEach((restore) => restore());
  }

  return { of, interceptor, install };
}
