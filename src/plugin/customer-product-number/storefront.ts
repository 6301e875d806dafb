import type { HostRuntime, StoreContext, StorefrontPage } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { isId } from '../../lib/ids.js';
import {
  attempt,
  csvOf,
  dateText,
  noticeOf,
  page as typedPage,
  routeCaller,
  routesByName,
  text,
  wholeNumber,
  type Form,
  type PageResult,
} from '../storefront-kit.js';
import { customerProductNumberRoutes } from './routes.js';
import { MAX_NUMBER_LENGTH } from './schemas.js';

const PATH = '/account/customer-product-numbers';
const MANAGE = 'customer-product-number.manage';
const PAGE_SIZE = 50;

const NOTICES: Record<string, string> = {
  saved: 'The number was saved.',
  deleted: 'The number was deleted.',
  imported: 'The CSV file was imported.',
};

/**
 * The company's own product numbers: list and search, change or delete one, add one for a shop
 * product number, and import a CSV file (pasted). Adding one is an import of one line, so it is
 * checked exactly as the file import is (unknown or hidden product, number taken).
 */
export function customerProductNumberStorefrontPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName(customerProductNumberRoutes(host));
  const call = routeCaller();

  async function page(
    ctx: StoreContext,
    query: Record<string, unknown>,
    extra: { error?: string; errors?: string[]; csv?: string; add?: Form } = {},
    status = 200,
  ): Promise<PageResult> {
    const pageNumber = wholeNumber(query.page, 1, 100_000) ?? 1;
    const term = typeof query.q === 'string' ? query.q.trim().slice(0, 100) : '';
    const result = await call(ctx, routes.listCustomerProductNumbers, {
      body: { page: pageNumber, limit: PAGE_SIZE, ...(term ? { term } : {}) },
    });
    const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
    const search = term ? `&q=${encodeURIComponent(term)}` : '';
    return {
      template: 'b2b/customer-product-numbers',
      status,
      data: {
        title: 'Customer product numbers',
        numbers: result.elements.map((entry) => ({
          ...entry,
          productUrl: `/product/${entry.productId}`,
          updatedText: dateText(ctx, entry.updatedAt ?? entry.createdAt),
          deleteUrl: `${PATH}/${entry.id}/delete`,
        })),
        total: result.total,
        term,
        previous: pageNumber > 1 ? `${PATH}?page=${Math.min(pageNumber - 1, pages)}${search}` : null,
        next: pageNumber < pages ? `${PATH}?page=${pageNumber + 1}${search}` : null,
        maxLength: MAX_NUMBER_LENGTH,
        add: extra.add ?? {},
        csv: extra.csv ?? '',
        error: extra.error ?? null,
        errors: extra.errors && extra.errors.length > 1 ? extra.errors : [],
        notice: noticeOf(query, NOTICES),
      },
    };
  }

  const importCsv = (ctx: StoreContext, csv: string) => call(ctx, routes.importCustomerProductNumbers, { body: csv });

  return [
    {
      path: PATH,
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      handler: ({ ctx, query }) => page(ctx, query),
    },
    {
      path: `${PATH}/save`,
      method: 'POST',
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      async handler({ ctx, form }) {
        const productId = text(form, 'productId', 64);
        if (!isId(productId)) throw Errors.notFound('Product', productId);
        const result = await attempt(() =>
          call(ctx, routes.saveCustomerProductNumber, {
            body: { productId, customerProductNumber: text(form, 'customerProductNumber', 200) },
          }),
        );
        if ('error' in result) return page(ctx, {}, { error: result.error }, 400);
        return { redirect: `${PATH}?done=saved` };
      },
    },
    {
      path: `${PATH}/add`,
      method: 'POST',
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      async handler({ ctx, form }) {
        const add = {
          productNumber: text(form, 'productNumber', 200),
          customerProductNumber: text(form, 'customerProductNumber', 200),
        };
        if (!add.productNumber || !add.customerProductNumber)
          return page(ctx, {}, { error: 'Enter the shop’s product number and your own number.', add }, 400);
        // Quoted as typed: the export's formula neutralising must not change a number that starts with '-'.
        const quoted = (value: string) => `"${value.replace(/"/g, '""')}"`;
        const csv = `product_number,customer_product_number\r\n${quoted(add.productNumber)},${quoted(add.customerProductNumber)}\r\n`;
        const result = await attempt(() => importCsv(ctx, csv));
        if ('error' in result) return page(ctx, {}, { error: result.error.replace(/^Line \d+: /, ''), add }, 400);
        return { redirect: `${PATH}?done=saved` };
      },
    },
    {
      path: `${PATH}/import`,
      method: 'POST',
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      async handler({ ctx, form }) {
        const { csv } = csvOf(form, 'csvFile', 'csv');
        const result = await attempt(() => importCsv(ctx, csv));
        if ('error' in result)
          return page(ctx, {}, { error: result.error, errors: result.errors, csv: csv.slice(0, 200_000) }, 400);
        return { redirect: `${PATH}?done=imported` };
      },
    },
    typedPage({
      path: `${PATH}/:id/delete`,
      method: 'POST',
      auth: 'login',
      anyPermission: [MANAGE],
      needsCustomer: true,
      async handler({ ctx, params }) {
        const id = params.id;
        if (!isId(id)) throw Errors.notFound('Customer product number', id);
        await call(ctx, routes.deleteCustomerProductNumber, { params: { id } });
        return { redirect: `${PATH}?done=deleted` };
      },
    }),
  ];
}
