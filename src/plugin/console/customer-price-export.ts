import { MAX_LIMIT } from '../../lib/criteria.js';
import { consolePage, text, type ConsoleKit } from './kit.js';
import { now } from '../../lib/time.js';
import { routeRefs } from '../../lib/routes.js';
import type { CustomerPriceAdminRoute } from '../customer-price/index.js';

const routes = routeRefs<CustomerPriceAdminRoute>();

/** The import's own row limit: an export never holds more than an import takes back. */
const MAX_ROWS = 50_000;
const HEADER = ['customer_number', 'customer_group_id', 'product_number', 'min_quantity', 'price'];

interface ExportedPrice {
  customerId: string | null;
  customerGroupId: string | null;
  productId: string;
  minQuantity: number;
  price: number;
}

/** A CSV cell: quoted when it holds the separator, a quote or a line break; a leading =, +, - or @ is defused for spreadsheets. */
function cell(value: string): string {
  const safe = /^[=+\-@]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * Customer prices as a CSV download, in the columns the price import reads (semicolon-separated,
 * UTF-8), so a file exported, changed and imported again round-trips; the list's customer and
 * product filters apply. Validity, currency and strike-through prices are not in the import's
 * columns and so not in the file.
 */
export function customerPriceExportPages(kit: ConsoleKit) {
  const { host } = kit;
  return [
    consolePage({
      path: '/customer-prices/export',
      async handler({ ctx, query }) {
        const apiQuery: Record<string, unknown> = {};
        const customerNumber = text(query, 'customer');
        const productNumber = text(query, 'product');
        if (customerNumber) {
          const [customer] = await host.customers.findByNumbers(host.db, [customerNumber]);
          if (!customer)
            return { redirect: kit.href('/customer-prices', { customer: customerNumber, product: productNumber }) };
          apiQuery.customerId = customer.id;
        }
        if (productNumber) {
          const [product] = await host.catalog.productIdsByNumbers(host.db, [productNumber]);
          if (!product)
            return { redirect: kit.href('/customer-prices', { customer: customerNumber, product: productNumber }) };
          apiQuery.productId = product.id;
        }
        const rows: ExportedPrice[] = [];
        for (let page = 1; rows.length < MAX_ROWS; page++) {
          const list = await kit.call(ctx, routes.listSuiteCustomerPrices, {
            query: { ...apiQuery, page, limit: MAX_LIMIT },
          });
          rows.push(...list.data.map((row) => row.attributes));
          if (list.data.length < MAX_LIMIT || rows.length >= list.meta.total) break;
        }
        const [customers, products] = await Promise.all([
          host.customers.getMany(host.db, [
            ...new Set(rows.flatMap((row) => (row.customerId ? [row.customerId] : []))),
          ]),
          host.catalog.products(host.db, [...new Set(rows.map((row) => row.productId))]),
        ]);
        const numberOfCustomer = new Map(customers.map((customer) => [customer.id, customer.customerNumber]));
        const numberOfProduct = new Map(products.map((product) => [product.id, product.productNumber]));
        const lines = rows
          .slice(0, MAX_ROWS)
          .map((row) =>
            [
              row.customerId ? (numberOfCustomer.get(row.customerId) ?? '') : '',
              row.customerGroupId ?? '',
              numberOfProduct.get(row.productId) ?? row.productId,
              String(row.minQuantity),
              String(row.price),
            ]
              .map(cell)
              .join(';'),
          );
        const stamp = now().toISOString().slice(0, 10);
        return {
          file: {
            fileName: `customer-prices-${stamp}.csv`,
            contentType: 'text/csv; charset=utf-8',
            content: Buffer.from(`${[HEADER.join(';'), ...lines].join('\r\n')}\r\n`, 'utf8'),
          },
        };
      },
    }),
  ];
}
