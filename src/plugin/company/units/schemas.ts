import { criteriaSchema, type CriteriaSpec } from '../../../lib/criteria.js';
import { idSchema } from '../../../lib/ids.js';
import { nullable, objectSchema } from '../../../lib/schemas.js';
import { storeListResponse } from '../../../lib/store-list.js';
import { dateTimeSchema } from '../../../lib/time.js';
import { UNITS } from './repository.js';

export const TAG = 'Organisation units';

export const READ = 'organisation-unit.read';
export const MANAGE = 'organisation-unit.manage';
/** See the orders placed by the employees of one's units and the units below them. */
export const READ_UNIT_ORDERS = 'orders.read-unit';

const name = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[^>]*[^>\\s][^>]*$',
  description: 'Unique among the units with the same parent; no ">" (it separates the names of a path in CSV files).',
} as const;
const parentId = nullable({ ...idSchema, description: 'The unit above; null: a top-level unit of the company.' });

export const createBody = objectSchema({ name, parentId }, ['name']);
export const updateBody = objectSchema(
  {
    name,
    parentId: {
      ...parentId,
      description:
        'Moves the unit (with its subtree) under another unit; null: to the top level. A unit cannot move under itself or below itself.',
    },
  },
  [],
  { minProperties: 1 },
);
export const deleteQuery = objectSchema({
  moveTo: {
    ...idSchema,
    description:
      'Where the sub-units, members, budgets, addresses and defaults of the deleted unit go; without it a unit that has any of them is not deleted (400 SUITE__UNIT_NOT_EMPTY).',
  },
});

const memberSchema = objectSchema(
  { employeeId: idSchema, name: { type: 'string' }, email: { type: 'string' }, isManager: { type: 'boolean' } },
  ['employeeId', 'name', 'email', 'isManager'],
);

export const unitSchema = objectSchema(
  {
    id: idSchema,
    parentId: nullable(idSchema),
    name: { type: 'string' },
    path: {
      type: 'array',
      items: { type: 'string' },
      description: 'The names from the top-level unit down to this one.',
    },
    depth: { type: 'integer', minimum: 0 },
    childIds: { type: 'array', items: idSchema },
    members: { type: 'array', items: memberSchema },
    managerIds: {
      type: 'array',
      items: idSchema,
      description: 'The managers responsible for the unit: its own, else those of the nearest unit above with some.',
    },
    createdAt: dateTimeSchema,
    updatedAt: nullable(dateTimeSchema),
  },
  ['id', 'parentId', 'name', 'path', 'depth', 'childIds', 'members', 'managerIds', 'createdAt', 'updatedAt'],
);
export const unitList = storeListResponse(unitSchema);
export const unitResponse = objectSchema({ success: { const: true }, unit: unitSchema }, ['success', 'unit']);
export const treeResponse = storeListResponse(unitSchema);

export const UNIT_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: `${UNITS}.id`, type: 'id' },
    name: { column: `${UNITS}.name`, type: 'string' },
    parentId: { column: `${UNITS}.parent_id`, type: 'id' },
    createdAt: { column: `${UNITS}.created_at`, type: 'date' },
  },
  termColumns: [`${UNITS}.name`],
  defaultSort: [
    { column: `${UNITS}.name`, order: 'asc' },
    { column: `${UNITS}.id`, order: 'asc' },
  ],
  idColumn: `${UNITS}.id`,
};
export const listBody = criteriaSchema(Object.keys(UNIT_CRITERIA.fields));

export const memberBody = objectSchema({
  isManager: { type: 'boolean', description: 'Whether the employee manages the unit (default false).' },
});
export const moveEmployeeBody = objectSchema(
  {
    employeeId: idSchema,
    fromUnitId: nullable({
      ...idSchema,
      description: 'The unit the employee leaves; null: the employee only joins `toUnitId`.',
    }),
    toUnitId: idSchema,
    isManager: { type: 'boolean', description: 'Manager of the new unit (default: as in the unit left, else false).' },
  },
  ['employeeId', 'fromUnitId', 'toUnitId'],
);
export const membershipResponse = objectSchema(
  {
    success: { const: true },
    employeeId: idSchema,
    unitIds: { type: 'array', items: idSchema, description: "The employee's units after the change." },
  },
  ['success', 'employeeId', 'unitIds'],
);
