import { criteriaSchema, type CriteriaSpec } from '../../lib/criteria.js';
import { idSchema } from '../../lib/ids.js';
import { lineItemViewProperties } from '../../lib/line-items.js';
import { moneySchema } from '../../lib/money.js';
import { looseObject, nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';

const text = { type: 'string' } as const;
const comment = { type: 'string', maxLength: 2000 } as const;
const quantity = { type: 'integer', minimum: 1, maximum: 100000 } as const;
export const MAX_OFFER_LINES = 500;

/** The spec's five fields, spelled as it spells them (billigAddressId, deliverAddressId). */
const requestFields = {
  billigAddressId: nullable(idSchema),
  deliverAddressId: nullable(idSchema),
  subject: { type: 'string', maxLength: 255 },
  commission: { type: 'string', maxLength: 255 },
  customerComment: nullable(comment),
} as const;

export const offerRequestBody = objectSchema(requestFields);

export const offerItemRequestBody = objectSchema(
  {
    ...requestFields,
    lineItems: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_OFFER_LINES,
      items: objectSchema(
        {
          id: { type: 'string', minLength: 1, maxLength: 64 },
          productId: idSchema,
          quantity,
          comment: nullable(comment),
        },
        ['productId', 'quantity'],
      ),
    },
  },
  ['lineItems'],
);

export const addProductsBody = objectSchema(
  {
    object: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: objectSchema({ productId: idSchema, quantity, price: moneySchema, comment: nullable(comment) }, [
        'productId',
        'quantity',
      ]),
    },
  },
  ['object'],
);

export const OFFER_ACTIONS = ['accept', 'decline'] as const;
export const SALES_UPDATE_FIELDS = [
  'subject',
  'commission',
  'salesComment',
  'validUntil',
  'lineItems',
  'removeLineItemIds',
  'discount',
] as const;
/** A discount in percent (two decimals at most: checked when converted to basis points). */
export const percentSchema = { type: 'number', minimum: 0, maximum: 100 } as const;

/**
 * One body for both sides: the customer sends `action` (accept or decline, with an optional
 * `comment`); a sales representative sends the pricing fields. Mixing the two is a 400.
 */
export const offerUpdateBody = objectSchema(
  {
    action: { enum: [...OFFER_ACTIONS] },
    comment: nullable(comment),
    version: {
      type: 'integer',
      minimum: 1,
      maximum: 1000000,
      description:
        'With accept: the version the customer accepts; another than the current one is a 409 SUITE__OFFER_VERSION_STALE.',
    },
    discount: {
      ...percentSchema,
      description: 'Sales side: a discount in percent on the whole offer, on top of each line’s own.',
    },
    subject: { type: 'string', maxLength: 255 },
    commission: { type: 'string', maxLength: 255 },
    salesComment: nullable(comment),
    validUntil: dateTimeSchema,
    lineItems: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_OFFER_LINES,
      items: objectSchema(
        {
          id: idSchema,
          unitPrice: moneySchema,
          quantity,
          comment: nullable(comment),
          discount: percentSchema,
          optional: { type: 'boolean' },
          label: { type: 'string', minLength: 1, maxLength: 255 },
        },
        ['id'],
        { minProperties: 2 },
      ),
    },
    removeLineItemIds: { type: 'array', minItems: 1, maxItems: MAX_OFFER_LINES, uniqueItems: true, items: idSchema },
  },
  [],
  { minProperties: 1 },
);

export const sendMailBody = objectSchema({ message: nullable(comment) });
export const extensionRequestBody = objectSchema({ comment: nullable(comment) });

export const referenceProductQuery = objectSchema({ customerId: idSchema });

export const stateSchema = objectSchema(
  {
    id: text,
    technicalName: text,
    name: text,
    position: { type: 'integer' },
    allowsSalesEdit: { type: 'boolean' },
    allowsAccept: { type: 'boolean' },
    allowsDecline: { type: 'boolean' },
    allowsExtensionRequest: { type: 'boolean' },
    isFinal: { type: 'boolean' },
  },
  [
    'id',
    'technicalName',
    'name',
    'position',
    'allowsSalesEdit',
    'allowsAccept',
    'allowsDecline',
    'allowsExtensionRequest',
    'isFinal',
  ],
);

/** The shared line item view without the payload, plus the list price and the sales comment. */
const { payload: _payload, ...offerLineProperties } = lineItemViewProperties;
const positionProperties = {
  kind: { enum: ['product', 'text', 'heading'] },
  optional: { type: 'boolean' },
  selected: { type: 'boolean' },
  basePrice: { type: 'number' },
  discount: { type: 'number' },
} as const;
const lineItemSchema = objectSchema(
  { ...offerLineProperties, listPrice: { type: 'number' }, comment: nullable(text), ...positionProperties },
  [
    ...(Object.keys(offerLineProperties) as Array<keyof typeof offerLineProperties>),
    'listPrice',
    'comment',
    ...(Object.keys(positionProperties) as Array<keyof typeof positionProperties>),
  ],
);

const nullableTime = nullable(dateTimeSchema);

