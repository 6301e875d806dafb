import type { HostRuntime } from '../../../contract/index.js';
import { checkoutMethodRoutes } from './routes.js';
import { checkoutMethodPages } from './storefront.js';
import { allowedForCaller, interceptCheckout } from './service.js';

export const CHECKOUT_METHODS_INTERCEPTOR = 'company-checkout-methods';

/**
 * The payment and shipping methods an organisation unit's buyers may use (decision 0036): set by
 * the company per unit, applying to its subtree; the host's method lists leave the others out
 * (contract 4.1's method restriction) and the checkout interceptor refuses an order naming one.
 */
export function registerCheckoutMethods(host: HostRuntime): void {
  for (const route of checkoutMethodRoutes(host)) host.storeApi.route(route);
  for (const page of checkoutMethodPages(host)) host.storefront.page(page);
  host.checkout.addMethodRestriction?.((executor, ctx, kind) => allowedForCaller(executor, ctx, kind));
  host.checkout.addInterceptor({
    name: CHECKOUT_METHODS_INTERCEPTOR,
    intercept: (trx, ctx, draft) => interceptCheckout(ctx, draft, trx),
  });
}
