import { readBool, readInt, readJson, type Executor } from '../../lib/db.js';
import { fromMinor } from '../../lib/money.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import type { PriceProvider, ProductRecord, StoreContext } from '../contract.js';
import { calculatePrices } from './prices.js';
import { calculatedPriceSchema, priceView } from '../../lib/price-view.js';
import { tierPricesOf } from './product-repository.js';

const money = { type: 'number' };
const id = { type: 'string' };

export const productViewSchema = objectSchema(
  {
    id,
    versionId: id,
    productNumber: { type: 'string' },
    name: { type: 'string' },
    description: nullable({ type: 'string' }),
    manufacturer: nullable({ type: 'string' }),
    ean: nullable({ type: 'string' }),
    stock: { type: 'integer' },
    available: { type: 'boolean' },
    active: { type: 'boolean' },
    categoryIds: { type: 'array', items: id },
    taxRate: { type: 'number' },
    calculatedPrice: calculatedPriceSchema,
    tierPrices: { type: 'array', items: objectSchema({ minQuantity: { type: 'integer' }, unitPrice: money }, ['minQuantity', 'unitPrice']) },
  },
  ['id', 'versionId', 'productNumber', 'name', 'description', 'stock', 'available', 'active', 'categoryIds', 'taxRate', 'calculatedPrice'],
);

export const cmsPageSchema = objectSchema(
  { id, name: { type: 'string' }, title: { type: 'string' }, sections: { type: 'array', items: { type: 'object', additionalProperties: true } } },
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

/** The navigation answer: an array of nodes, each with its children (recursive). */
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
};

export const landingPageViewSchema = objectSchema(
  { id, versionId: id, name: { type: 'string' }, url: { type: 'string' }, active: { type: 'boolean' }, cmsPage: nullable(cmsPageSchema) },
  ['id', 'versionId', 'name', 'url', 'active', 'cmsPage'],
);


/** Store API product views, priced for the context (quantity 1), tier prices loaded once for all. */
export async function productViews(
  providers: PriceProvider[],
  ctx: StoreContext,
  products: ProductRecord[],
  extras: Map<string, { manufacturer: string | null; ean: string | null }>,
  executor: Executor,
  options: { withTiers?: boolean } = {},
) {
  // The tier table is read for the answer's tierPrices; without them, only for products no price provider priced.
  const tiers = options.withTiers ? await tierPricesOf(executor, products.map((p) => p.id)) : undefined;
  const prices = await calculatePrices(providers, ctx, products.map((product) => ({ product, quantity: 1 })), executor, tiers);
  const precision = ctx.salesChannel.currencyPrecision;
  const views = [];
  for (const [index, product] of products.entries()) {
    const price = prices[index]!;
    views.push({
      id: product.id,
      versionId: product.versionId,
      productNumber: product.productNumber,
      name: product.name,
      description: product.description,
      manufacturer: extras.get(product.id)?.manufacturer ?? null,
      ean: extras.get(product.id)?.ean ?? null,
      stock: product.stock,
      available: product.stock > 0,
      active: product.active,
      categoryIds: product.categoryIds,
      taxRate: product.taxRateBp / 100,
      calculatedPrice: priceView(price, precision),
      ...(options.withTiers
        ? { tierPrices: (tiers?.get(product.id) ?? []).map((t) => ({ minQuantity: t.minQuantity, unitPrice: fromMinor(t.priceNet, precision) })) }
        : {}),
    });
  }
  return views;
}

export function productExtras(rows: Array<Record<string, unknown>>) {
  return new Map(rows.map((row) => [String(row.id), { manufacturer: (row.manufacturer as string | null) ?? null, ean: (row.ean as string | null) ?? null }]));
}

export function cmsPageView(row: Record<string, unknown>) {
  return { id: String(row.id), name: String(row.name), title: String(row.title), sections: readJson<Array<Record<string, unknown>>>(row.sections, []).filter((s) => typeof s === 'object' && s !== null) };
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
