import { criteriaSchema, type CriteriaSpec } from '../../lib/criteria.js';
import { idSchema } from '../../lib/ids.js';
import { listResponse, nullable, objectSchema } from '../../lib/schemas.js';
import { dateTimeSchema } from '../../lib/time.js';
import { calculatedPriceSchema } from '../../lib/price-view.js';

export const TAG = 'Fast order and product search';
export const MAX_QUANTITY = 10_000;
export const MAX_ADD_ITEMS = 100;
export const MAX_SUGGEST = 50;

const productFields: CriteriaSpec['fields'] = {
  id: { column: 'products.id', type: 'id' },
  productNumber: { column: 'products.product_number', type: 'string' },
  name: { column: 'products.name', type: 'string' },
  description: { column: 'products.description', type: 'string' },
  manufacturer: { column: 'products.manufacturer', type: 'string' },
  ean: { column: 'products.ean', type: 'string' },
  stock: { column: 'products.stock', type: 'number' },
  customerProductNumber: { column: 'cpn.product_number', type: 'string' },
  categoryId: {
    column: 'product_categories.category_id',
    type: 'id',
    via: { table: 'product_categories', foreignKey: 'product_categories.product_id', localKey: 'products.id' },
  },
  createdAt: { column: 'products.created_at', type: 'date' },
};

/** `term` is not in termColumns: the routes match it themselves (number prefix, customer number prefix, name contains). */
export const productCriteriaSpec: CriteriaSpec = {
  fields: productFields,
  defaultSort: [
    { column: 'products.product_number', order: 'asc' },
    { column: 'products.id', order: 'asc' },
  ],
  idColumn: 'products.id',
};

export const orderedProductCriteriaSpec: CriteriaSpec = {
  fields: {
    ...productFields,
    lastOrderDate: { column: 'op.last_order_date', type: 'date' },
    totalQuantity: { column: 'op.total_quantity', type: 'number' },
    orderCount: { column: 'op.order_count', type: 'number' },
  },
  defaultSort: [
    { column: 'op.last_order_date', order: 'desc' },
    { column: 'products.id', order: 'asc' },
  ],
  idColumn: 'products.id',
};

export const productCriteriaBody = criteriaSchema(Object.keys(productCriteriaSpec.fields));
export const orderedProductCriteriaBody = criteriaSchema(Object.keys(orderedProductCriteriaSpec.fields));
export const productDetailsBody = criteriaSchema(Object.keys(productCriteriaSpec.fields), {
  productNumbers: {
    type: 'array',
    maxItems: 500,
    items: { type: 'string', minLength: 1, maxLength: 64 },
    description: "Shop product numbers or the customer's own product numbers.",
  },
});

const tierSchema = objectSchema(
  {
    minQuantity: { type: 'integer', minimum: 1 },
    maxQuantity: nullable({ type: 'integer', minimum: 1 }),
    unitPrice: { type: 'number' },
    source: { type: 'string' },
  },
  ['minQuantity', 'maxQuantity', 'unitPrice', 'source'],
);

const productProperties = {
  id: idSchema,
  productNumber: { type: 'string' },
  name: { type: 'string' },
  description: nullable({ type: 'string' }),
  manufacturer: nullable({ type: 'string' }),
  ean: nullable({ type: 'string' }),
  stock: { type: 'integer' },
  available: { type: 'boolean' },
  customerProductNumber: nullable({ type: 'string' }),
  calculatedPrice: calculatedPriceSchema,
  tierPrices: { type: 'array', items: tierSchema, description: 'The unit price for the caller per quantity range (customer, group, tier and list prices applied).' },
};
const productRequired = ['id', 'productNumber', 'name', 'description', 'manufacturer', 'ean', 'stock', 'available', 'customerProductNumber', 'calculatedPrice'];

export const productSchema = objectSchema(productProperties, productRequired);
export const productList = listResponse(productSchema);

export const orderedProductSchema = objectSchema(
  {
    ...productProperties,
    lastOrderDate: dateTimeSchema,
    totalQuantity: { type: 'integer', minimum: 0 },
    orderCount: { type: 'integer', minimum: 1 },
  },
  [...productRequired, 'lastOrderDate', 'totalQuantity', 'orderCount'],
);
export const orderedProductList = listResponse(orderedProductSchema);

export const suggestBody = objectSchema(
  {
    search: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_SUGGEST, default: 10 },
  },
  ['search'],
);

export const productPriceParams = objectSchema(
  { id: idSchema, quantity: { type: 'integer', minimum: 1, maximum: 1_000_000, description: 'A whole number from 1.' } },
  ['id', 'quantity'],
);

export const productPriceResponse = objectSchema(
  { productId: idSchema, productNumber: { type: 'string' }, quantity: { type: 'integer' }, calculatedPrice: calculatedPriceSchema },
  ['productId', 'productNumber', 'quantity', 'calculatedPrice'],
);

const addItem = {
  type: 'object',
  additionalProperties: false,
  properties: {
    productId: idSchema,
    productNumber: { type: 'string', minLength: 1, maxLength: 64, description: "A shop product number or the customer's own product number." },
    quantity: { type: 'integer', minimum: 1, maximum: MAX_QUANTITY },
  },
  required: ['quantity'],
  oneOf: [{ required: ['productId'] }, { required: ['productNumber'] }],
};

export const addToCartBody = objectSchema({ items: { type: 'array', minItems: 1, maxItems: MAX_ADD_ITEMS, items: addItem } }, ['items']);

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
          error: nullable(objectSchema({ code: { type: 'string' }, detail: { type: 'string' } }, ['code', 'detail'])),
        },
        ['index', 'productId', 'productNumber', 'customerProductNumber', 'quantity', 'added', 'error'],
      ),
    },
  },
  ['success', 'added', 'failed', 'items'],
);
