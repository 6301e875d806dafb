import { idSchema } from '../../lib/ids.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';

export const TAG = 'Order again and automatic lists';

/** What order again reports per line, besides a plain copy. */
export const LINE_CHANGES = ['not-visible', 'price-changed', 'quantity-adjusted', 'out-of-stock'] as const;
export type LineChange = (typeof LINE_CHANGES)[number];

export const orderAgainBody = objectSchema(
  {
    target: { type: 'string', enum: ['cart', 'product-list'], description: 'Where the lines go (default: the cart).' },
    productListId: { ...idSchema, description: 'The product list to add to (target product-list).' },
  },
  [],
);

const error = nullable(
  objectSchema({ code: { type: 'string' }, detail: { type: 'string' }, meta: { type: 'object' } }, ['code', 'detail']),
);

export const orderAgainResponse = objectSchema(
  {
    success: { type: 'boolean', description: 'true when every line was added unchanged.' },
    target: { type: 'string', enum: ['cart', 'product-list'] },
    added: { type: 'integer', minimum: 0 },
    lines: {
      type: 'array',
      items: objectSchema(
        {
          lineItemId: { type: 'string' },
          productId: nullable(idSchema),
          productNumber: nullable({ type: 'string' }),
          label: { type: 'string' },
          orderedQuantity: { type: 'integer' },
          quantity: { type: 'integer', description: 'What was added (after the quantity rule); 0 when nothing.' },
          orderedUnitPrice: { type: 'number' },
          unitPrice: nullable({ type: 'number', description: "Today's net unit price; null when not visible." }),
          added: { type: 'boolean' },
          changes: { type: 'array', items: { type: 'string', enum: [...LINE_CHANGES] } },
          error,
        },
        [
          'lineItemId',
          'productId',
          'productNumber',
          'label',
          'orderedQuantity',
          'quantity',
          'orderedUnitPrice',
          'unitPrice',
          'added',
          'changes',
          'error',
        ],
      ),
    },
  },
  ['success', 'target', 'added', 'lines'],
);

export const MAX_LIST_LIMIT = 500;
const paging = {
  limit: { type: 'integer', minimum: 1, maximum: MAX_LIST_LIMIT, description: 'Default 25.' },
  page: { type: 'integer', minimum: 1, maximum: 100_000, description: 'Default 1.' },
} as const;

export const assortmentBody = objectSchema(paging, []);

export const frequentBody = objectSchema(
  {
    ...paging,
    from: { ...dateTimeSchema, description: 'Start of the window (default: 90 days before `to`).' },
    to: { ...dateTimeSchema, description: 'End of the window (default: now).' },
  },
  [],
);

export const exportBody = objectSchema(
  {
    list: { type: 'string', enum: ['assortment', 'frequent'] },
    from: dateTimeSchema,
    to: dateTimeSchema,
  },
  ['list'],
);

export const automaticItem = objectSchema(
  {
    id: { ...idSchema, description: 'The product id: an entry of an automatic list is its product.' },
    productId: idSchema,
    productNumber: nullable({ type: 'string' }),
    name: nullable({ type: 'string' }),
    visible: {
      type: 'boolean',
      description:
        'Always true: products the caller may not see today are left out of the list (kept for clients that read it).',
    },
    orderCount: { type: 'integer' },
    totalQuantity: { type: 'integer' },
    lastQuantity: nullable({ type: 'integer', description: 'The quantity of the last order ("my assortment").' }),
    lastOrderDate: dateTimeSchema,
  },
  [
    'id',
    'productId',
    'productNumber',
    'name',
    'visible',
    'orderCount',
    'totalQuantity',
    'lastQuantity',
    'lastOrderDate',
  ],
);

export const automaticList = storeListResponse(automaticItem);
