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

const choices = {
  type: 'array',
  items: objectSchema({ technicalName: { type: 'string' }, name: { type: 'string' } }, ['technicalName', 'name']),
} as const;

export const checkoutMethodsResponse = objectSchema(
  {
    unitId: { type: 'string' },
    /** The sales channel's methods a list may name (empty on a host that cannot name them). */
    choices: objectSchema({ paymentMethods: choices, shippingMethods: choices }, ['paymentMethods', 'shippingMethods']),
    paymentMethods: namesOut,
    shippingMethods: namesOut,
    effective: objectSchema({ paymentMethods: namesOut, shippingMethods: namesOut }, [
      'paymentMethods',
      'shippingMethods',
    ]),
    apiAlias: { const: 'b2b_unit_checkout_methods' },
  },
  ['unitId', 'choices', 'paymentMethods', 'shippingMethods', 'effective', 'apiAlias'],
);
