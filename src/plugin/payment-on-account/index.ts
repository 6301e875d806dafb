import type { HostRuntime } from '../../contract/index.js';
import { deleteCustomersPaymentOnAccount, releaseCharge } from './repository.js';
import { paymentOnAccountAdminRoutes, paymentOnAccountStoreRoutes } from './routes.js';
import { unitPaymentTermsAdminRoutes } from './unit-terms-routes.js';
import { chargeOrder, interceptCheckout, ON_ACCOUNT, onAccountAvailable } from './service.js';

export const PAYMENT_ON_ACCOUNT_INTERCEPTOR = 'payment-on-account';

/**
 * Payment on account: the 'on-account' payment method (contract 3.5), a credit line per company
 * checked under its row lock by a checkout interceptor and charged by the order-placed hook in the
 * order's transaction, released by the order-cancelled hook; payment terms per company on every order
 * and invoice. A host without `checkout.addPaymentMethod` gets the terms but no on-account method.
 */
export function registerPaymentOnAccount(host: HostRuntime): void {
  for (const route of paymentOnAccountStoreRoutes(host)) host.storeApi.route(route);
  for (const route of [...paymentOnAccountAdminRoutes(host), ...unitPaymentTermsAdminRoutes(host)])
    host.adminApi.route(route);
  host.checkout.addPaymentMethod?.({
    technicalName: ON_ACCOUNT,
    name: 'On account',
    description: "Charged to the company's credit line, paid by the payment terms.",
    // Offered only to a buyer whose company has a credit line in the sales channel's currency.
    available: (executor, ctx) => onAccountAvailable(ctx, executor),
  });
  host.checkout.addInterceptor({
    name: PAYMENT_ON_ACCOUNT_INTERCEPTOR,
    intercept: (trx, ctx, draft) => interceptCheckout(ctx, draft, trx),
  });
  host.checkout.onOrderPlaced((trx, ctx, order) => chargeOrder(order, ctx.salesChannel, trx));
  host.checkout.onOrderCancelled((trx, _ctx, order) => releaseCharge(trx, order.id));
  host.events.on('customer.deleted', (trx, { ids }) => deleteCustomersPaymentOnAccount(trx, ids));
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<PaymentOnAccountAdminRoute>()`). */
export type PaymentOnAccountAdminRoute =
  ReturnType<typeof paymentOnAccountAdminRoutes>[number] | ReturnType<typeof unitPaymentTermsAdminRoutes>[number];
