import { criteriaSchema, type CriteriaSpec } from '../../lib/criteria.js';
import { idSchema } from '../../lib/ids.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';

export const TAG = 'Cost centers';

export const COST_CENTERS = 'suite_cost_centers';
export const DEFAULTS = 'suite_cost_center_defaults';
export const SELECTIONS = 'suite_cost_center_selections';
/** A unit's default cost center (migration 022). */
export const UNIT_DEFAULTS = 'suite_cost_center_units';

/** See every cost center (also inactive ones); without it a login sees the active ones it may choose. */
export const READ = 'cost-center.read';
/** Create, change and delete cost centers, and set other logins' defaults. */
export const MANAGE = 'cost-center.manage';
/** Choosing the cost center of one's next order is part of ordering. */
export const ORDERING = 'orders.create';

const writable = {
  number: {
    type: 'string',
    minLength: 1,
    maxLength: 64,
    pattern: '\\S',
    description: 'The cost center number the accounting uses; unique per company.',
  },
  name: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
  description: nullable({ type: 'string', maxLength: 2000 }),
  active: { type: 'boolean', description: 'Inactive cost centers cannot be chosen for orders (default true).' },
} as const;

export const createBody = objectSchema(writable, ['number', 'name']);
export const updateBody = objectSchema(writable, [], { minProperties: 1 });

export const costCenterSchema = objectSchema(
  {
    id: idSchema,
    costCenterId: idSchema,
    customerId: { ...idSchema, description: 'The company the cost center belongs to.' },
    number: { type: 'string' },
    name: { type: 'string' },
    description: nullable({ type: 'string' }),
    active: { type: 'boolean' },
    isDefault: { type: 'boolean', description: "Whether it is the caller's default cost center." },
    createdAt: dateTimeSchema,
    updatedAt: nullable(dateTimeSchema),
  },
  [
    'id',
    'costCenterId',
    'customerId',
    'number',
    'name',
    'description',
    'active',
    'isDefault',
    'createdAt',
    'updatedAt',
  ],
);
export const costCenterList = storeListResponse(costCenterSchema);
export const costCenterResponse = objectSchema({ success: { const: true }, costCenter: costCenterSchema }, [
  'success',
  'costCenter',
]);
/** The /b2b create answer: the new id also at the top level, where clients written for the shop platform read a created record's id. */
export const costCenterCreatedResponse = objectSchema(
  { success: { const: true }, id: idSchema, costCenter: costCenterSchema },
  ['success', 'id', 'costCenter'],
);
/**
 * The /b2b bodies as the real product's storefront connector sends them (its cost center record):
 * also `customerId` — the caller's company, or for a sales representative one of its customers
 * (decision 0048).
 */
const customerIdField = {
  customerId: {
    ...idSchema,
    description:
      "The company: the caller's own (anything else is a 404); a sales representative names one of its assigned customers.",
  },
} as const;
export const b2bCreateBody = objectSchema({ ...writable, ...customerIdField }, ['number', 'name']);
export const b2bUpdateBody = objectSchema({ ...writable, ...customerIdField }, [], { minProperties: 1 });
/** The /b2b answer of a write: the record at the top level (where the connector reads it), and as before. */
export const b2bCostCenterAnswer = objectSchema(
  {
    success: { const: true },
    ...costCenterSchema.properties,
    costCenter: costCenterSchema,
  },
  ['success', ...costCenterSchema.required, 'costCenter'],
);
export const listQuery = objectSchema({
  page: { type: 'integer', minimum: 1 },
  limit: { type: 'integer', minimum: 1, maximum: 500 },
  term: { type: 'string', maxLength: 255 },
});

export const COST_CENTER_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: `${COST_CENTERS}.id`, type: 'id' },
    number: { column: `${COST_CENTERS}.number`, type: 'string' },
    name: { column: `${COST_CENTERS}.name`, type: 'string' },
    active: { column: `${COST_CENTERS}.active`, type: 'boolean' },
    createdAt: { column: `${COST_CENTERS}.created_at`, type: 'date' },
  },
  termColumns: [`${COST_CENTERS}.number`, `${COST_CENTERS}.name`],
  defaultSort: [
    { column: `${COST_CENTERS}.number`, order: 'asc' },
    { column: `${COST_CENTERS}.id`, order: 'asc' },
  ],
  idColumn: `${COST_CENTERS}.id`,
};
export const listBody = criteriaSchema(Object.keys(COST_CENTER_CRITERIA.fields));

/** What an order keeps of its cost center (in its custom fields, key `costCenter`), and what the checkout answers. */
export const costCenterRefSchema = objectSchema(
  { id: idSchema, number: { type: 'string' }, name: { type: 'string' } },
  ['id', 'number', 'name'],
);

export const defaultBody = objectSchema(
  {
    costCenterId: nullable({ ...idSchema, description: 'null removes the default.' }),
    employeeId: {
      ...idSchema,
      description:
        "Whose default (an employee of the company); without it, the caller's own. Another employee's needs cost-center.manage.",
    },
  },
  ['costCenterId'],
);
export const defaultResponse = objectSchema(
  {
    actorType: { enum: ['customer', 'employee', 'salesRepresentative'] },
    actorId: idSchema,
    costCenter: nullable(costCenterRefSchema),
  },
  ['actorType', 'actorId', 'costCenter'],
);

export const checkoutBody = objectSchema(
  { costCenterId: nullable({ ...idSchema, description: 'null: the next order takes the default again.' }) },
  ['costCenterId'],
);
export const checkoutResponse = objectSchema(
  {
    costCenter: nullable({
      ...costCenterRefSchema,
      description: 'The cost center the next order gets: the chosen one, else the default; null when neither.',
    }),
    chosen: {
      type: 'boolean',
      description: 'true when it was chosen for the next order, false when it is the default (or none).',
    },
  },
  ['costCenter', 'chosen'],
);

export const unitCostCenterBody = objectSchema(
  { costCenterId: nullable({ ...idSchema, description: "null removes the unit's default." }) },
  ['costCenterId'],
);
export const unitCostCenterResponse = objectSchema(
  {
    unitId: idSchema,
    costCenter: nullable({
      ...costCenterRefSchema,
      description:
        "The unit's own default cost center: the employees of its subtree without a default of their own get it.",
    }),
  },
  ['unitId', 'costCenter'],
);
