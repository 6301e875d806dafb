import { criteriaSchema } from '../../lib/criteria.js';
import { idSchema } from '../../lib/ids.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import { PRODUCT_LISTING_ALIAS, storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';
import { calculatedPriceSchema } from '../../lib/price-view.js';
import { productViewProperties } from '../../lib/product-view.js';

export const TAG = 'Fast order and product search';
export const MAX_QUANTITY = 10_000;
export const MAX_ADD_ITEMS = 100;
export const MAX_SUGGEST = 50;
export const SUGGEST_DEFAULT_LIMIT = 10;

/** Fields the plugin adds to the host's product criteria fields (catalog.productCriteriaFields). */
export const OWN_PRODUCT_FIELDS = ['customerProductNumber'];
export const ORDERED_PRODUCT_FIELDS = ['lastOrderDate', 'totalQuantity', 'orderCount'];

/** Criteria bodies over the host's product fields (the one allow-list, owned by the host) plus the plugin's. */
export function productCriteriaBodies(hostFields: readonly string[]) {
  const productFields = [...hostFields, ...OWN_PRODUCT_FIELDS];
  return {
    productCriteriaBody: criteriaSchema(productFields),
    orderedProductCriteriaBody: criteriaSchema([...productFields, ...ORDERED_PRODUCT_FIELDS]),
    productDetailsBody: criteriaSchema<{ productNumbers?: string[] }>(productFields, {
      productNumbers: {
        type: 'array',
        maxItems: 500,
        items: { type: 'string', minLength: 1, maxLength: 64 },
        description: "Shop product numbers or the customer's own product numbers.",
      },
    }),
  };
}

const tierSchema = objectSchema(
  {
    minQuantity: { type: 'integer', minimum: 1 },
    maxQuantity: nullable({ type: 'integer', minimum: 1 }),
    unitPrice: { type: 'number' },
    source: { type: 'string' },
  },
  ['minQuantity', 'maxQuantity', 'unitPrice', 'source'],
);

/** The host listing's product fields (a product listing route response), plus the fast order's own. */
const productProperties = {
  ...productViewProperties,
  customerProductNumber: nullable({ type: 'string' }),
  tierPrices: {
    type: 'array',
    items: tierSchema,
    description: 'The unit price for the caller per quantity range (customer, group, tier and list prices applied).',
  },
};
const productRequired = [
  'id',
  'versionId',
  'productNumber',
  'name',
  'description',
  'manufacturer',
  'ean',
  'stock',
  'available',
  'active',
  'categoryIds',
  'taxRate',
  'customerProductNumber',
  'calculatedPrice',
];

export const productSchema = objectSchema(productProperties, productRequired);
export const productList = storeListResponse(productSchema);
/** The product table and the suggest answer the platform's product listing result. */
export const productListing = storeListResponse(productSchema, { apiAlias: PRODUCT_LISTING_ALIAS });

export const orderedProductSchema = objectSchema(
  {
    ...productProperties,
    lastOrderDate: dateTimeSchema,
    totalQuantity: { type: 'integer', minimum: 0 },
    orderCount: { type: 'integer', minimum: 1 },
  },
  [...productRequired, 'lastOrderDate', 'totalQuantity', 'orderCount'],
);
export const orderedProductList = storeListResponse(orderedProductSchema);

export const suggestBody = objectSchema(
  {
    search: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_SUGGEST, default: SUGGEST_DEFAULT_LIMIT },
  },
  ['search'],
);

export const productPriceParams = objectSchema(
  {
    id: idSchema,
    quantity: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1_000_000,
      description:
        "A number, as the spec types it; the product's purchase steps decide which quantities it is sold in (the reference host sells every product in whole units from 1).",
    },
  },
  ['id', 'quantity'],
);

export const productPriceResponse = objectSchema(
  {
    productId: idSchema,
    productNumber: { type: 'string' },
    quantity: { type: 'integer' },
    calculatedPrice: calculatedPriceSchema,
  },
  ['productId', 'productNumber', 'quantity', 'calculatedPrice'],
);

const addItem = {
  type: 'object',
  additionalProperties: false,
  properties: {
    productId: idSchema,
    productNumber: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: "A shop product number or the customer's own product number.",
    },
    quantity: { type: 'integer', minimum: 1, maximum: MAX_QUANTITY },
  },
  required: ['quantity'],
  oneOf: [{ required: ['productId'] }, { required: ['productNumber'] }],
} as const;

export const addToCartBody = objectSchema(
  { items: { type: 'array', minItems: 1, maxItems: MAX_ADD_ITEMS, items: addItem } },
  ['items'],
);

export const addToCartResponse = objectSchema(
  {
    success: { type: 'boolean', description: 'true when every item was added.' },
    added: { type: 'integer', minimum: 0 },
    failed: { type: 'integer', minimum: 0 },
    items: {
      type: 'array',
      items: objectSchema(
        {
          index: { type: 'integer', minimum: 0 },
          productId: nullable(idSchema),
          productNumber: nullable({ type: 'string' }),
          customerProductNumber: nullable({ type: 'string' }),
          quantity: { type: 'integer' },
          added: { type: 'boolean' },
          error: nullable(
            objectSchema(
              {
                code: { type: 'string' },
                detail: { type: 'string' },
                meta: {
                  type: 'object',
                  description:
                    "The refusal's details, e.g. a quantity rule's asked and allowed quantities (SUITE__QUANTITY_NOT_ALLOWED).",
                },
              },
              ['code', 'detail'],
            ),
          ),
        },
        ['index', 'productId', 'productNumber', 'customerProductNumber', 'quantity', 'added', 'error'],
      ),
    },
  },
  ['success', 'added', 'failed', 'items'],
);

/** A property value as variants and similar products show it. */
export const propertyValueSchema = objectSchema(
  { groupId: idSchema, group: { type: 'string' }, optionId: idSchema, option: { type: 'string' } },
  ['groupId', 'group', 'optionId', 'option'],
);

/** A variant: the product listing's fields with the caller's price and stock, and the options that make it a variant. */
export const variantSchema = objectSchema(
  { ...productProperties, parentId: idSchema, options: { type: 'array', items: propertyValueSchema } },
  [...productRequired, 'parentId', 'options'],
);
export const variantList = storeListResponse(variantSchema, {
  apiAlias: PRODUCT_LISTING_ALIAS,
  extra: { parentId: { ...idSchema, description: 'The main product the variants belong to.' } },
  extraRequired: ['parentId'],
});

export const SIMILAR_DEFAULT_LIMIT = 10;
export const SIMILAR_MAX_LIMIT = 50;
export const similarProductsQuery = objectSchema({
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: SIMILAR_MAX_LIMIT,
    default: SIMILAR_DEFAULT_LIMIT,
    description: 'How many products at most (default 10).',
  },
});
export const similarProductSchema = objectSchema(
  {
    ...productProperties,
    sharedPropertyCount: { type: 'integer', minimum: 1 },
    sharedProperties: { type: 'array', items: propertyValueSchema },
  },
  [...productRequired, 'sharedPropertyCount', 'sharedProperties'],
);
export const similarProductList = storeListResponse(similarProductSchema, {
  apiAlias: PRODUCT_LISTING_ALIAS,
  extra: {
    properties: { type: 'array', items: propertyValueSchema, description: "The product's own property values." },
  },
  extraRequired: ['properties'],
});
