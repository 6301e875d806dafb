import { criteriaSchema, MAX_LIMIT, type CriteriaSpec } from '../../lib/criteria.js';
import { idParam, nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';
import { employeeCriteria, employeeSchema } from '../employee/index.js';

const text = { type: 'string' } as const;
const nullableText = nullable(text);
const amount = { type: 'number' } as const;

export const emailSchema = { type: 'string', format: 'email', minLength: 3, maxLength: 255 } as const;
export const passwordSchema = { type: 'string', minLength: 8, maxLength: 1024 } as const;
export const nameSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' } as const;
export const phoneSchema = nullable({ type: 'string', maxLength: 64 });

export const pagingQuery = {
  page: { type: 'integer', minimum: 1, default: 1 },
  limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: 25 },
} as const;

/** The representative as a customer or employee sees them. */
export const representativeContactSchema = objectSchema(
  { id: text, email: text, firstName: text, lastName: text, phone: nullableText },
  ['id', 'email', 'firstName', 'lastName', 'phone'],
);

/** The spec: the representative as the platform's customer response (a customer entity, `apiAlias` "customer"). */
export const representativeCustomerResponse = objectSchema(
  { id: text, apiAlias: { const: 'customer' }, email: text, firstName: text, lastName: text, phone: nullableText },
  ['id', 'apiAlias', 'email', 'firstName', 'lastName', 'phone'],
);

export const representativeSchema = objectSchema(
  {
    id: text,
    email: text,
    firstName: text,
    lastName: text,
    phone: nullableText,
    active: { type: 'boolean' },
    createdAt: dateTimeSchema,
    updatedAt: nullable(dateTimeSchema),
  },
  ['id', 'email', 'firstName', 'lastName', 'phone', 'active', 'createdAt', 'updatedAt'],
);

export const profilePatchBody = objectSchema(
  { email: emailSchema, firstName: nameSchema, lastName: nameSchema, phone: phoneSchema },
  [],
  { minProperties: 1 },
);

export const switchCustomerBody = objectSchema({ customerId: idParam }, ['customerId']);
export const contextTokenResponse = objectSchema({ contextToken: text, customerId: text }, [
  'contextToken',
  'customerId',
]);

/** Customer fields the customer lists filter and sort on (those of the host's `customers.search`). */
export const customerCriteriaBody = criteriaSchema([
  'id',
  'customerNumber',
  'company',
  'email',
  'firstName',
  'lastName',
  'groupId',
]);

/**
 * The customer search's body: the criteria, and `search`, the term as the real product's storefront
 * connector sends it (decision 0048); one of the two.
 */
export const customerSearchBody = criteriaSchema<{ search?: string }>(
  ['id', 'customerNumber', 'company', 'email', 'firstName', 'lastName', 'groupId'],
  {
    search: {
      type: 'string',
      maxLength: 255,
      description: 'The term as the real product’s clients send it: company, number, e-mail, name (as `term`).',
    },
  },
);

const customerProperties = {
  id: text,
  customerNumber: text,
  company: nullableText,
  email: text,
  firstName: text,
  lastName: text,
  groupId: nullableText,
  current: { type: 'boolean' },
} as const;
const customerRequired = [
  'id',
  'customerNumber',
  'company',
  'email',
  'firstName',
  'lastName',
  'groupId',
  'current',
] as const;
export const customerSchema = objectSchema(customerProperties, customerRequired);
export const customerWithStatsSchema = objectSchema(
  {
    ...customerProperties,
    orderCount: { type: 'integer', minimum: 0 },
    revenue: amount,
    lastOrderDate: nullable(dateTimeSchema),
  },
  [...customerRequired, 'orderCount', 'revenue', 'lastOrderDate'],
);

/** Order fields the order lists filter and sort on (those of the host's `orders.search`). */
export const ORDER_FIELDS = ['id', 'orderNumber', 'orderDate', 'customerId', 'state', 'placedByType', 'placedById'];
export const orderCriteriaBody = criteriaSchema(ORDER_FIELDS);

/** Orders in the host's Store API order shape (documented by GET /order/{orderId}). */
export const orderItemSchema = {
  type: 'object',
  additionalProperties: true,
  required: ['id', 'orderNumber', 'orderDate'],
  properties: { id: text, orderNumber: text, orderDate: dateTimeSchema },
} as const;
export const orderListResponse = storeListResponse(orderItemSchema);
/** The spec: "array of orders of the customer". */
export const orderArrayResponse = { type: 'array', items: orderItemSchema } as const;

