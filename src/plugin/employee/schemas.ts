import { criteriaSchema } from '../../lib/criteria.js';
import { CURSOR_PROPERTY } from '../../lib/keyset.js';
import { idParam, nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { emailSchema, nameSchema, optionalText, passwordSchema, storefrontUrlSchema } from './common.js';

const time = { type: 'string', format: 'date-time' } as const;

export const employeeSchema = objectSchema(
  {
    id: { type: 'string' },
    employeeId: { type: 'string', description: 'The same as id: the name the spec gives an employee id.' },
    email: { type: 'string' },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    department: nullable({ type: 'string' }),
    roleId: nullable({ type: 'string' }),
    roleName: nullable({ type: 'string' }),
    active: { type: 'boolean' },
    activated: { type: 'boolean' },
    createdAt: time,
    updatedAt: nullable(time),
  },
  [
    'id',
    'employeeId',
    'email',
    'firstName',
    'lastName',
    'department',
    'roleId',
    'roleName',
    'active',
    'activated',
    'createdAt',
    'updatedAt',
  ],
);

export const employeeListResponse = storeListResponse(employeeSchema);
export const employeeSearchBody = criteriaSchema(
  ['id', 'email', 'firstName', 'lastName', 'department', 'roleId', 'active', 'createdAt'],
  { cursor: CURSOR_PROPERTY },
);

const nullableId = nullable(idParam);

export const createEmployeeBody = objectSchema(
  {
    email: emailSchema,
    firstName: nameSchema,
    lastName: nameSchema,
    department: optionalText,
    roleId: nullableId,
    active: { type: 'boolean' },
    password: passwordSchema,
  },
  ['email', 'firstName', 'lastName', 'password'],
);

export const addEmployeeBody = objectSchema(
  {
    email: emailSchema,
    firstName: nameSchema,
    lastName: nameSchema,
    department: optionalText,
    roleId: nullableId,
    storefrontUrl: storefrontUrlSchema,
  },
  // The spec's add takes e-mail and role; names the invited person gives when accepting.
  ['email'],
);

export const addEmployeeResponse = objectSchema({ success: { const: true }, invitationId: { type: 'string' } }, [
  'success',
  'invitationId',
]);

export const patchEmployeeBody = objectSchema(
  {
    email: emailSchema,
    firstName: nameSchema,
    lastName: nameSchema,
    department: optionalText,
    roleId: nullableId,
    active: { type: 'boolean' },
  },
  [],
  { minProperties: 1 },
);

export const employeeResultResponse = objectSchema({ success: { const: true }, employee: employeeSchema }, [
  'success',
  'employee',
]);

export const customerTargetSchema = objectSchema(
  {
    id: { type: 'string' },
    customerNumber: { type: 'string' },
    company: nullable({ type: 'string' }),
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    email: { type: 'string' },
    roleId: nullable({ type: 'string' }),
    roleName: nullable({ type: 'string' }),
    current: { type: 'boolean' },
  },
  ['id', 'customerNumber', 'company', 'firstName', 'lastName', 'email', 'roleId', 'roleName', 'current'],
);

export const customerTargetList = storeListResponse(customerTargetSchema);
export const employeeCustomersBody = criteriaSchema(['id', 'customerNumber', 'company']);
export const switchCustomerBody = objectSchema({ customerId: idParam }, ['customerId']);
export const contextTokenResponse = objectSchema({ contextToken: { type: 'string' }, customerId: { type: 'string' } }, [
  'contextToken',
  'customerId',
]);
