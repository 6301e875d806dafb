import { lineItemViewSchema } from '../../lib/line-items.js';
import { idParam, looseObject, nullable, objectSchema } from '../../lib/schemas.js';
import { dateTimeSchema } from '../../lib/time.js';
import { CART_LIMITS } from './cart-service.js';

const text = { type: 'string' } as const;
const nullableText = nullable({ type: 'string' });
const amount = { type: 'number' } as const;
const address = nullable({ ...looseObject });

export const errorResponse = objectSchema({ errors: { type: 'array', minItems: 1, items: looseObject } }, ['errors']);

const lineItemPayload = { type: 'object', maxProperties: 50 } as const;
const quantity = { type: 'integer', minimum: 1, maximum: CART_LIMITS.maxLineQuantity } as const;

export const addLineItemsBody = objectSchema(
  {
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: objectSchema(
        {
          type: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,31}$' },
          referencedId: idParam,
          productId: idParam,
          quantity,
          payload: lineItemPayload,
        },
        ['quantity'],
        { anyOf: [{ required: ['referencedId'] }, { required: ['productId'] }] },
      ),
    },
  },
  ['items'],
);

export const updateLineItemsBody = objectSchema(
  {
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: objectSchema({ id: idParam, quantity, payload: lineItemPayload }, ['id'], { minProperties: 2 }),
    },
  },
  ['items'],
);

export const removeLineItemsBody = objectSchema(
  { ids: { type: 'array', minItems: 1, maxItems: CART_LIMITS.maxLines, uniqueItems: true, items: idParam } },
  ['ids'],
);

export const cartSchema = objectSchema(
  {
    token: text,
    customerId: nullableText,
    lineItems: {
      type: 'array',
      items: objectSchema(
        {
          id: text,
          type: text,
          productId: nullableText,
          productNumber: nullableText,
          label: text,
          quantity: { type: 'integer', minimum: 1 },
          payload: looseObject,
          position: { type: 'integer' },
          price: objectSchema({ unitPrice: amount, totalPrice: amount, taxRate: amount }, [
            'unitPrice',
            'totalPrice',
            'taxRate',
          ]),
        },
        ['id', 'type', 'productId', 'label', 'quantity', 'payload', 'price'],
      ),
    },
    price: objectSchema(
      {
        netPrice: amount,
        totalPrice: amount,
        taxAmount: amount,
        currency: objectSchema({ isoCode: text }, ['isoCode']),
      },
      ['netPrice', 'totalPrice', 'taxAmount'],
    ),
    errors: {
      type: 'array',
      items: objectSchema({ code: text, detail: text, lineItemId: text, productId: nullableText, label: text }, [
        'code',
        'detail',
        'lineItemId',
      ]),
    },
  },
  ['token', 'lineItems', 'price', 'errors'],
);

export const placeOrderBody = objectSchema({
  customerComment: nullable({ type: 'string', maxLength: 2000 }),
  billingAddressId: nullable(idParam),
  shippingAddressId: nullable(idParam),
  paymentMethod: nullable({ type: 'string', minLength: 1, maxLength: 64 }),
  shippingMethod: nullable({ type: 'string', minLength: 1, maxLength: 64 }),
});

const state = objectSchema({ technicalName: text, name: text }, ['technicalName', 'name']);

export const orderSchema = objectSchema(
  {
    id: text,
    orderNumber: text,
    orderDate: dateTimeSchema,
    stateMachineState: state,
    currency: objectSchema({ isoCode: text }, ['isoCode']),
    amountTotal: amount,
    amountNet: amount,
    taxAmount: amount,
    billingAddress: address,
    shippingAddress: address,
    orderCustomer: objectSchema(
      {
        customerId: text,
        customerNumber: nullableText,
        email: nullableText,
        firstName: nullableText,
        lastName: nullableText,
        company: nullableText,
      },
      ['customerId', 'email', 'firstName', 'lastName', 'company'],
    ),
    customerComment: nullableText,
    deliveries: {
      type: 'array',
      items: objectSchema(
        {
          id: text,
          stateMachineState: state,
          shippingMethod: objectSchema({ technicalName: text, name: text }),
          shippingOrderAddress: address,
        },
        ['id', 'stateMachineState', 'shippingMethod', 'shippingOrderAddress'],
      ),
    },
    transactions: {
      type: 'array',
      items: objectSchema(
        {
          id: text,
          stateMachineState: state,
          paymentMethod: objectSchema({ technicalName: text, name: text }),
          amount,
        },
        ['id', 'stateMachineState', 'paymentMethod', 'amount'],
      ),
    },
    lineItems: { type: 'array', items: lineItemViewSchema },
    documents: {
      type: 'array',
      items: objectSchema({ id: text, fileName: text, type: text, documentNumber: text, createdAt: dateTimeSchema }, [
        'id',
        'fileName',
        'type',
        'documentNumber',
      ]),
    },
    customFields: looseObject,
    placedBy: objectSchema({ type: text, id: nullableText }, ['type', 'id']),
    salesChannelId: text,
  },
  [
    'id',
    'orderNumber',
    'orderDate',
    'stateMachineState',
    'currency',
    'amountTotal',
    'amountNet',
    'taxAmount',
    'billingAddress',
    'orderCustomer',
    'deliveries',
    'transactions',
    'lineItems',
    'documents',
    'customFields',
    'placedBy',
  ],
);

export const orderListSchema = objectSchema(
  {
    orders: objectSchema(
      {
        total: { type: 'integer', minimum: 0 },
        page: { type: 'integer' },
        limit: { type: 'integer' },
        elements: { type: 'array', items: orderSchema },
        nextCursor: {
          type: ['string', 'null'],
          description: "Only when the request gave a `cursor`: the next page's, null on the last page.",
        },
      },
      ['total', 'elements'],
    ),
  },
  ['orders'],
);
