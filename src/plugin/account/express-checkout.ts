import { defineStoreRoute, type HostRuntime, type StoreRoute } from '../../host/contract.js';
import { AppError, Errors } from '../../lib/errors.js';
import { objectSchema } from '../../lib/schemas.js';
import { dateTimeSchema } from '../../lib/time.js';
import { PAYMENT_METHODS, readSetting, SHIPPING_METHODS } from './checkout-settings.js';
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
export function expressCheckoutRoutes(host: HostRuntime): StoreRoute[] {
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
        "payment and shipping are the setting's, else the only ones the shop offers (invoice, standard). Then the same rules as POST /checkout/order: an empty cart is a 400, " +
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
        const paymentMethod =
          setting.defaultPaymentMethod ?? (PAYMENT_METHODS.length === 1 ? PAYMENT_METHODS[0] : null);
        const shippingMethod =
          setting.defaultShippingMethod ?? (SHIPPING_METHODS.length === 1 ? SHIPPING_METHODS[0] : null);
        const missing = [
          ...(billingAddressId ? [] : ['defaultBillingAddressId']),
          ...(paymentMethod ? [] : ['defaultPaymentMethod']),
          ...(shippingMethod ? [] : ['defaultShippingMethod']),
        ];
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
          origin: 'express-checkout',
        });
        const order = await host.orders.get(host.db, placed.id);
        if (!order) throw Errors.notFound('Order', placed.id);
        return order;
      },
    }),
  ];
}
