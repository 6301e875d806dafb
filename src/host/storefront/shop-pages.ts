import { Errors } from '../../lib/errors.js';
import { fromMinor } from '../../lib/money.js';
import { isId } from '../../lib/ids.js';
import type { StoreContext, StorefrontPage } from '../../contract/index.js';
import { priceRefusal } from '../../lib/price-providers.js';
import type { AnswerOf } from '../../lib/routes.js';
import { HOST_STORE_ROUTES, wholeNumber, type PageKit, type PageResult } from './page-kit.js';

/** Products per listing page. */
export const LISTING_PAGE_SIZE = 12;
const NAVIGATION_DEPTH = 3;

/**
 * The host's Store API answers the pages read (the response schemas in src/host/catalog/catalog-views.ts;
 * the templates get all of an answer by spreading).
 */
type NavigationView = AnswerOf<typeof HOST_STORE_ROUTES.readNavigation>[number];
type ProductListing = AnswerOf<typeof HOST_STORE_ROUTES.searchProducts>;
type ProductView = ProductListing['elements'][number];

/** The quantity rule a plugin may add to a product (`extensions.quantityRule`): what the quantity input admits. */
interface QuantityPicker {
  minQuantity: number;
  maxQuantity: number | null;
  step: number;
  packSize: number;
  priceUnit: 'piece' | 'pack';
}

/** The quantity input's bounds and the line that explains them (none for a product sold by the piece from 1). */
function quantityPicker(rule: QuantityPicker | undefined, stock: number, unitPrice: number) {
  if (!rule) return { min: 1, step: 1, max: stock, text: null, packPrice: null };
  const parts: string[] = [];
  if (rule.packSize > 1) parts.push(`Sold in packs of ${rule.packSize}`);
  if (rule.minQuantity > 1) parts.push(`minimum ${rule.minQuantity}`);
  if (rule.maxQuantity !== null) parts.push(`maximum ${rule.maxQuantity}`);
  if (rule.step > 1) parts.push(`in steps of ${rule.step}`);
  return {
    min: rule.minQuantity,
    step: rule.step,
    max: Math.min(stock, rule.maxQuantity ?? stock),
    text: parts.length ? parts.join(', ') : null,
    packPrice: rule.priceUnit === 'pack' ? Math.round(unitPrice * rule.packSize * 1e6) / 1e6 : null,
  };
}

/** The sort choices of listings; `price` is the list price (customer prices are not sortable in SQL). */
export const SORTINGS: Record<string, { label: string; sort: Array<{ field: string; order: 'ASC' | 'DESC' }> }> = {
  'name-asc': { label: 'Name A–Z', sort: [{ field: 'name', order: 'ASC' }] },
  'name-desc': { label: 'Name Z–A', sort: [{ field: 'name', order: 'DESC' }] },
  'price-asc': { label: 'Price, lowest first', sort: [{ field: 'price', order: 'ASC' }] },
  'price-desc': { label: 'Price, highest first', sort: [{ field: 'price', order: 'DESC' }] },
  newest: { label: 'Newest first', sort: [{ field: 'createdAt', order: 'DESC' }] },
};
const DEFAULT_SORTING = 'name-asc';

export interface NavigationNode {
  id: string;
  name: string;
  url: string;
  active: boolean;
  children: NavigationNode[];
}

/** The category tree of the layout: visible categories only (the Store API navigation route), the current path marked. */
export async function navigationFor(kit: PageKit, ctx: StoreContext, currentPath: string): Promise<NavigationNode[]> {
  const tree = await kit.call(ctx, HOST_STORE_ROUTES.readNavigation, {
    params: { rootId: 'main-navigation' },
    query: { depth: NAVIGATION_DEPTH },
  });
  const walk = (nodes: NavigationView[]): NavigationNode[] =>
    nodes.map((node) => ({
      id: node.id,
      name: node.name,
      url: categoryPath(node.id),
      active: currentPath.split('?')[0] === categoryPath(node.id),
      children: walk(node.children ?? []),
    }));
  return walk(tree);
}

export const categoryPath = (id: string) => `/category/${id}`;
export const productPath = (id: string) => `/product/${id}`;

/** Whether the visitor may put things in a cart: logged in and acting for a customer. */
export function canBuy(ctx: StoreContext): boolean {
  return ctx.actor.type !== 'guest' && ctx.customer !== null;
}

