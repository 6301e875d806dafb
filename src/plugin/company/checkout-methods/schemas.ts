import { nullable, objectSchema } from '../../../lib/schemas.js';

export const TAG = 'Organisation units';

const names = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 64 },
  minItems: 1,
  maxItems: 50,
  uniqueItems: true,
} as const;

/** `null`: no restriction of its own (the unit follows the nearest unit above that has one). */
export const checkoutMethodsBody = objectSchema({ paymentMethods: nullable(names), shippingMethods: nullable(names) }, [
  'paymentMethods',
  'shippingMethods',
]);

const namesOut = nullable({ type: 'array', items: { type: 'string' } });

export const checkoutMethodsResponse = objectSchema(
  {
    unitId: { type: 'string' },
    paymentMethods: namesOut,
    shippingMethods: namesOut,
    effective: objectSchema({ paymentMethods: namesOut, shippingMethods: namesOut }, [
      'paymentMethods',
      'shippingMethods',
    ]),
    apiAlias: { const: 'b2b_unit_checkout_methods' },
  },
  ['unitId', 'paymentMethods', 'shippingMethods', 'effective', 'apiAlias'],
);
