import type { HostRuntime } from '../../../contract/index.js';
import { addressRoutes } from './routes.js';
import { addressStorefrontPages } from './storefront.js';
import { interceptCheckout } from './service.js';

export const COMPANY_ADDRESS_INTERCEPTOR = 'company-addresses';

/**
 * The company address book: the customer's addresses (written through the contract's address calls)
 * hung on organisation units, offered at checkout to the buyers of those units' subtrees, with
 * defaults per unit; the checkout interceptor refuses an address not offered to the buyer.
 */
export function registerCompanyAddresses(host: HostRuntime): void {
  for (const route of addressRoutes(host)) host.storeApi.route(route);
  for (const page of addressStorefrontPages(host)) host.storefront.page(page);
  host.checkout.addInterceptor({
    name: COMPANY_ADDRESS_INTERCEPTOR,
    intercept: (trx, ctx, draft) => interceptCheckout(ctx, draft, trx),
  });
}
