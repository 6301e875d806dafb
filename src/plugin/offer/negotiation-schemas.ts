import { idSchema } from '../../lib/ids.js';
import { moneySchema } from '../../lib/money.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';
import { MAX_OFFER_LINES, percentSchema } from './schemas.js';

const text = { type: 'string' } as const;
const number = { type: 'number' } as const;
const versionNumber = {
  type: 'string',
  pattern: '^[1-9][0-9]{0,5}$',
  description: 'A version number (1, 2, …).',
} as const;

export const versionParams = objectSchema(
  { id: { type: 'string', pattern: '^[0-9a-f]{32}$' }, version: versionNumber },
  ['id', 'version'],
);
export const diffQuery = objectSchema({ against: versionNumber });

export const addPositionsBody = objectSchema(
  {
    positions: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: objectSchema(
        {
          kind: {
            enum: ['text', 'heading'],
            description:
              '`text`: a free-text position (a service, freight) with a price and tax rate; `heading`: structures the offer, never ordered.',
          },
          label: { type: 'string', minLength: 1, maxLength: 255 },
          quantity: { type: 'integer', minimum: 1, maximum: 100000 },
          unitPrice: moneySchema,
          taxRate: percentSchema,
          discount: percentSchema,
          optional: { type: 'boolean' },
          comment: nullable({ type: 'string', maxLength: 2000 }),
        },
        ['kind', 'label'],
      ),
    },
  },
  ['positions'],
);

export const customerRevisionBody = objectSchema(
  {
    lineItems: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_OFFER_LINES,
      items: objectSchema(
        { id: idSchema, selected: { type: 'boolean' }, quantity: { type: 'integer', minimum: 1, maximum: 100000 } },
        ['id'],
        { minProperties: 2 },
      ),
    },
    message: nullable({ type: 'string', maxLength: 4000 }),
  },
  ['lineItems'],
);

export const messageBody = objectSchema({ body: { type: 'string', minLength: 1, maxLength: 4000 } }, ['body']);

const author = objectSchema({ type: text, id: nullable(text), name: text }, ['type', 'id', 'name']);

export const messageSchema = objectSchema(
  {
    id: text,
    sequence: { type: 'integer' },
    side: { enum: ['customer', 'sales'] },
    author,
    body: text,
    offerVersion: { type: 'integer' },
    createdAt: dateTimeSchema,
  },
  ['id', 'sequence', 'side', 'author', 'body', 'offerVersion', 'createdAt'],
);

export const threadResponse = storeListResponse(messageSchema, {
  extra: {
    unreadBefore: {
      type: 'integer',
      description: 'Messages of the other side that were unread before this call (reading marks them read).',
    },
  },
  extraRequired: ['unreadBefore'],
});

/** Per offer with unread messages: `id` is the offer's id. */
export const unreadResponse = storeListResponse(
  objectSchema({ id: text, offerNumber: text, unread: { type: 'integer' } }, ['id', 'offerNumber', 'unread']),
  {
    extra: { unread: { type: 'integer', description: 'Unread messages over all these offers.' } },
    extraRequired: ['unread'],
  },
);

const versionLine = objectSchema(
  {
    id: text,
    kind: text,
    productId: nullable(text),
    productNumber: nullable(text),
    label: text,
    quantity: { type: 'integer' },
    listPrice: number,
    basePrice: number,
    discount: number,
    unitPrice: number,
    totalPrice: number,
    taxRate: number,
    optional: { type: 'boolean' },
    selected: { type: 'boolean' },
    comment: nullable(text),
  },
  [
    'id',
    'kind',
    'productId',
    'productNumber',
    'label',
    'quantity',
    'listPrice',
    'basePrice',
    'discount',
    'unitPrice',
    'totalPrice',
    'taxRate',
    'optional',
    'selected',
    'comment',
  ],
);

export const versionSchema = objectSchema(
  {
    id: text,
    version: { type: 'integer' },
    side: { enum: ['customer', 'sales'] },
    author,
    createdAt: dateTimeSchema,
    documentId: nullable(text),
    subject: text,
    commission: text,
    salesComment: nullable(text),
    validUntil: nullable(dateTimeSchema),
    discount: number,
    netTotal: number,
    taxTotal: number,
    total: number,
    currencyIso: text,
    lineItems: { type: 'array', items: versionLine },
  },
  [
    'id',
    'version',
    'side',
    'author',
    'createdAt',
    'documentId',
    'subject',
    'commission',
    'salesComment',
    'validUntil',
    'discount',
    'netTotal',
    'taxTotal',
    'total',
    'currencyIso',
    'lineItems',
  ],
);

export const versionListResponse = storeListResponse(versionSchema, {
  extra: {
    current: {
      type: 'integer',
      description: 'The offer’s version now (may be one still being worked on, not yet listed).',
    },
  },
  extraRequired: ['current'],
});

const fieldChange = objectSchema({ field: text, before: {}, after: {} }, ['field', 'before', 'after']);

export const diffResponse = objectSchema(
  {
    from: { type: 'integer' },
    to: { type: 'integer' },
    offer: { type: 'array', items: fieldChange },
    lineItems: {
      type: 'array',
      items: objectSchema(
        {
          lineItemId: text,
          change: { enum: ['added', 'removed', 'changed'] },
          label: text,
          kind: text,
          fields: { type: 'array', items: fieldChange },
        },
        ['lineItemId', 'change', 'label', 'kind', 'fields'],
      ),
    },
  },
  ['from', 'to', 'offer', 'lineItems'],
);
