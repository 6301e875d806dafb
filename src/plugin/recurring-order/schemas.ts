import { criteriaSchema, type CriteriaSpec } from '../../lib/criteria.js';
import { idParam, nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';

export const TAG = 'Recurring orders';

const calendarDate = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description: 'A calendar date YYYY-MM-DD (UTC).',
} as const;
const unavailableProducts = {
  type: 'string',
  enum: ['hold', 'leave-out'],
  description:
    'When a product can no longer be ordered on a date: `hold` places nothing and asks the buyer (the occurrence is `held`, the buyer is mailed); `leave-out` places the rest and names what was left out. Default for a new recurring order: `hold`.',
} as const;
const interval = objectSchema(
  {
    unit: { type: 'string', enum: ['day', 'week', 'month'] },
    count: { type: 'integer', minimum: 1, maximum: 365, description: 'Every `count` days, weeks or months.' },
  },
  ['unit', 'count'],
);

export const createBody = objectSchema(
  {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    source: {
      type: 'string',
      enum: ['cart', 'product-list'],
      description: "What to order: the caller's cart as it is now, or a product list's items.",
    },
    productListId: { ...idParam, description: 'With source `product-list`: the list.' },
    interval,
    startDate: { ...calendarDate, description: 'The first occurrence (today or later).' },
    endDate: { ...nullable(calendarDate), description: 'The last possible occurrence; null: no end.' },
    comment: { type: ['string', 'null'], maxLength: 2000, description: "Each order's comment." },
    billingAddressId: { ...nullable(idParam) },
    shippingAddressId: { ...nullable(idParam) },
    unavailableProducts,
  },
  ['source', 'interval', 'startDate'],
);

export const updateBody = objectSchema({
  name: { type: 'string', minLength: 1, maxLength: 255 },
  interval,
  startDate: calendarDate,
  endDate: nullable(calendarDate),
  comment: { type: ['string', 'null'], maxLength: 2000 },
  billingAddressId: nullable(idParam),
  shippingAddressId: nullable(idParam),
  unavailableProducts,
});

const occurrenceSchema = objectSchema(
  {
    id: { type: 'string' },
    dueDate: { type: 'string' },
    status: { type: 'string', enum: ['placed', 'approval', 'held', 'failed', 'skipped'] },
    reason: { type: ['string', 'null'] },
    errorCode: { type: ['string', 'null'] },
    orderId: { type: ['string', 'null'] },
    orderNumber: { type: ['string', 'null'] },
    approvalId: { type: ['string', 'null'] },
    changes: {
      type: 'array',
      items: objectSchema(
        {
          kind: { type: 'string', enum: ['price-changed', 'not-available', 'quantity-adjusted'] },
          productId: { type: 'string' },
          label: { type: 'string' },
          before: { type: 'integer' },
          after: { type: 'integer' },
        },
        ['kind', 'productId', 'label'],
      ),
    },
    createdAt: dateTimeSchema,
  },
  ['id', 'dueDate', 'status', 'changes', 'createdAt'],
);

export const recurringOrderSchema = objectSchema(
  {
    id: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['active', 'paused', 'cancelled', 'ended'] },
    source: { type: 'string' },
    sourceId: { type: ['string', 'null'] },
    owner: objectSchema(
      {
        type: { type: 'string' },
        id: { type: 'string' },
        name: { type: 'string' },
        email: { type: ['string', 'null'] },
      },
      ['type', 'id', 'name', 'email'],
    ),
    interval,
    startDate: { type: 'string' },
    endDate: { type: ['string', 'null'] },
    nextDate: { type: ['string', 'null'], description: 'The next occurrence; null when cancelled or ended.' },
    billingAddressId: { type: ['string', 'null'] },
    shippingAddressId: { type: ['string', 'null'] },
    comment: { type: ['string', 'null'] },
    unavailableProducts,
    occurrenceCount: { type: 'integer' },
    items: {
      type: 'array',
      items: objectSchema(
        {
          id: { type: 'string' },
          productId: { type: 'string' },
          label: { type: 'string' },
          quantity: { type: 'integer' },
        },
        ['id', 'productId', 'label', 'quantity'],
      ),
    },
    occurrences: { type: 'array', items: occurrenceSchema, description: 'The latest 50, newest first.' },
    createdAt: dateTimeSchema,
    updatedAt: { ...nullable(dateTimeSchema) },
  },
  [
    'id',
    'name',
    'status',
    'interval',
    'startDate',
    'nextDate',
    'unavailableProducts',
    'items',
    'occurrences',
    'createdAt',
  ],
);

export const criteriaSpec: CriteriaSpec = {
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    status: { column: 'status', type: 'string' },
    nextDate: { column: 'next_date', type: 'string' },
    startDate: { column: 'start_date', type: 'string' },
    ownerId: { column: 'owner_id', type: 'id' },
    createdAt: { column: 'created_at', type: 'date' },
  },
  termColumns: ['name'],
  defaultSort: [
    { column: 'created_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ],
  idColumn: 'id',
};

export const listBody = criteriaSchema(Object.keys(criteriaSpec.fields));
export const listResponse = storeListResponse(recurringOrderSchema);