export const representativeEmployeeCriteria: CriteriaSpec = {
  ...employeeCriteria,
  fields: { ...employeeCriteria.fields, customerId: { column: 'ec.customer_id', type: 'id' } },
  // The term also searches the customer's company: see employeesOfLinks.
  defaultSort: [...employeeCriteria.defaultSort, { column: 'ec.customer_id', order: 'asc' }],
};
export const employeeCriteriaBody = criteriaSchema(Object.keys(representativeEmployeeCriteria.fields));
const employeeProperties = employeeSchema.properties;
const employeeRequired = employeeSchema.required;
export const customerEmployeeSchema = objectSchema({ ...employeeProperties, customerId: text, company: nullableText }, [
  ...employeeRequired,
  'customerId',
  'company',
]);

const statisticsInput = {
  customerId: { ...idParam, description: 'An assigned customer; without it, all assigned customers together.' },
  months: { type: 'integer', minimum: 1, maximum: 36, description: 'How many calendar months (default 12).' },
} as const;
export const statisticsQuery = objectSchema(statisticsInput, []);
/** The same in the body, where the real product's storefront connector sends it (decision 0048). */
export const statisticsBody = objectSchema(statisticsInput, []);
const figures = { revenue: amount, orderCount: { type: 'integer', minimum: 0 }, averageOrderValue: amount } as const;
export const statisticsResponse = objectSchema(
  {
    customerId: nullable({ type: 'string', description: 'null: all assigned customers together.' }),
    currency: text,
    revenueBasis: { const: 'net' },
    months: {
      type: 'array',
      items: objectSchema(
        { month: { type: 'string', pattern: '^\\d{4}-\\d{2}$' }, from: dateTimeSchema, to: dateTimeSchema, ...figures },
        ['month', 'from', 'to', 'revenue', 'orderCount', 'averageOrderValue'],
      ),
    },
    total: objectSchema(figures, ['revenue', 'orderCount', 'averageOrderValue']),
  },
  ['customerId', 'currency', 'revenueBasis', 'months', 'total'],
);

export const rankingBody = objectSchema({
  customerId: { type: 'string', pattern: '^[0-9a-f]{32}$' },
  from: dateTimeSchema,
  to: dateTimeSchema,
  ...pagingQuery,
});
export const rankingResponse = storeListResponse(
  objectSchema(
    {
      id: text,
      rank: { type: 'integer', minimum: 1 },
      customerId: text,
      customerNumber: text,
      company: nullableText,
      revenue: amount,
      orderCount: { type: 'integer', minimum: 0 },
    },
    ['id', 'rank', 'customerId', 'customerNumber', 'company', 'revenue', 'orderCount'],
  ),
);

/** The last-orders list filters on these order fields; its term also searches the customer's company and number. */
export const lastOrdersBody = criteriaSchema(['customerId', 'orderDate', 'orderNumber', 'state']);

/** The abandoned carts of the representative's customers: how long untouched, how many. */
export const abandonedCartsBody = objectSchema(
  {
    idleHours: {
      type: 'integer',
      minimum: 1,
      maximum: 2160,
      default: 24,
      description:
        'A cart counts as abandoned when nobody changed it for this many hours (default 24, at most 90 days).',
    },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: 25 },
  },
  [],
);

const abandonedCartSchema = objectSchema(
  {
    id: { ...text, description: "The cart's id in this list (not its token, which stays the buyer's)." },
    customerId: text,
    customerNumber: text,
    company: nullableText,
    buyer: nullable(objectSchema({ type: text, id: text }, ['type', 'id'])),
    updatedAt: dateTimeSchema,
    quantity: { type: 'integer', minimum: 1 },
    lineItems: {
      type: 'array',
      items: objectSchema({ productId: nullableText, label: text, quantity: { type: 'integer', minimum: 1 } }, [
        'productId',
        'label',
        'quantity',
      ]),
    },
  },
  ['id', 'customerId', 'customerNumber', 'company', 'buyer', 'updatedAt', 'quantity', 'lineItems'],
);

export const abandonedCartsResponse = storeListResponse(abandonedCartSchema);