export const offerSchema = objectSchema(
  {
    id: text,
    offerNumber: text,
    customerId: text,
    status: text,
    state: stateSchema,
    subject: text,
    commission: text,
    customerComment: nullable(text),
    salesComment: nullable(text),
    billigAddressId: nullable(text),
    deliverAddressId: nullable(text),
    currencyIso: text,
    netTotal: { type: 'number' },
    taxTotal: { type: 'number' },
    total: { type: 'number' },
    validUntil: nullableTime,
    requestedBy: objectSchema({ type: text, id: nullable(text), name: text, email: nullable(text) }, [
      'type',
      'id',
      'name',
      'email',
    ]),
    salesRepresentativeId: nullable(text),
    lineItems: { type: 'array', items: lineItemSchema },
    documents: {
      type: 'array',
      items: objectSchema({ id: text, fileName: text, documentNumber: text, createdAt: dateTimeSchema }, [
        'id',
        'fileName',
        'documentNumber',
        'createdAt',
      ]),
    },
    orderId: nullable(text),
    orderNumber: nullable(text),
    sentAt: nullableTime,
    acceptedAt: nullableTime,
    declinedAt: nullableTime,
    declineComment: nullable(text),
    extensionRequestedAt: nullableTime,
    extensionComment: nullable(text),
    createdAt: dateTimeSchema,
    updatedAt: nullableTime,
    version: { type: 'integer' },
    discount: { type: 'number' },
    unreadMessageCount: { type: 'integer' },
  },
  [
    'version',
    'discount',
    'unreadMessageCount',
    'id',
    'offerNumber',
    'customerId',
    'status',
    'state',
    'subject',
    'commission',
    'customerComment',
    'salesComment',
    'billigAddressId',
    'deliverAddressId',
    'currencyIso',
    'netTotal',
    'taxTotal',
    'total',
    'validUntil',
    'requestedBy',
    'salesRepresentativeId',
    'lineItems',
    'documents',
    'orderId',
    'orderNumber',
    'sentAt',
    'acceptedAt',
    'declinedAt',
    'declineComment',
    'extensionRequestedAt',
    'extensionComment',
    'createdAt',
    'updatedAt',
  ],
);

export const offerListResponse = storeListResponse(offerSchema);
export const stateListResponse = storeListResponse(stateSchema);

export const sendMailResponse = objectSchema(
  { success: { type: 'boolean', const: true }, documentId: text, recipient: text },
  ['success', 'documentId', 'recipient'],
);

export const referenceProductResponse = objectSchema(
  {
    productId: text,
    order: nullable(looseObject),
    orderLineItem: nullable(
      objectSchema(
        { id: text, quantity: { type: 'integer' }, unitPrice: { type: 'number' }, totalPrice: { type: 'number' } },
        ['id', 'quantity', 'unitPrice', 'totalPrice'],
      ),
    ),
    offer: nullable(offerSchema),
  },
  ['productId', 'order', 'orderLineItem', 'offer'],
);

export const offerCriteria: CriteriaSpec = {
  fields: {
    id: { column: 'o.id', type: 'id' },
    offerNumber: { column: 'o.offer_number', type: 'string' },
    status: { column: 'o.status', type: 'string' },
    customerId: { column: 'o.customer_id', type: 'id' },
    subject: { column: 'o.subject', type: 'string' },
    commission: { column: 'o.commission', type: 'string' },
    salesRepresentativeId: { column: 'o.sales_representative_id', type: 'id' },
    orderId: { column: 'o.order_id', type: 'id' },
    validUntil: { column: 'o.valid_until', type: 'date' },
    createdAt: { column: 'o.created_at', type: 'date' },
    updatedAt: { column: 'o.updated_at', type: 'date' },
    productId: {
      column: 'ol.product_id',
      type: 'id',
      via: { table: 'b2b_offer_line_items as ol', foreignKey: 'ol.offer_id', localKey: 'o.id' },
    },
  },
  termColumns: ['o.offer_number', 'o.subject', 'o.commission'],
  defaultSort: [
    { column: 'o.created_at', order: 'desc' },
    { column: 'o.id', order: 'desc' },
  ],
  idColumn: 'o.id',
};

export const stateCriteria: CriteriaSpec = {
  fields: {
    id: { column: 'id', type: 'id' },
    technicalName: { column: 'technical_name', type: 'string' },
    name: { column: 'name', type: 'string' },
    position: { column: 'position', type: 'number' },
    allowsSalesEdit: { column: 'allows_sales_edit', type: 'boolean' },
    allowsAccept: { column: 'allows_accept', type: 'boolean' },
    allowsDecline: { column: 'allows_decline', type: 'boolean' },
    allowsExtensionRequest: { column: 'allows_extension_request', type: 'boolean' },
    isFinal: { column: 'is_final', type: 'boolean' },
  },
  termColumns: ['technical_name', 'name'],
  defaultSort: [
    { column: 'position', order: 'asc' },
    { column: 'id', order: 'asc' },
  ],
  idColumn: 'id',
};

export const offerListBody = criteriaSchema(Object.keys(offerCriteria.fields));
export const stateListBody = criteriaSchema(Object.keys(stateCriteria.fields));
