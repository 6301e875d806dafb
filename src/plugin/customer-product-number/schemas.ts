import { criteriaSchema, type CriteriaSpec } from '../../lib/criteria.js';
import { idSchema } from '../../lib/ids.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';
import type { ProductFieldsOfList } from '../product-fields.js';

export const TAG = 'Customer product numbers';
export const MAX_NUMBER_LENGTH = 64;

export const customerProductNumberText = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_NUMBER_LENGTH,
  pattern: '\\S',
} as const;

export const numberSchema = objectSchema(
  {
    id: idSchema,
    productId: idSchema,
    productNumber: { type: 'string', description: "The shop's product number." },
    productName: { type: 'string' },
    customerProductNumber: { type: 'string', description: "The customer's own number for the product." },
    createdAt: dateTimeSchema,
    updatedAt: nullable(dateTimeSchema),
  },
  ['id', 'productId', 'productNumber', 'productName', 'customerProductNumber', 'createdAt', 'updatedAt'],
);

export const upsertBody = objectSchema(
  {
    productId: idSchema,
    customerProductNumber: {
      ...customerProductNumberText,
      description: 'Unique per customer, compared case-insensitively; replaces the number the product had.',
    },
  },
  ['productId', 'customerProductNumber'],
);

export const upsertResponse = objectSchema({ success: { const: true }, customerProductNumber: numberSchema }, [
  'success',
  'customerProductNumber',
]);

export const numberCriteriaSpec: CriteriaSpec = {
  fields: {
    id: { column: 'cpn.id', type: 'id' },
    productId: { column: 'cpn.product_id', type: 'id' },
    // Product fields: resolved through the host (numberProductFields); the columns are never read.
    productNumber: { column: 'cpn.product_id', type: 'string' },
    productName: { column: 'cpn.product_id', type: 'string' },
    customerProductNumber: { column: 'cpn.product_number', type: 'string' },
    createdAt: { column: 'cpn.created_at', type: 'date' },
    updatedAt: { column: 'cpn.updated_at', type: 'date' },
  },
  termColumns: ['cpn.product_number'],
  defaultSort: [
    { column: 'cpn.number_key', order: 'asc' },
    { column: 'cpn.id', order: 'asc' },
  ],
  idColumn: 'cpn.id',
};

/** The list's product fields (the host's names) and its own term columns; see product-fields.ts. */
export const numberProductFields: ProductFieldsOfList = {
  fields: { productNumber: 'productNumber', productName: 'name' },
  productIdField: 'productId',
  ownTermColumns: ['cpn.product_number'],
};

export const numberCriteriaBody = criteriaSchema(Object.keys(numberCriteriaSpec.fields));
export const numberList = storeListResponse(numberSchema);

export const importResult = objectSchema(
  {
    success: { const: true },
    created: { type: 'integer', minimum: 0 },
    updated: { type: 'integer', minimum: 0 },
    unchanged: { type: 'integer', minimum: 0 },
  },
  ['success', 'created', 'updated', 'unchanged'],
);
