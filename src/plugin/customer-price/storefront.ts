import type { HostRuntime, StorefrontPage } from '../../contract/index.js';
import { routeCaller, routesByName, wholeNumber } from '../storefront-kit.js';
import { customerPriceStoreRoutes } from './store-routes.js';

const PATH = '/account/customer-prices';
const PAGE_SIZE = 50;

/** The prices negotiated for the company (and its customer group), searchable; a buyer's view, so it asks orders.create as its menu entry does. */
export function customerPriceStorefrontPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName(customerPriceStoreRoutes(host));
  const call = routeCaller();
  return [
    {
      path: PATH,
      auth: 'login',
      anyPermission: ['orders.create'],
      needsCustomer: true,
      async handler({ ctx, query }) {
        const page = wholeNumber(query.page, 1, 100_000) ?? 1;
        const term = typeof query.q === 'string' ? query.q.trim().slice(0, 100) : '';
        const result = await call(ctx, routes.listCustomerPrices, {
          body: {
            page,
            limit: PAGE_SIZE,
            sort: [
              { field: 'productName', order: 'ASC' },
              { field: 'minQuantity', order: 'ASC' },
            ],
            ...(term ? { term } : {}),
          },
        });
        const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
        const search = term ? `&q=${encodeURIComponent(term)}` : '';
        return {
          template: 'b2b/customer-prices',
          data: {
            title: 'Your prices',
            prices: result.elements.map((price) => ({
              ...price,
              productUrl: `/product/${price.productId}`,
              scopeText: price.scope === 'customer' ? 'Your company' : 'Your customer group',
            })),
            total: result.total,
            term,
            currency: ctx.salesChannel.currencyIso,
            previous: page > 1 ? `${PATH}?page=${Math.min(page - 1, pages)}${search}` : null,
            next: page < pages ? `${PATH}?page=${page + 1}${search}` : null,
          },
        };
      },
    },
  ];
}
