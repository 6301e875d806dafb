import { idSchema } from '../../../lib/ids.js';
import { nullable, objectSchema } from '../../../lib/schemas.js';
import { storeListResponse } from '../../../lib/store-list.js';

export const TAG = 'Company address book';
export const MANAGE = 'address.manage';

const line = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: '\\S' }) as const;
const unitIds = {
  type: 'array',
  maxItems: 100,
  uniqueItems: true,
  items: idSchema,
  description:
    'The organisation units whose buyers (and those of the units below) are offered the address; empty: a company address, offered to every buyer.',
} as const;

const addressFields = {
  company: nullable({ type: 'string', maxLength: 255 }),
  firstName: line(255),
  lastName: { type: 'string', maxLength: 255 },
  street: line(255),
  zipcode: line(32),
  city: line(255),
  countryCode: { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2.' },
  unitIds,
} as const;

export const createBody = objectSchema(addressFields, [
  'firstName',
  'lastName',
  'street',
  'zipcode',
  'city',
  'countryCode',
]);
export const updateBody = objectSchema(addressFields, [], { minProperties: 1 });

export const listBody = objectSchema({
  page: { type: 'integer', minimum: 1 },
  limit: { type: 'integer', minimum: 1, maximum: 500 },
  term: {
    type: 'string',
    maxLength: 255,
    description: 'Matches company, name, street, zip code or city (case-insensitive).',
  },
  unitId: { ...idSchema, description: 'Only the addresses of this unit.' },
  companyWide: {
    type: 'boolean',
    description: 'true: only the company addresses (no units); false: only unit addresses.',
  },
});

export const addressSchema = objectSchema(
  {
    id: idSchema,
    company: nullable({ type: 'string' }),
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    street: { type: 'string' },
    zipcode: { type: 'string' },
    city: { type: 'string' },
    countryCode: { type: 'string' },
    unitIds: { type: 'array', items: idSchema },
    offered: { type: 'boolean', description: 'Whether the caller may order to it.' },
    manageable: { type: 'boolean', description: 'Whether the caller may change or delete it.' },
  },
  [
    'id',
    'company',
    'firstName',
    'lastName',
    'street',
    'zipcode',
    'city',
    'countryCode',
    'unitIds',
    'offered',
    'manageable',
  ],
);
export const addressList = storeListResponse(addressSchema);
export const addressResponse = objectSchema({ success: { const: true }, address: addressSchema }, [
  'success',
  'address',
]);

export const checkoutAddressesResponse = storeListResponse(addressSchema, {
  extra: {
    defaultBillingAddressId: nullable({
      ...idSchema,
      description:
        "The nearest of the buyer's units (going up) with a default decides; else the company's default if it is offered.",
    }),
    defaultShippingAddressId: nullable(idSchema),
  },
  extraRequired: ['defaultBillingAddressId', 'defaultShippingAddressId'],
});

export const unitDefaultsBody = objectSchema(
  { billingAddressId: nullable(idSchema), shippingAddressId: nullable(idSchema) },
  [],
  { minProperties: 1 },
);
export const unitDefaultsResponse = objectSchema(
  { unitId: idSchema, billingAddressId: nullable(idSchema), shippingAddressId: nullable(idSchema) },
  ['unitId', 'billingAddressId', 'shippingAddressId'],
);