/** Whether a price gate withholds prices (and buying) from the visitor (contract 3.6: a closed shop's guest). */
export async function pricesWithheld(kit: PageKit, ctx: StoreContext): Promise<boolean> {
  return (await priceRefusal(kit.internals.registries.priceGates, kit.internals.db, ctx)) !== null;
}

/** A product card of a listing: the caller's price (net, quantity 1) and availability. */
function card(product: ProductView) {
  return {
    id: product.id,
    name: product.name,
    productNumber: product.productNumber,
    url: productPath(product.id),
    unitPrice: product.calculatedPrice?.unitPrice ?? null,
    available: product.available,
    stock: product.stock,
  };
}

interface Listing {
  page: number;
  sorting: string;
}

/** The sort choices a visitor has: none by price when prices are withheld from them. */
function sortingsFor(withheld: boolean): string[] {
  return Object.keys(SORTINGS).filter((key) => !withheld || !key.startsWith('price-'));
}

function listingOf(query: Record<string, unknown>, withheld: boolean): Listing {
  const sorting =
    typeof query.order === 'string' && sortingsFor(withheld).includes(query.order) ? query.order : DEFAULT_SORTING;
  return { page: wholeNumber(query.page, 100_000) ?? 1, sorting };
}

/** Listing data for a template: cards, paging links that keep the other parameters, the sort choices. */
function listingView(
  basePath: string,
  baseQuery: Record<string, string>,
  listing: Listing,
  result: ProductListing,
  withheld: boolean,
) {
  const pages = Math.max(1, Math.ceil(result.total / LISTING_PAGE_SIZE));
  const href = (page: number) => {
    const params = new URLSearchParams({
      ...baseQuery,
      ...(listing.sorting !== DEFAULT_SORTING ? { order: listing.sorting } : {}),
      ...(page > 1 ? { page: String(page) } : {}),
    });
    const query = params.toString();
    return query ? `${basePath}?${query}` : basePath;
  };
  return {
    products: result.elements.map(card),
    total: result.total,
    paging: {
      page: listing.page,
      pages,
      previous: listing.page > 1 ? href(Math.min(listing.page - 1, pages)) : null,
      next: listing.page < pages ? href(listing.page + 1) : null,
      beyond: listing.page > pages,
      first: href(1),
    },
    sortings: sortingsFor(withheld).map((value) => ({
      value,
      label: SORTINGS[value]!.label,
      selected: value === listing.sorting,
    })),
    sortAction: basePath,
    sortHidden: Object.entries(baseQuery).map(([name, value]) => ({ name, value })),
  };
}

function criteria(listing: Listing) {
  return { page: listing.page, limit: LISTING_PAGE_SIZE, sort: SORTINGS[listing.sorting]!.sort };
}

/**
 * The caller's price table: the unit price the host's price providers (customer prices), tier prices
 * or the list price give at quantity 1 and at each tier's minimum quantity.
 */
async function priceTable(kit: PageKit, ctx: StoreContext, productId: string, tierQuantities: number[]) {
  const [product] = await kit.internals.runtime.catalog.visibleProducts(kit.internals.runtime.db, ctx, [productId]);
  if (!product) throw Errors.notFound('product', productId);
  const precision = ctx.salesChannel.currencyPrecision;
  const quantities = [...new Set([1, ...tierQuantities])].sort((a, b) => a - b);
  const rows = [];
  for (const [index, quantity] of quantities.entries()) {
    const price = await kit.internals.runtime.prices.calculate(kit.internals.runtime.db, ctx, product, quantity);
    const next = quantities[index + 1];
    rows.push({
      quantityText: next ? (next - 1 === quantity ? String(quantity) : `${quantity}–${next - 1}`) : `${quantity}+`,
      unitPrice: fromMinor(price.unitNet, precision),
      source: price.source,
    });
  }
  return { listPrice: fromMinor(product.priceNet, precision), rows };
}

/** An add-on page (product lists) the product page and the cart link to when it is mounted. */
export const PRODUCT_LIST_ADD_PATH = '/account/product-lists/add';

