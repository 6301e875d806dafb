import { moneySchema } from '../../lib/money.js';
import { nullable, objectSchema, pathParams } from '../../lib/schemas.js';

export const TAG = 'Payment on account';
export const ADMIN_TAG = 'Admin: Payment on account';

const currencyIso = { type: 'string', pattern: '^[A-Z]{3}$' } as const;

export const termsSchema = objectSchema(
  {
    daysNet: { type: 'integer', minimum: 0, maximum: 365 },
    discountPercent: { type: 'number', minimum: 0, maximum: 100, multipleOf: 0.01 },
    discountDays: { type: 'integer', minimum: 0, maximum: 365 },
  },
  ['daysNet', 'discountPercent', 'discountDays'],
);

export const creditLineSchema = objectSchema(
  {
    limit: { type: 'number' },
    currencyIso: { type: 'string' },
    balance: { type: 'number' },
    remaining: { type: 'number' },
  },
  ['limit', 'currencyIso', 'balance', 'remaining'],
);

/** What checkout shows the buyer. */
export const accountResponse = objectSchema(
  {
    paymentMethod: { type: 'string' },
    creditLine: nullable(creditLineSchema),
    paymentTerms: nullable(termsSchema),
    apiAlias: { const: 'b2b_payment_on_account' },
  },
  ['paymentMethod', 'creditLine', 'paymentTerms', 'apiAlias'],
);

export const customerParams = pathParams('customerId');
export const customerUnitParams = pathParams('customerId', 'unitId');

export const creditLineBody = objectSchema({ limit: moneySchema, currencyIso }, ['limit', 'currencyIso']);

const resource = <const T extends string, const A extends Record<string, unknown>>(type: T, attributes: A) =>
  objectSchema(
    { data: objectSchema({ id: { type: 'string' }, type: { const: type }, attributes }, ['id', 'type', 'attributes']) },
    ['data'],
  );

export const creditLineResponse = resource('b2b_credit_line', creditLineSchema);
export const termsResponse = resource('b2b_payment_terms', termsSchema);

export const unitTermsListResponse = objectSchema(
  {
    data: {
      type: 'array',
      items: objectSchema(
        {
          id: { type: 'string' },
          type: { const: 'b2b_unit_payment_terms' },
          attributes: objectSchema(
            { path: { type: 'array', items: { type: 'string' } }, paymentTerms: nullable(termsSchema) },
            ['path', 'paymentTerms'],
          ),
        },
        ['id', 'type', 'attributes'],
      ),
    },
    meta: objectSchema({ total: { type: 'integer' } }, ['total']),
  },
  ['data', 'meta'],
);
