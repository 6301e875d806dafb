import { storeListResponse } from '../../lib/store-list.js';
import { criteriaSchema } from '../../lib/criteria.js';
import { idSchema } from '../../lib/ids.js';
import { lineItemViewSchema } from '../../lib/line-items.js';
import { emptyBody, nullable, objectSchema } from '../../lib/schemas.js';
import { dateTimeSchema } from '../../lib/time.js';
import { APPROVAL_MODES } from './repository.js';

const text = { type: 'string' } as const;
const comment = { type: 'string', maxLength: 2000 } as const;
const ccEmployeeIds = { type: 'array', maxItems: 100, uniqueItems: true, items: idSchema } as const;

export { emptyBody };

export const executionResultSchema = objectSchema(
  {
    success: { type: 'boolean' },
    orderId: text,
    orderNumber: text,
    paymentUrl: text,
    requiresPaymentAction: { type: 'boolean' },
    errorMessage: text,
    errors: { type: 'array', items: text },
    warnings: { type: 'array', items: text },
  },
  ['success', 'requiresPaymentAction', 'errors', 'warnings'],
);

export const refreshResultSchema = objectSchema(
  {
    isValid: { type: 'boolean' },
    isBlocked: { type: 'boolean' },
    blockReasons: { type: 'array', items: text },
    hasChanges: { type: 'boolean' },
    changes: { type: 'array', items: { type: 'object' } },
    requiresReapproval: { type: 'boolean' },
  },
  ['isValid', 'isBlocked', 'blockReasons', 'hasChanges', 'changes', 'requiresReapproval'],
);

export const settingsSchema = objectSchema(
  {
    mode: { enum: [...APPROVAL_MODES] },
    approverEmployeeIds: { type: 'array', items: text },
    nValue: { type: 'integer' },
  },
  ['mode', 'approverEmployeeIds', 'nValue'],
);

export const settingsBody = objectSchema(
  {
    mode: { enum: [...APPROVAL_MODES] },
    approverEmployeeIds: { type: 'array', maxItems: 100, uniqueItems: true, items: idSchema },
    nValue: { type: 'integer', minimum: 1, maximum: 100 },
  },
  ['mode'],
);

export const activitySchema = objectSchema(
  {
    id: text,
    action: text,
    employeeName: text,
    actorType: text,
    actorId: nullable(text),
    comment: text,
    metadata: { type: 'object' },
    createdAt: dateTimeSchema,
  },
  ['id', 'action', 'employeeName', 'comment', 'metadata', 'createdAt'],
);

export const approverStatusSchema = objectSchema(
  {
    approvers: {
      type: 'array',
      items: objectSchema(
        {
          employeeId: text,
          employeeName: text,
          type: { enum: ['employee', 'customer'] },
          status: { enum: ['pending', 'approved', 'declined', 'not-needed'] },
          canApprove: { type: 'boolean' },
        },
        ['employeeId', 'employeeName', 'type', 'status', 'canApprove'],
      ),
    },
    isApproved: { type: 'boolean' },
    isDeclined: { type: 'boolean' },
  },
  ['approvers', 'isApproved', 'isDeclined'],
);

export const budgetSummarySchema = objectSchema(
  {
    budgetId: text,
    totalReserved: { type: 'number' },
    pendingApprovals: { type: 'number' },
    orderApprovals: {
      type: 'array',
      items: objectSchema(
        {
          id: text,
          approvalNumber: text,
          status: text,
          reservedAmount: { type: 'number' },
          exceedsBudget: { type: 'boolean' },
          requesterName: text,
          createdAt: dateTimeSchema,
        },
        ['id', 'status', 'reservedAmount'],
      ),
    },
  },
  ['budgetId', 'totalReserved', 'pendingApprovals', 'orderApprovals'],
);

