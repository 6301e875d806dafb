import { criteriaSchema, DEFAULT_LIMIT, MAX_LIMIT, type CriteriaSpec } from '../../lib/criteria.js';
import { idSchema } from '../../lib/ids.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';
import type { ProductFieldsOfList } from '../product-fields.js';

export const TAG = 'Product lists';
export const MAX_ITEMS_PER_LIST = 1000;
export const MAX_LISTS_PER_CUSTOMER = 500;
export const MAX_ITEMS_PER_REQUEST = 500;
export const MAX_QUANTITY = 10_000;
export const MAX_CUSTOM_FIELDS_CHARS = 4000;

const nameSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' } as const;
const quantity = { type: 'integer', minimum: 1, maximum: MAX_QUANTITY } as const;
const comment = nullable({ type: 'string', maxLength: 1000 });
const position = { type: 'integer', minimum: 0, maximum: 1_000_000 } as const;
const customFields = {
  type: 'object',
  maxProperties: 50,
  description: `Free JSON, at most ${MAX_CUSTOM_FIELDS_CHARS} characters.`,
} as const;

export const itemSchema = objectSchema(
  {
    id: idSchema,
    articleNumber: { type: 'string', description: "The product's number." },
    productId: idSchema,
    comment: nullable({ type: 'string' }),
    position: { type: 'integer' },
    quantity: { type: 'integer' },
    customFields: { type: 'object' },
  },
  ['id', 'articleNumber', 'productId', 'comment', 'position', 'quantity', 'customFields'],
);

const summaryProperties = {
  id: idSchema,
  name: { type: 'string' },
  type: nullable({ type: 'string' }),
  itemCount: { type: 'integer', minimum: 0 },
  createdBy: objectSchema({ type: { type: 'string' }, id: nullable(idSchema) }, ['type', 'id']),
  createdAt: dateTimeSchema,
  updatedAt: nullable(dateTimeSchema),
} as const;
const summaryRequired = ['id', 'name', 'type', 'itemCount', 'createdBy', 'createdAt', 'updatedAt'] as const;

export const listSummarySchema = objectSchema(summaryProperties, summaryRequired);
export const listSchema = objectSchema({ ...summaryProperties, items: { type: 'array', items: itemSchema } }, [
  ...summaryRequired,
  'items',
]);
export const listsResponse = storeListResponse(listSummarySchema);
export const changedResponse = objectSchema({ success: { const: true }, productList: listSchema }, [
  'success',
  'productList',
]);
/** The create answer: the new list's id also at the top level, where clients written for the shop platform read a created record's id. */
export const createdResponse = objectSchema({ success: { const: true }, id: idSchema, productList: listSchema }, [
  'success',
  'id',
  'productList',
]);

/** An item to put on a list: by product id or by number (shop or customer product number). */
const newItem = {
  type: 'object',
  additionalProperties: false,
  properties: {
    productId: idSchema,
    articleNumber: { type: 'string', minLength: 1, maxLength: 64 },
    quantity,
    comment,
    position,
    customFields,
  },
  oneOf: [{ required: ['productId'] }, { required: ['articleNumber'] }],
} as const;

const newItems = { type: 'array', minItems: 1, maxItems: MAX_ITEMS_PER_REQUEST, items: newItem } as const;
export const newItemsBody = objectSchema({ items: newItems }, ['items']);
export const replaceItemsBody = objectSchema(
  { items: { type: 'array', minItems: 0, maxItems: MAX_ITEMS_PER_LIST, items: newItem } },
  ['items'],
);
export const updateItemsBody = objectSchema(
  {
    items: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_ITEMS_PER_REQUEST,
      items: objectSchema({ id: idSchema, quantity, comment, position, customFields }, ['id'], { minProperties: 2 }),
    },
  },
  ['items'],
);
export const deleteItemsBody = objectSchema(
  {
    items: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_ITEMS_PER_REQUEST,
      items: objectSchema({ id: idSchema }, ['id']),
    },
  },
  ['items'],
);

const listType = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_.-]+$',
  description: 'A free label of the list kind (e.g. "wishlist"); null when not given.',
} as const;
export const createBody = objectSchema({ name: nameSchema, type: listType, items: newItems });
export const updateListBody = objectSchema({ name: nameSchema }, ['name']);

export const overviewBody = objectSchema({
  type: listType,
  limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
});

export const itemCriteriaSpec: CriteriaSpec = {
  fields: {
    id: { column: 'items.id', type: 'id' },
    productId: { column: 'items.product_id', type: 'id' },
    // A product field: resolved through the host (itemProductFields); the column is never read.
    articleNumber: { column: 'items.product_id', type: 'string' },
    comment: { column: 'items.comment', type: 'string' },
    quantity: { column: 'items.quantity', type: 'number' },
    position: { column: 'items.position', type: 'number' },
    createdAt: { column: 'items.created_at', type: 'date' },
  },
  termColumns: ['items.comment'],
  defaultSort: [
    { column: 'items.position', order: 'asc' },
    { column: 'items.id', order: 'asc' },
  ],
  idColumn: 'items.id',
};
/** The item list's product field and own term column; see product-fields.ts. */
export const itemProductFields: ProductFieldsOfList = {
  fields: { articleNumber: 'productNumber' },
  productIdField: 'productId',
  ownTermColumns: ['items.comment'],
};
export const itemCriteriaBody = criteriaSchema(Object.keys(itemCriteriaSpec.fields));
export const itemList = storeListResponse(itemSchema);
