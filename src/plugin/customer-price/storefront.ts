import type { HostRuntime, StorefrontPage } from '../../host/contract.js';
import type { SchemaInput } from '../../lib/routes.js';
import type { StoreList } from '../../lib/store-list.js';
import { routeCaller, wholeNumber } from '../storefront-kit.js';
import type { storePriceSchema } from './schemas.js';
import { customerPriceStoreRoutes } from './store-routes.js';

const PATH = '/account/customer-prices';
const PAGE_SIZE = 50;

/** A price as the Store API lists it (the response schema's type). */
type PriceView = SchemaInput<typeof storePriceSchema>;

/** The prices negotiated for the company (and its customer group), searchable; a buyer's view, so it asks orders.create as its menu entry does. */
export function customerPriceStorefrontPages(host: HostRuntime): StorefrontPage[] {
  const call = routeCaller(customerPriceStoreRoutes(host));
  return [
    {
      path: PATH,
      auth: 'login',
      anyPermission: ['orders.create'],
      needsCustomer: true,
      async handler({ ctx, query }) {
        const page = wholeNumber(query.page, 1, 100_000) ?? 1;
        const term = typeof query.q === 'string' ? query.q.trim().slice(0, 100) : '';
        const result = await call<StoreList<PriceView>>(ctx, 'listCustomerPrices', {
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
