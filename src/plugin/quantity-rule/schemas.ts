import { CART_LIMITS } from '../../contract/index.js';
import { idSchema } from '../../lib/ids.js';
import { jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';

export const TAG = 'Quantity rules';
export const RESOURCE_TYPE = 'suite_quantity_rule';
/** Products one Store API list asks about at most (a listing page, a fast-order table). */
export const MAX_PRODUCTS_PER_LIST = 500;

const quantity = <const D extends string>(description: D) =>
  ({ type: 'integer', minimum: 1, maximum: CART_LIMITS.maxLineQuantity, description }) as const;
const priceUnit = {
  type: 'string',
  enum: ['piece', 'pack'],
  description:
    "'piece': prices are quoted per piece; 'pack': per pack (pack size × the piece price). Quantities count pieces either way.",
} as const;

const ruleFields = {
  minQuantity: quantity('The least a line may hold (pieces); a multiple of packSize.'),
  maxQuantity: nullable(
    quantity('The most a line may hold (pieces), a multiple of packSize; null: no maximum of its own.'),
  ),
  step: quantity('Allowed quantities are minQuantity + n × step (pieces); a multiple of packSize.'),
  packSize: quantity('Pieces per pack: the product is sold in whole packs.'),
  priceUnit,
} as const;

/** What an operator sets; absent fields take their defaults (packSize 1, minQuantity and step one pack, no maximum, per piece). */
export const ruleBody = objectSchema(ruleFields);

const adminRuleResource = objectSchema(
  {
    id: idSchema,
    type: { type: 'string', const: RESOURCE_TYPE },
    attributes: objectSchema(
      {
        productId: idSchema,
        ...ruleFields,
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: nullable({ type: 'string', format: 'date-time' }),
      },
      ['productId', 'minQuantity', 'maxQuantity', 'step', 'packSize', 'priceUnit', 'createdAt', 'updatedAt'],
    ),
  },
  ['id', 'type', 'attributes'],
);

export const adminRuleSingle = objectSchema({ data: adminRuleResource }, ['data']);
export const adminRuleList = jsonApiListSchema(adminRuleResource);
export const adminListQuery = objectSchema({ ...jsonApiPageQuery, productId: idSchema });

const storeRule = objectSchema(
  {
    id: { ...idSchema, description: "The product's id: a product has one rule." },
    productId: idSchema,
    ...ruleFields,
    custom: { type: 'boolean', description: 'false: the product has no rule of its own (any quantity from 1).' },
    unitPrice: {
      type: 'number',
      description: "The caller's net price of one piece at the minimum quantity; absent for a closed shop's guest.",
    },
    packPrice: { type: 'number', description: 'unitPrice × packSize: the price quoted when priceUnit is pack.' },
    apiAlias: { type: 'string', const: 'suite_quantity_rule' },
  },
  ['id', 'productId', 'minQuantity', 'maxQuantity', 'step', 'packSize', 'priceUnit', 'custom', 'apiAlias'],
);

export const storeRuleResponse = storeRule;
export const storeListBody = objectSchema(
  { productIds: { type: 'array', items: idSchema, minItems: 1, maxItems: MAX_PRODUCTS_PER_LIST, uniqueItems: true } },
  ['productIds'],
);
export const storeRuleList = storeListResponse(storeRule);
