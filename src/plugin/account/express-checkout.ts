import { defineStoreRoute, orderView, type HostRuntime } from '../../contract/index.js';
import { AppError, Errors } from '../../lib/errors.js';
import { objectSchema } from '../../lib/schemas.js';
import { dateTimeSchema } from '../../lib/time.js';
import { readSetting } from './checkout-settings.js';
import { declaredCustomer } from '../declared.js';
import { TAG } from './snippets.js';

const expressBody = objectSchema({
  customerComment: { type: ['string', 'null'], maxLength: 2000 },
});

/** The host's order route response (the same record as GET /order/{orderId}). */
const orderResponse = {
  type: 'object',
  additionalProperties: true,
  required: ['id', 'orderNumber', 'orderDate'],
  properties: { id: { type: 'string' }, orderNumber: { type: 'string' }, orderDate: dateTimeSchema },
};

/**
 * Express checkout: "order now" orders the caller's cart in one step with their express checkout
 * settings (`/express-checkout-setting`), each unset one falling back to the customer's default.
 */
export function expressCheckoutRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/express-checkout/order',
      operationId: 'expressCheckoutOrder',
      summary:
        "Orders the caller's cart in one step with their express checkout defaults (addresses, shipping, payment) and answers the order.",
      description:
        "Needs the express checkout enabled for the caller (400 SUITE__EXPRESS_CHECKOUT_DISABLED) and a billing address: the setting's, else the customer's default " +
        "(400 SUITE__EXPRESS_CHECKOUT_INCOMPLETE, `meta.missing` names what is missing). The shipping address is the setting's, else the customer's default, else the billing address; " +
        "payment and shipping are the setting's, else the checkout's defaults. Then the same rules as POST /checkout/order: an empty cart is a 400, a method the buyer's organisation unit does not allow is a 400, " +
        'interceptors may refuse (order approval, budgets). Send an Idempotency-Key header to make retries safe.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'orders.create',
      idempotent: true,
      schemas: { body: expressBody, responses: { 200: orderResponse } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const setting = await readSetting(host.db, ctx);
        if (!setting.enabled)
          throw Errors.badRequest(
            'SUITE__EXPRESS_CHECKOUT_DISABLED',
            'Express checkout is not enabled for you; enable it with PATCH /express-checkout-setting.',
            { pointer: '/enabled' },
          );
        const defaults = await host.customers.defaultAddressIds(host.db, customer.id);
        const billingAddressId = setting.defaultBillingAddressId ?? defaults.billing;
        const shippingAddressId = setting.defaultShippingAddressId ?? defaults.shipping ?? billingAddressId;
        const missing = billingAddressId ? [] : ['defaultBillingAddressId'];
        if (missing.length > 0)
          throw new AppError(
            400,
            'SUITE__EXPRESS_CHECKOUT_INCOMPLETE',
            `Express checkout needs ${missing.join(', ')}: set it with PATCH /express-checkout-setting (or a default address of the company).`,
            {
              pointer: `/${missing[0]}`,
              meta: { missing },
            },
          );
        const cart = await host.cart.current(host.db, ctx);
        const placed = await host.checkout.placeOrder(host.db, ctx, {
          cartToken: cart.token,
          billingAddressId,
          shippingAddressId,
          customerComment: body.customerComment ?? null,
          // Without a setting, the checkout's default (the first the buyer's unit allows).
          paymentMethod: setting.defaultPaymentMethod,
          shippingMethod: setting.defaultShippingMethod,
          origin: 'express-checkout',
        });
        const order = await host.orders.get(host.db, placed.id);
        if (!order) throw Errors.notFound('Order', placed.id);
        return orderView(order);
      },
    }),
  ];
}
