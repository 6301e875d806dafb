import { defineStoreRoute, type HostRuntime } from '../../contract/index.js';
import { searchByCriteria } from '../../lib/criteria.js';
import { readInt } from '../../lib/db.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import { fromMinor } from '../../lib/money.js';
import { storePricesQuery, type CustomerPriceRow } from './repository.js';
import { narrowByProductFields } from '../product-fields.js';
import {
  storePriceCriteriaBody,
  storePriceCriteriaSpec,
  storePriceList,
  storePriceProductFields,
  TAG,
} from './schemas.js';
import { storeList } from '../../lib/store-list.js';
import { declaredCustomer } from '../declared.js';

/** What the list selects of a price row. */
type StorePriceRow = Omit<CustomerPriceRow, 'customer_group_id' | 'created_at' | 'updated_at'>;

export function customerPriceStoreRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/customer-prices',
      operationId: 'listCustomerPrices',
      summary:
        "The prices negotiated for the caller's customer and its customer group, per product and minimum quantity (criteria).",
      description:
        'Only products the caller may see are listed. A customer price wins over its group price for the same product; both win over list and tier prices.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { body: storePriceCriteriaBody, responses: { 200: storePriceList } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        // Current and coming prices in the channel's currency (or naming none); expired ones are gone.
        const base = storePricesQuery(host.db, customer, nowDb(), ctx.salesChannel.currencyIso);
        const list = await narrowByProductFields(
          host,
          ctx,
          base,
          body,
          storePriceCriteriaSpec,
          storePriceProductFields,
        );
        const page = await searchByCriteria<StorePriceRow>(base, list.criteria, storePriceCriteriaSpec, (qb) =>
          list.order(
            qb.select(
              'cp.id',
              'cp.product_id',
              'cp.customer_id',
              'cp.min_quantity',
              'cp.price_net',
              'cp.list_price_net',
              'cp.valid_from',
              'cp.valid_until',
              'cp.currency_iso',
            ),
          ),
        );
        const products = new Map(
          (
            await host.catalog.products(
              host.db,
              page.rows.map((row) => row.product_id),
            )
          ).map((p) => [p.id, p]),
        );
        const precision = ctx.salesChannel.currencyPrecision;
        return storeList(
          page.rows.map((row) => ({
            id: row.id,
            productId: row.product_id,
            productNumber: products.get(row.product_id)?.productNumber ?? '',
            productName: products.get(row.product_id)?.name ?? '',
            minQuantity: readInt(row.min_quantity),
            price: fromMinor(readInt(row.price_net), precision),
            listPrice:
              row.list_price_net === null || row.list_price_net === undefined
                ? null
                : fromMinor(readInt(row.list_price_net), precision),
            validFrom: fromDbTime(row.valid_from),
            validUntil: fromDbTime(row.valid_until),
            currency: row.currency_iso ?? null,
            scope: row.customer_id ? ('customer' as const) : ('customerGroup' as const),
          })),
          page,
        );
      },
    }),
  ];
}
