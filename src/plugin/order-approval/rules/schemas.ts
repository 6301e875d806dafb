import { criteriaSchema } from '../../../lib/criteria.js';
import { idSchema } from '../../../lib/ids.js';
import { moneySchema } from '../../../lib/money.js';
import { nullable, objectSchema } from '../../../lib/schemas.js';
import { storeListResponse } from '../../../lib/store-list.js';
import { dateTimeSchema } from '../../../lib/time.js';
import { APPROVAL_MODES } from '../repository.js';
import { APPLIES_TO, LEVEL_TYPES } from './model.js';
import { RULE_CRITERIA } from './repository.js';

export const TAG = 'Approval rules';
/** Create, change, delete and see the company's approval rules. */
export const MANAGE_RULES = 'order-approval.manage-rules';

const ids = (description: string) =>
  ({ type: 'array', minItems: 1, maxItems: 100, uniqueItems: true, items: idSchema, description }) as const;

export const conditionsSchema = objectSchema(
  {
    orderTotal: objectSchema(
      {
        currency: {
          type: 'string',
          pattern: '^[A-Z]{3}$',
          description: 'The order currency the limits are in; an order in another currency does not match.',
        },
        above: { ...moneySchema, description: 'Matches orders whose net total is above this amount.' },
        below: { ...moneySchema, description: 'Matches orders whose net total is below this amount.' },
      },
      ['currency'],
      { minProperties: 2 },
    ),
    roleIds: ids("The buyer's role on the company is one of these."),
    roleRequiresApproval: {
      type: 'boolean',
      const: true,
      description: "The buyer's role has the flag requiresApproval (the old role trigger).",
    },
    unitIds: ids('The buyer belongs to one of these organisation units or a unit below one of them.'),
    productIds: ids('The cart holds one of these products.'),
    categoryIds: ids('The cart holds a product of one of these categories.'),
    costCenterIds: ids("The order's cost center (chosen for it, else the buyer's default) is one of these."),
    budgetExceeded: {
      type: 'boolean',
      const: true,
      description: 'The order exceeds a budget of the buyer that allows approval (the old budget trigger).',
    },
    firstOrder: {
      type: 'boolean',
      const: true,
      description: 'The buyer (an employee) has placed no order for the company yet.',
    },
  },
  [],
  { description: 'All given conditions must hold; an empty object matches every order.' },
);

export const levelSchema = objectSchema(
  {
    name: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
    type: {
      enum: [...LEVEL_TYPES],
      description:
        "employees: the named employees; role: the employees holding a role; unit-managers: the managers of the buyer's units (of the nearest unit above where a unit has none); company-admins: the customer login and admin employees (one decides); approver-settings: who the customer settings name (any-approver, only-admins or n-of). Employees decide only with the permission order-approval.approve; a level nobody can decide goes to the company admins.",
    },
    employeeIds: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      items: idSchema,
      description: 'type employees: who.',
    },
    roleId: { ...idSchema, description: 'type role: which role.' },
    required: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 1,
      description: 'How many of them must approve (1: any one).',
    },
  },
  ['type'],
);

const writable = {
  name: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
  description: nullable({ type: 'string', maxLength: 2000 }),
  priority: {
    type: 'integer',
    minimum: 0,
    maximum: 1000000,
    description: 'Lower first; the first matching rule decides.',
  },
  active: { type: 'boolean' },
  appliesTo: {
    enum: [...APPLIES_TO],
    description:
      'orders: a matching order cannot be placed directly, it needs approval; requests: the rule only gives the chain when a buyer asks for approval of an order no order rule matches.',
  },
  conditions: conditionsSchema,
  levels: { type: 'array', minItems: 1, maxItems: 10, items: levelSchema },
  escalateAfterHours: nullable({
    type: 'integer',
    minimum: 1,
    maximum: 8760,
    description: 'A level waiting longer goes to the company admins (null: never).',
  }),
} as const;

export const createRuleBody = objectSchema(writable, ['name', 'priority', 'levels']);
export const updateRuleBody = objectSchema(writable, [], { minProperties: 1 });

const levelView = objectSchema(
  {
    name: { type: 'string' },
    type: { enum: [...LEVEL_TYPES] },
    employeeIds: { type: 'array', items: idSchema },
    roleId: idSchema,
    required: { type: 'integer' },
  },
  ['name', 'type', 'required'],
);
export const ruleSchema = objectSchema(
  {
    id: idSchema,
    name: { type: 'string' },
    description: nullable({ type: 'string' }),
    priority: { type: 'integer' },
    active: { type: 'boolean' },
    appliesTo: { enum: [...APPLIES_TO] },
    conditions: { type: 'object' },
    levels: { type: 'array', items: levelView },
    origin: nullable({
      enum: ['budget', 'role', 'request'],
      description: "The old trigger a rule was migrated from (null: the company's own rule).",
    }),
    escalateAfterHours: nullable({ type: 'integer' }),
    createdAt: dateTimeSchema,
    updatedAt: nullable(dateTimeSchema),
  },
  [
    'id',
    'name',
    'description',
    'priority',
    'active',
    'appliesTo',
    'conditions',
    'levels',
    'origin',
    'escalateAfterHours',
    'createdAt',
    'updatedAt',
  ],
);
export const ruleResponse = objectSchema({ success: { const: true }, rule: ruleSchema }, ['success', 'rule']);
export const ruleList = storeListResponse(ruleSchema);
export const ruleListBody = criteriaSchema(Object.keys(RULE_CRITERIA.fields));

const decisionView = objectSchema(
  {
    approverType: { enum: ['employee', 'customer'] },
    approverId: idSchema,
    approverName: { type: 'string' },
    decision: { enum: ['approved', 'declined'] },
    comment: nullable({ type: 'string' }),
    decidedAt: dateTimeSchema,
  },
  ['approverType', 'approverId', 'approverName', 'decision', 'comment', 'decidedAt'],
);
export const approvalLevelsResponse = objectSchema(
  {
    ruleId: nullable(idSchema),
    ruleName: nullable({ type: 'string' }),
    currentLevel: { type: 'integer', minimum: 1 },
    levels: {
      type: 'array',
      items: objectSchema(
        {
          level: { type: 'integer', minimum: 1 },
          name: { type: 'string' },
          type: { type: 'string' },
          status: {
            enum: ['waiting', 'pending', 'approved', 'declined'],
            description: 'waiting: not reached yet; pending: the current level.',
          },
          mode: { enum: [...APPROVAL_MODES] },
          nValue: { type: 'integer' },
          approverEmployeeIds: { type: 'array', items: idSchema },
          startedAt: nullable(dateTimeSchema),
          approvedAt: nullable(dateTimeSchema),
          escalatedAt: nullable(dateTimeSchema),
          decisions: {
            type: 'array',
            items: decisionView,
            description: 'The decisions of the current round at this level, oldest first.',
          },
        },
        [
          'level',
          'name',
          'type',
          'status',
          'mode',
          'nValue',
          'approverEmployeeIds',
          'startedAt',
          'approvedAt',
          'escalatedAt',
          'decisions',
        ],
      ),
    },
  },
  ['ruleId', 'ruleName', 'currentLevel', 'levels'],
);