const approvalProperties = {
  id: text,
  approvalNumber: text,
  status: { enum: ['pending', 'approved', 'declined', 'ordered'] },
  isApproved: { type: 'boolean' },
  isDeclined: { type: 'boolean' },
  isOrdered: { type: 'boolean' },
  isBlocked: { type: 'boolean' },
  blockReasons: { type: 'array', items: text },
  reasons: { type: 'array', items: { enum: ['role', 'budget', 'requested', 'rule'] } },
  requester: objectSchema({ type: text, id: text, name: text, email: nullable(text) }, ['type', 'id', 'name', 'email']),
  customerComment: nullable(text),
  mode: { enum: [...APPROVAL_MODES] },
  nValue: { type: 'integer' },
  approverEmployeeIds: { type: 'array', items: text },
  currency: text,
  netPrice: { type: 'number' },
  taxAmount: { type: 'number' },
  totalPrice: { type: 'number' },
  billingAddressId: nullable(text),
  shippingAddressId: nullable(text),
  /** The methods the approved order is placed with (null: the checkout's default). */
  paymentMethod: nullable(text),
  shippingMethod: nullable(text),
  orderId: nullable(text),
  orderNumber: nullable(text),
  executionResult: nullable(executionResultSchema),
  lastRefreshedAt: nullable(dateTimeSchema),
  decidedAt: nullable(dateTimeSchema),
  createdAt: dateTimeSchema,
  updatedAt: nullable(dateTimeSchema),
} as const;
/** Every field of an approval is always there (null where it has no value): approvalView builds them all. */
const approvalRequired = Object.keys(approvalProperties) as Array<keyof typeof approvalProperties>;

export const approvalListItemSchema = objectSchema(
  { ...approvalProperties, lineItemCount: { type: 'integer' } },
  approvalRequired,
);
export const approvalDetailSchema = objectSchema(
  {
    ...approvalProperties,
    lineItems: { type: 'array', items: lineItemViewSchema },
    budgets: {
      type: 'array',
      items: objectSchema(
        { budgetId: text, name: text, reservedAmount: { type: 'number' }, exceedsBudget: { type: 'boolean' } },
        ['budgetId', 'name', 'reservedAmount', 'exceedsBudget'],
      ),
    },
  },
  [...approvalRequired, 'lineItems', 'budgets'],
);
export const approvalListResponse = objectSchema(
  { total: { type: 'integer', minimum: 0 }, data: { type: 'array', items: approvalListItemSchema } },
  ['total', 'data'],
);
/** The same list in the platform's search result, where the real product's clients read `elements` (decision 0048). */
export const approvalStoreList = storeListResponse(approvalListItemSchema);
export const approvalSearchBody = criteriaSchema<{ decidedByMe?: boolean }>(
  ['id', 'approvalNumber', 'status', 'requesterId', 'requesterType', 'isBlocked', 'createdAt', 'updatedAt'],
  {
    decidedByMe: {
      type: 'boolean',
      description:
        'true: only approvals the caller approved or declined (at any level, also one that has passed on to the next level).',
    },
  },
);

/** A technical name of /payment-method or /shipping-method. */
const methodName = { type: 'string', minLength: 1, maxLength: 64 } as const;

export const createBody = objectSchema(
  {
    cartToken: { type: 'string', minLength: 1, maxLength: 64 },
    customerComment: nullable(comment),
    billingAddressId: nullable(idSchema),
    shippingAddressId: nullable(idSchema),
    paymentMethod: nullable(methodName),
    shippingMethod: nullable(methodName),
  },
  ['cartToken'],
);
export const UPDATABLE_FIELDS = ['customerComment', 'billingAddressId', 'shippingAddressId'] as const;
export const updateBody = objectSchema(
  { customerComment: nullable(comment), billingAddressId: nullable(idSchema), shippingAddressId: nullable(idSchema) },
  [],
  {
    description: `At least one of ${UPDATABLE_FIELDS.join(', ')}; an empty body is a 400 SUITE__APPROVAL_UPDATE_EMPTY naming them.`,
  },
);
const decisionLevel = {
  type: 'integer',
  minimum: 1,
  maximum: 10,
  description:
    "The level of the approval rule's chain this decision is for; when the approval has passed it meanwhile, 400 SUITE__ORDER_APPROVAL_LEVEL_DECIDED (without it: the current level).",
} as const;
export const approveBody = objectSchema({ comment: nullable(comment), ccEmployeeIds, level: decisionLevel });
export const declineBody = objectSchema(
  { comment: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S' }, ccEmployeeIds, level: decisionLevel },
  ['comment'],
);
export const executeBody = objectSchema({ skipRefresh: { type: 'boolean', default: false } });
export const refreshBody = objectSchema({
  force: { type: 'boolean', default: false },
  sendEmailOnChanges: { type: 'boolean', default: false },
});
export const remindBody = objectSchema({ approverId: idSchema }, ['approverId']);
export const lineItemPatchBody = objectSchema({ quantity: { type: 'integer', minimum: 1, maximum: 100000 } }, [
  'quantity',
]);
export const lineItemDeleteBody = objectSchema(
  { reason: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S' } },
  ['reason'],
);
