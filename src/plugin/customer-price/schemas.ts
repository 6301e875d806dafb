import { criteriaSchema, type CriteriaSpec } from '../../lib/criteria.js';
import { idSchema } from '../../lib/ids.js';
import { jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';
import type { ProductFieldsOfList } from '../product-fields.js';

export const TAG = 'Customer prices';
export const RESOURCE_TYPE = 'suite_customer_price';
export const MAX_MIN_QUANTITY = 1_000_000;
export const MAX_PRICE = 1e10;
export const DEFAULT_MIN_QUANTITY = 1;

/** Store API: the caller's prices, searched by criteria. */
export const storePriceCriteriaSpec: CriteriaSpec = {
  fields: {
    id: { column: 'cp.id', type: 'id' },
    productId: { column: 'cp.product_id', type: 'id' },
    // Product fields: resolved through the host (storePriceProductFields); the columns are never read.
    productNumber: { column: 'cp.product_id', type: 'string' },
    productName: { column: 'cp.product_id', type: 'string' },
    minQuantity: { column: 'cp.min_quantity', type: 'number' },
  },
  defaultSort: [
    { column: 'cp.min_quantity', order: 'asc' },
    { column: 'cp.id', order: 'asc' },
  ],
  idColumn: 'cp.id',
};

/** The list's product fields (the host's names); no own term columns: a term searches product number and name. */
export const storePriceProductFields: ProductFieldsOfList = {
  fields: { productNumber: 'productNumber', productName: 'name' },
  productIdField: 'productId',
  ownTermColumns: [],
  defaultSort: [{ field: 'productNumber', order: 'asc' }],
};

export const storePriceCriteriaBody = criteriaSchema(Object.keys(storePriceCriteriaSpec.fields));

export const storePriceSchema = objectSchema(
  {
    id: idSchema,
    productId: idSchema,
    productNumber: { type: 'string' },
    productName: { type: 'string' },
    minQuantity: { type: 'integer', minimum: 1 },
    price: { type: 'number', description: 'Net unit price from minQuantity up.' },
    listPrice: nullable({ type: 'number', description: 'The pseudo (strike-through) net unit price, if any.' }),
    validFrom: nullable(dateTimeSchema),
    validUntil: nullable(dateTimeSchema),
    currency: nullable({ type: 'string', description: "The price's currency; null: the sales channel's." }),
    scope: {
      enum: ['customer', 'customerGroup'],
      description: 'customer: negotiated for this customer; customerGroup: for its customer group.',
    },
  },
  [
    'id',
    'productId',
    'productNumber',
    'productName',
    'minQuantity',
    'price',
    'listPrice',
    'validFrom',
    'validUntil',
    'currency',
    'scope',
  ],
);

export const storePriceList = storeListResponse(storePriceSchema);

export const adminPriceAttributes = objectSchema(
  {
    customerId: nullable(idSchema),
    customerGroupId: nullable(idSchema),
    productId: idSchema,
    minQuantity: { type: 'integer', minimum: 1 },
    price: { type: 'number', minimum: 0 },
    validFrom: nullable(dateTimeSchema),
    validUntil: nullable(dateTimeSchema),
    currency: nullable({ type: 'string' }),
    listPrice: nullable({ type: 'number' }),
    createdAt: dateTimeSchema,
    updatedAt: nullable(dateTimeSchema),
  },
  [
    'customerId',
    'customerGroupId',
    'productId',
    'minQuantity',
    'price',
    'validFrom',
    'validUntil',
    'currency',
    'listPrice',
    'createdAt',
    'updatedAt',
  ],
);

export const adminPriceResource = objectSchema(
  { id: idSchema, type: { const: RESOURCE_TYPE }, attributes: adminPriceAttributes },
  ['id', 'type', 'attributes'],
);

export const adminPriceList = jsonApiListSchema(adminPriceResource);

export const adminListQuery = objectSchema({
  ...jsonApiPageQuery,
  customerId: idSchema,
  customerGroupId: idSchema,
  productId: idSchema,
});

export const adminUpsertBody = {
  ...objectSchema(
    {
      customerId: { ...idSchema, description: 'The customer the price is for (or customerGroupId).' },
      customerGroupId: { ...idSchema, description: 'The customer group the price is for (or customerId).' },
      productId: idSchema,
      minQuantity: { type: 'integer', minimum: 1, maximum: MAX_MIN_QUANTITY, default: DEFAULT_MIN_QUANTITY },
      price: { type: 'number', minimum: 0, maximum: MAX_PRICE, description: 'Net unit price, two decimals.' },
      validFrom: nullable({
        type: 'string',
        format: 'date-time',
        description: 'The price applies from this instant (inclusive); null or absent: already.',
      }),
      validUntil: nullable({
        type: 'string',
        format: 'date-time',
        description:
          'The price applies until this instant (exclusive); null or absent: open-ended. After it the next price applies (group, tier, list).',
      }),
      currency: nullable({
        type: 'string',
        pattern: '^[A-Z]{3}$',
        description:
          "ISO 4217 code of the price's currency: it applies only in sales channels of that currency. Null or absent: the sales channel's currency.",
      }),
      listPrice: nullable({
        type: 'number',
        minimum: 0,
        maximum: MAX_PRICE,
        description: 'A pseudo (strike-through) net unit price shown beside the price; null or absent: none.',
      }),
    },
    ['productId', 'price'],
  ),
  oneOf: [{ required: ['customerId'] }, { required: ['customerGroupId'] }],
} as const;

export const adminSingle = objectSchema({ data: adminPriceResource }, ['data']);

export const checkedImportResult = objectSchema(
  {
    success: { const: true },
    created: { type: 'integer', minimum: 0 },
    updated: { type: 'integer', minimum: 0 },
    unchanged: { type: 'integer', minimum: 0 },
    checkId: { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'The kept file: import it by this reference.' },
    expiresAt: { type: 'string', format: 'date-time', description: 'The file is kept until then.' },
  },
  ['success', 'created', 'updated', 'unchanged', 'checkId', 'expiresAt'],
);

export const importResult = objectSchema(
  {
    success: { const: true },
    created: { type: 'integer', minimum: 0 },
    updated: { type: 'integer', minimum: 0 },
    unchanged: { type: 'integer', minimum: 0 },
  },
  ['success', 'created', 'updated', 'unchanged'],
);
