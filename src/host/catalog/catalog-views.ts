import { readBool, readInt, readJson, type Executor } from '../../lib/db.js';
import { fromMinor } from '../../lib/money.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import type { TypedSchema } from '../../lib/routes.js';
import type { PriceGate, PriceProvider, ProductRecord, StoreContext } from '../../contract/index.js';
import { priceRefusal } from '../../lib/price-providers.js';
import { calculatePrices } from './prices.js';
import { productViewFields, productViewProperties, unpricedProductViewFields } from '../../lib/product-view.js';
import { tierPricesOf, type TierPrices } from './product-repository.js';

const money = { type: 'number' } as const;
const id = { type: 'string' } as const;

export const productViewSchema = objectSchema(
  {
    ...productViewProperties,
    tierPrices: {
      type: 'array',
      items: objectSchema({ minQuantity: { type: 'integer' }, unitPrice: money }, ['minQuantity', 'unitPrice']),
    },
    extensions: {
      type: 'object',
      additionalProperties: { type: 'object' },
      description:
        '(contract 3.5) What the plugins add to the product detail, keyed by name (e.g. `quantityRule`: minimum, maximum, step, pack size, price unit).',
    },
  },
  ['id', 'versionId', 'productNumber', 'name', 'description', 'stock', 'available', 'active', 'categoryIds', 'taxRate'],
);

export const cmsPageSchema = objectSchema(
  {
    id,
    name: { type: 'string' },
    title: { type: 'string' },
    sections: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
  ['id', 'name', 'title', 'sections'],
);

export const categoryViewSchema = objectSchema(
  {
    id,
    versionId: id,
    parentId: nullable(id),
    name: { type: 'string' },
    position: { type: 'integer' },
    active: { type: 'boolean' },
    cmsPageId: nullable(id),
    cmsPage: nullable(cmsPageSchema),
  },
  ['id', 'versionId', 'parentId', 'name', 'position', 'active', 'cmsPageId'],
);

/** A node of the navigation answer. */
export interface NavigationNodeView {
  id: string;
  parentId: string | null;
  name: string;
  position: number;
  level: number;
  childCount: number;
  children: NavigationNodeView[];
}

/** The navigation answer: an array of nodes, each with its children (recursive: the schema states its type, `FromSchema` cannot read the `$ref`). */
export const navigationTreeSchema = {
  type: 'array',
  items: { $ref: '#/$defs/node' },
  $defs: {
    node: objectSchema(
      {
        id,
        parentId: nullable(id),
        name: { type: 'string' },
        position: { type: 'integer' },
        level: { type: 'integer' },
        childCount: { type: 'integer' },
        children: { type: 'array', items: { $ref: '#/$defs/node' } },
      },
      ['id', 'parentId', 'name', 'position', 'level', 'childCount', 'children'],
    ),
  },
} as unknown as TypedSchema<NavigationNodeView[]>;

export const landingPageViewSchema = objectSchema(
  {
    id,
    versionId: id,
    name: { type: 'string' },
    url: { type: 'string' },
    active: { type: 'boolean' },
    cmsPage: nullable(cmsPageSchema),
  },
  ['id', 'versionId', 'name', 'url', 'active', 'cmsPage'],
);

type ProductView = Omit<ReturnType<typeof productViewFields>, 'calculatedPrice'> & {
  calculatedPrice?: ReturnType<typeof productViewFields>['calculatedPrice'];
  tierPrices?: Array<{ minQuantity: number; unitPrice: number }>;
};

/**
 * Store API product views, priced for the context (quantity 1); without `calculatedPrice` and
 * `tierPrices` when a price gate withholds prices from the context (contract 3.6). `tiers`: the products' tier prices
 * when the caller read them with the products (tierPricesColumn); else they are read once for all,
 * for the answer's tierPrices, or without them only for products no price provider priced.
 */
export async function productViews(
  registries: { priceProviders: PriceProvider[]; priceGates: PriceGate[] },
  ctx: StoreContext,
  products: ProductRecord[],
  executor: Executor,
  options: { withTiers?: boolean; tiers?: TierPrices } = {},
) {
  if (await priceRefusal(registries.priceGates, executor, ctx))
    return products.map((product): ProductView => unpricedProductViewFields(product));
  const providers = registries.priceProviders;
  const tiers =
    options.tiers ??
    (options.withTiers
      ? await tierPricesOf(
          executor,
          products.map((p) => p.id),
        )
      : undefined);
  const prices = await calculatePrices(
    providers,
    ctx,
    products.map((product) => ({ product, quantity: 1 })),
    executor,
    tiers,
  );
  const precision = ctx.salesChannel.currencyPrecision;
  const views: ProductView[] = [];
  for (const [index, product] of products.entries()) {
    const view: ProductView = productViewFields(product, prices[index]!, precision);
    if (options.withTiers)
      view.tierPrices = (tiers?.get(product.id) ?? []).map((t) => ({
        minQuantity: t.minQuantity,
        unitPrice: fromMinor(t.priceNet, precision),
      }));
    views.push(view);
  }
  return views;
}

export function cmsPageView(row: Record<string, unknown>) {
  return {
    id: String(row.id),
    name: String(row.name),
    title: String(row.title),
    sections: readJson<Array<Record<string, unknown>>>(row.sections, []).filter(
      (s) => typeof s === 'object' && s !== null,
    ),
  };
}

export function categoryView(row: Record<string, unknown>) {
  return {
    id: String(row.id),
    versionId: String(row.version_id),
    parentId: (row.parent_id as string | null) ?? null,
    name: String(row.name),
    position: readInt(row.position),
    active: readBool(row.active),
    cmsPageId: (row.cms_page_id as string | null) ?? null,
  };
}
