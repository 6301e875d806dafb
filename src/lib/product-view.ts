import { idSchema } from './ids.js';
import { calculatedPriceSchema, priceView, type PriceFigures } from './price-view.js';
import { nullable } from './schemas.js';

/**
 * The product fields every Store API product answer shows — the host's listing and detail, and the
 * add-ons' product tables (fast order) that extend them — declared once for the schemas and the views.
 */
export const productViewProperties = {
  id: idSchema,
  versionId: idSchema,
  productNumber: { type: 'string' },
  name: { type: 'string' },
  description: nullable({ type: 'string' }),
  manufacturer: nullable({ type: 'string' }),
  ean: nullable({ type: 'string' }),
  stock: { type: 'integer' },
  available: { type: 'boolean' },
  active: { type: 'boolean' },
  categoryIds: { type: 'array', items: idSchema },
  taxRate: { type: 'number' },
  calculatedPrice: calculatedPriceSchema,
} as const;

/** What a product view is made of (the contract's ProductRecord has these fields). */
export interface ViewedProduct {
  id: string;
  versionId: string;
  productNumber: string;
  name: string;
  description: string | null;
  manufacturer: string | null;
  ean: string | null;
  stock: number;
  active: boolean;
  categoryIds: string[];
  taxRateBp: number;
}

/** The fields of `productViewProperties` for one product but its price (a price gate withholds it, contract 3.6). */
export function unpricedProductViewFields(product: ViewedProduct) {
  return {
    id: product.id,
    versionId: product.versionId,
    productNumber: product.productNumber,
    name: product.name,
    description: product.description,
    manufacturer: product.manufacturer,
    ean: product.ean,
    stock: product.stock,
    available: product.stock > 0,
    active: product.active,
    categoryIds: product.categoryIds,
    taxRate: product.taxRateBp / 100,
  };
}

/** The fields of `productViewProperties` for one product and its calculated price (quantity 1). */
export function productViewFields(product: ViewedProduct, price: PriceFigures, currencyPrecision: number) {
  return { ...unpricedProductViewFields(product), calculatedPrice: priceView(price, currencyPrecision) };
}
