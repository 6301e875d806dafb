import { criteriaSchema } from '../../lib/criteria.js';
import { idSchema } from '../../lib/ids.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';
import { PERIOD_TYPES } from './periods.js';

const text = { type: 'string' } as const;
const amountSchema = { type: 'number', exclusiveMinimum: 0, maximum: 1e12 } as const;
const dateSchema = { type: 'string', format: 'date' } as const;
const idList = { type: 'array', maxItems: 500, uniqueItems: true, items: idSchema } as const;

const budgetFields = {
  name: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
  description: nullable({ type: 'string', maxLength: 2000 }),
  amount: amountSchema,
  currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  periodType: { enum: [...PERIOD_TYPES] },
  startDate: dateSchema,
  active: { type: 'boolean' },
  notificationPercentage: nullable({ type: 'integer', minimum: 1, maximum: 100 }),
  allowApproval: { type: 'boolean' },
  approverEmployeeId: nullable(idSchema),
  employeeIds: idList,
  categoryIds: idList,
  unitIds: {
    ...idList,
    description:
      'Organisation units the budget applies to: every employee of these units or of a unit below them. A budget with neither employees nor units applies to every employee.',
  },
} as const;

export const createBudgetBody = objectSchema(budgetFields, ['name', 'amount', 'periodType']);
/** PUT replaces the budget: every field a create needs. */
export const replaceBudgetBody = objectSchema(budgetFields, ['name', 'amount', 'periodType']);
export const patchBudgetBody = objectSchema(budgetFields, [], { minProperties: 1 });

export const budgetSchema = objectSchema(
  {
    id: text,
    name: text,
    description: nullable(text),
    amount: { type: 'number' },
    currency: text,
    periodType: { enum: [...PERIOD_TYPES] },
    startDate: text,
    active: { type: 'boolean' },
    notificationPercentage: nullable({ type: 'integer' }),
    allowApproval: { type: 'boolean' },
    approverEmployeeId: nullable(text),
    employeeIds: { type: 'array', items: text },
    categoryIds: { type: 'array', items: text },
    unitIds: { type: 'array', items: text },
    used: { type: 'number' },
    reserved: { type: 'number' },
    available: { type: 'number' },
    usagePercentage: { type: 'number' },
    periodStart: nullable(dateTimeSchema),
    periodEnd: nullable(dateTimeSchema),
    createdAt: dateTimeSchema,
    updatedAt: nullable(dateTimeSchema),
  },
  [
    'id',
    'name',
    'amount',
    'currency',
    'periodType',
    'startDate',
    'active',
    'allowApproval',
    'employeeIds',
    'categoryIds',
    'used',
    'reserved',
    'available',
    'usagePercentage',
    'periodStart',
    'periodEnd',
  ],
);

export const budgetResultResponse = objectSchema({ success: { const: true }, budget: budgetSchema }, [
  'success',
  'budget',
]);
export const budgetDeletedResponse = objectSchema({ success: { const: true } }, ['success']);
export const budgetListResponse = storeListResponse(budgetSchema);
export const budgetSearchBody = criteriaSchema([
  'id',
  'name',
  'active',
  'periodType',
  'allowApproval',
  'startDate',
  'createdAt',
]);

export const periodTypesResponse = storeListResponse(
  objectSchema({ id: { enum: [...PERIOD_TYPES] }, key: { enum: [...PERIOD_TYPES] }, label: text }, [
    'id',
    'key',
    'label',
  ]),
);

export const approvalEmployeesResponse = storeListResponse(
  objectSchema({ id: text, employeeId: text, firstName: text, lastName: text, name: text, email: text }, [
    'id',
    'employeeId',
    'name',
    'email',
  ]),
);

const state = nullable(objectSchema({ technicalName: text, name: text }, ['technicalName']));

export const budgetDataSchema = objectSchema(
  {
    budgetId: text,
    budgetLineItems: { type: 'array', items: { type: 'object' } },
    budgetProductCount: { type: 'integer' },
    totalProductCount: { type: 'integer' },
    budgetValue: { type: 'number' },
    totalOrderValue: { type: 'number' },
    budgetUsagePercentage: { type: 'number' },
    budgetProductRatio: { type: 'string', pattern: '^\\d+/\\d+$' },
  },
  [
    'budgetId',
    'budgetLineItems',
    'budgetProductCount',
    'totalProductCount',
    'budgetValue',
    'totalOrderValue',
    'budgetUsagePercentage',
    'budgetProductRatio',
  ],
);

export const budgetOrderSchema = objectSchema(
  {
    id: text,
    orderNumber: text,
    orderDate: dateTimeSchema,
    stateMachineState: state,
    currency: nullable({ type: 'object' }),
    totalPrice: { type: 'number' },
    netPrice: { type: 'number' },
    taxAmount: { type: 'number' },
    billingAddress: nullable({ type: 'object' }),
    orderCustomer: nullable({ type: 'object' }),
    deliveries: { type: 'array' },
    transactions: { type: 'array' },
    lineItems: { type: 'array' },
    documents: { type: 'array' },
    budgetData: budgetDataSchema,
  },
  [
    'id',
    'orderNumber',
    'orderDate',
    'stateMachineState',
    'currency',
    'totalPrice',
    'netPrice',
    'taxAmount',
    'billingAddress',
    'orderCustomer',
    'deliveries',
    'transactions',
    'lineItems',
    'documents',
    'budgetData',
  ],
);

/**
 * The spec's `{orders, total}` with the Store API list envelope beside it: clients written for the
 * shop platform read `elements` (the same orders), `page` and `limit`.
 */
export const budgetOrdersResponse = storeListResponse(budgetOrderSchema, {
  extra: { orders: { type: 'array', items: budgetOrderSchema } },
  extraRequired: ['orders'],
});
export const budgetOrdersBody = criteriaSchema(['orderId', 'orderNumber', 'orderDate']);
export const budgetOrdersQuery = objectSchema({
  page: { type: 'integer', minimum: 1 },
  limit: { type: 'integer', minimum: 1, maximum: 500 },
});
