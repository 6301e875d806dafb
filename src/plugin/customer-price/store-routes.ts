import type { HostRuntime, StoreRoute } from '../../host/contract.js';
import { searchByCriteria, type Criteria } from '../../lib/criteria.js';
import { readInt } from '../../lib/db.js';
import { fromMinor } from '../../lib/money.js';
import { requireCustomer } from '../employee/common.js';
import { CUSTOMER_PRICES } from './repository.js';
import { storePriceCriteriaBody, storePriceCriteriaSpec, storePriceList, TAG } from './schemas.js';

export function customerPriceStoreRoutes(host: HostRuntime): StoreRoute[] {
  return [
    {
      method: 'POST',
      path: '/customer-prices',
      operationId: 'listCustomerPrices',
      summary: "The prices negotiated for the caller's customer and its customer group, per product and minimum quantity (criteria).",
      description: 'Only products the caller may see are listed. A customer price wins over its group price for the same product; both win over list and tier prices.',
      tags: [TAG],
      auth: 'login',
      permission: null,
      schemas: { body: storePriceCriteriaBody, responses: { 200: storePriceList } },
      async handler({ ctx, body }) {
        const customer = requireCustomer(ctx);
        const base = host.db(`${CUSTOMER_PRICES} as cp`)
          .join('products', 'products.id', 'cp.product_id')
          .where('products.active', true)
          .where((q) => {
            q.where('cp.customer_id', customer.id);
            if (customer.groupId) q.orWhere('cp.customer_group_id', customer.groupId);
          });
        await host.catalog.applyVisibility(ctx, 'product', base, 'products.id');
        const page = await searchByCriteria<Record<string, any>>(base, body as Criteria, storePriceCriteriaSpec, (qb) =>
          qb.select('cp.id', 'cp.product_id', 'cp.customer_id', 'cp.min_quantity', 'cp.price_net', 'products.product_number', 'products.name'),
        );
        const precision = ctx.salesChannel.currencyPrecision;
        return {
          total: page.total,
          data: page.rows.map((row) => ({
            id: row.id,
            productId: row.product_id,
            productNumber: row.product_number,
            productName: row.name,
            minQuantity: readInt(row.min_quantity),
            price: fromMinor(row.price_net, precision),
            scope: row.customer_id ? ('customer' as const) : ('customerGroup' as const),
          })),
        };
      },
    },
  ];
}