export function shopPages(kit: PageKit): StorefrontPage[] {
  const currency = (ctx: StoreContext) => ctx.salesChannel.currencyIso;

  async function categoryPage(ctx: StoreContext, id: string, query: Record<string, unknown>): Promise<PageResult> {
    if (!isId(id)) throw Errors.notFound('category', id);
    const category = await kit.call(ctx, HOST_STORE_ROUTES.readCategory, { params: { categoryId: id } });
    const withheld = await pricesWithheld(kit, ctx);
    const listing = listingOf(query, withheld);
    const result = await kit.call(ctx, HOST_STORE_ROUTES.listCategoryProducts, {
      params: { categoryId: id },
      body: criteria(listing),
    });
    const subtree = await kit.call(ctx, HOST_STORE_ROUTES.readNavigation, {
      params: { rootId: id },
      query: { depth: 1 },
    });
    return {
      template: 'category',
      data: {
        title: category.name,
        category: { id: category.id, name: category.name },
        subcategories: subtree.map((node) => ({ name: node.name, url: categoryPath(node.id) })),
        currency: currency(ctx),
        canBuy: canBuy(ctx),
        ...listingView(categoryPath(id), {}, listing, result, withheld),
      },
    };
  }

  async function searchPage(ctx: StoreContext, query: Record<string, unknown>): Promise<PageResult> {
    const term = typeof query.q === 'string' ? query.q.trim().slice(0, 255) : '';
    const withheld = await pricesWithheld(kit, ctx);
    const listing = listingOf(query, withheld);
    const data: Record<string, unknown> = {
      title: term ? `Search: ${term}` : 'Search',
      term,
      currency: currency(ctx),
      canBuy: canBuy(ctx),
    };
    if (term) {
      const result = await kit.call(ctx, HOST_STORE_ROUTES.searchProducts, {
        body: { search: term, ...criteria(listing) },
      });
      Object.assign(data, listingView('/search', { q: term }, listing, result, withheld), { searched: true });
    }
    return { template: 'search', data };
  }

  async function productPage(ctx: StoreContext, id: string, query: Record<string, unknown>): Promise<PageResult> {
    if (!isId(id)) throw Errors.notFound('product', id);
    const product = await kit.call(ctx, HOST_STORE_ROUTES.readProduct, { params: { productId: id } });
    // The schema admits any object per extension; the quantity-rule plugin's is a QuantityPicker.
    const quantityRule = product.extensions?.quantityRule as QuantityPicker | undefined;
    const tierQuantities = (product.tierPrices ?? []).map((tier) => tier.minQuantity);
    // Withheld (a closed shop's guest): no price table, no buy form; the template shows a login prompt.
    const yourPrice = product.calculatedPrice ?? null;
    const prices = yourPrice ? await priceTable(kit, ctx, id, tierQuantities) : { listPrice: null, rows: [] };
    const categories =
      (await kit.call(ctx, HOST_STORE_ROUTES.readNavigation, {
        params: { rootId: 'main-navigation' },
        query: { depth: 10 },
      })) ?? [];
    const names = new Map<string, string>();
    const collect = (nodes: NavigationView[]) =>
      nodes.forEach((node) => (names.set(node.id, node.name), collect(node.children ?? [])));
    collect(categories);
    return {
      template: 'product',
      data: {
        title: product.name,
        product: {
          ...product,
          categories: product.categoryIds
            .filter((categoryId) => names.has(categoryId))
            .map((categoryId) => ({ name: names.get(categoryId), url: categoryPath(categoryId) })),
        },
        yourPrice,
        quantity: quantityPicker(quantityRule, product.stock, yourPrice?.unitPrice ?? 0),
        packSize: quantityRule?.packSize ?? 1,
        isSpecialPrice: yourPrice !== null && yourPrice.source !== 'list' && yourPrice.source !== 'tier',
        listPrice: prices.listPrice,
        priceRows: prices.rows,
        hasPriceTable: prices.rows.length > 1,
        currency: currency(ctx),
        canBuy: canBuy(ctx),
        // Offered when the product-list add-on's page is mounted and the caller may open it.
        productListUrl:
          canBuy(ctx) && kit.mayOpen(ctx, PRODUCT_LIST_ADD_PATH)
            ? `${PRODUCT_LIST_ADD_PATH}?productId=${product.id}`
            : null,
        loginUrl: `/account/login?redirect=${encodeURIComponent(productPath(id))}`,
        added: query.added === '1',
      },
    };
  }

  return [
    {
      path: '/category/:id',
      auth: 'public',
      handler: ({ ctx, params, query }) => categoryPage(ctx, params.id!, query),
    },
    { path: '/search', auth: 'public', handler: ({ ctx, query }) => searchPage(ctx, query) },
    { path: '/product/:id', auth: 'public', handler: ({ ctx, params, query }) => productPage(ctx, params.id!, query) },
  ];
}
