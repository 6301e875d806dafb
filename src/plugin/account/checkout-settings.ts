import { inTransaction, readBool, type Executor } from '../../lib/db.js';
import { AppError, Errors } from '../../lib/errors.js';
import { idParam, nullable, objectSchema, successResponse } from '../../lib/schemas.js';
import { nowDb } from '../../lib/time.js';
import { defineStoreRoute, type HostRuntime, type StoreContext } from '../../contract/index.js';
import { TAG } from './snippets.js';
import { declaredCustomer } from '../declared.js';
import { findCheckoutSetting, saveCheckoutSetting, type CheckoutSettingOwner } from './repository.js';

/** A technical name of /payment-method or /shipping-method (checked against the sales channel's methods). */
const methodName = { type: 'string', minLength: 1, maxLength: 64 } as const;

const settingSchema = objectSchema(
  {
    enabled: { type: 'boolean' },
    defaultPaymentMethod: nullable({ type: 'string' }),
    defaultShippingMethod: nullable({ type: 'string' }),
    defaultBillingAddressId: nullable({ type: 'string' }),
    defaultShippingAddressId: nullable({ type: 'string' }),
  },
  ['enabled', 'defaultPaymentMethod', 'defaultShippingMethod', 'defaultBillingAddressId', 'defaultShippingAddressId'],
);
const patchBody = objectSchema(
  {
    enabled: { type: 'boolean' },
    defaultPaymentMethod: nullable(methodName),
    defaultShippingMethod: nullable(methodName),
    defaultBillingAddressId: nullable(idParam),
    defaultShippingAddressId: nullable(idParam),
  },
  [],
  { minProperties: 1 },
);

/** Settings belong to one buyer of one customer: the customer login, an employee or a representative acting for it. */
function ownerOf(ctx: StoreContext): CheckoutSettingOwner {
  const customer = declaredCustomer(ctx);
  return { customer_id: customer.id, actor_type: ctx.actor.type, actor_id: ctx.actor.id ?? customer.id };
}

export async function readSetting(executor: Executor, ctx: StoreContext) {
  const row = await findCheckoutSetting(executor, ownerOf(ctx));
  return {
    enabled: readBool(row?.enabled),
    defaultPaymentMethod: row?.default_payment_method ?? null,
    defaultShippingMethod: row?.default_shipping_method ?? null,
    defaultBillingAddressId: row?.default_billing_address_id ?? null,
    defaultShippingAddressId: row?.default_shipping_address_id ?? null,
  };
}

export function checkoutSettingRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/address/switch-{type}/{addressId}',
      operationId: 'switchDefaultAddress',
      summary:
        'Makes one of the customer’s addresses its default billing or shipping address; another customer’s address is a 404.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'orders.create',
      schemas: {
        params: objectSchema({ type: { enum: ['billing', 'shipping'] }, addressId: idParam }, ['type', 'addressId']),
        responses: { 200: successResponse },
      },
      async handler({ ctx, params }) {
        const customer = declaredCustomer(ctx);
        if (!(await host.customers.setDefaultAddress(host.db, customer.id, params.type, params.addressId)))
          throw Errors.notFound('address', params.addressId);
        return { success: true };
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/express-checkout-setting',
      operationId: 'readExpressCheckoutSetting',
      summary:
        'The caller’s express checkout defaults for the customer they act for (null: the customer’s own default applies).',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'orders.create',
      schemas: { responses: { 200: settingSchema } },
      handler: ({ ctx }) => readSetting(host.db, ctx),
    }),
    defineStoreRoute({
      method: 'PATCH',
      path: '/express-checkout-setting',
      operationId: 'updateExpressCheckoutSetting',
      summary: 'Changes the caller’s express checkout defaults; addresses must be the customer’s (else 404).',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'orders.create',
      schemas: { body: patchBody, responses: { 200: successResponse } },
      async handler({ ctx, body }) {
        const owner = ownerOf(ctx);
        const columns: Record<string, unknown> = {};
        if (body.enabled !== undefined) columns.enabled = body.enabled;
        if (body.defaultPaymentMethod !== undefined) columns.default_payment_method = body.defaultPaymentMethod;
        if (body.defaultShippingMethod !== undefined) columns.default_shipping_method = body.defaultShippingMethod;
        if (body.defaultBillingAddressId !== undefined)
          columns.default_billing_address_id = body.defaultBillingAddressId;
        if (body.defaultShippingAddressId !== undefined)
          columns.default_shipping_address_id = body.defaultShippingAddressId;
        for (const [field, kind] of [
          ['defaultPaymentMethod', 'payment'],
          ['defaultShippingMethod', 'shipping'],
        ] as const) {
          const name = body[field];
          if (!name || !host.checkout.methods) continue;
          const known = (await host.checkout.methods(host.db, ctx, kind)).map((m) => m.technicalName);
          if (!known.includes(name))
            throw Errors.badRequest('SUITE__CHECKOUT_METHOD_UNKNOWN', `There is no ${kind} method "${name}".`, {
              pointer: `/${field}`,
              meta: { known },
            });
        }
        await inTransaction(host.db, async (trx) => {
          const own = new Set((await host.customers.addresses(trx, owner.customer_id)).map((a) => a.id));
          for (const field of ['defaultBillingAddressId', 'defaultShippingAddressId'] as const) {
            const id = body[field];
            if (id && !own.has(id))
              throw new AppError(404, 'SUITE__NOT_FOUND', `address with id "${id}" was not found.`, {
                pointer: `/${field}`,
                meta: { entity: 'address' },
              });
          }
          await saveCheckoutSetting(trx, owner, columns, nowDb());
        });
        return { success: true };
      },
    }),
  ];
}
