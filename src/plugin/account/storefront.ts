import type { HostRuntime, StorefrontPage } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { dateText, download, page, routeCaller, routesByName, wholeNumber } from '../storefront-kit.js';
import { documentRoutes, FILE_NAME_PATTERN } from './documents.js';
import { MAX_MENU_DEPTH, platformMenuRoutes } from './platform-menu.js';

const DOCUMENTS_PATH = '/account/documents';
const PAGE_SIZE = 25;
const FILE_NAME = new RegExp(FILE_NAME_PATTERN);
const REPRESENTATIVE_SECTION = 'salesRepresentative';

/** The documents page (invoices and other PDFs of the company) and the account menu the host shows on /account. */
export function accountStorefrontPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName([...documentRoutes(host)]);
  const call = routeCaller();
  return [
    {
      path: DOCUMENTS_PATH,
      auth: 'login',
      anyPermission: ['orders.read'],
      async handler({ ctx, query }) {
        const page = wholeNumber(query.page, 1, 100_000) ?? 1;
        const result = await call(ctx, routes.listCustomerDocuments, {
          body: { page, limit: PAGE_SIZE },
        });
        const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
        return {
          template: 'b2b/documents',
          data: {
            title: 'Documents',
            documents: result.elements.map((document) => ({
              ...document,
              createdAtText: dateText(ctx, document.createdAt),
              url: `${DOCUMENTS_PATH}/${encodeURIComponent(document.fileName)}`,
              orderUrl: document.orderId ? `/account/orders/${document.orderId}` : null,
            })),
            total: result.total,
            previous: page > 1 ? `${DOCUMENTS_PATH}?page=${Math.min(page - 1, pages)}` : null,
            next: page < pages ? `${DOCUMENTS_PATH}?page=${page + 1}` : null,
          },
        };
      },
    },
    page({
      path: `${DOCUMENTS_PATH}/:fileName`,
      auth: 'login',
      async handler({ ctx, params }) {
        const fileName = params.fileName;
        if (!FILE_NAME.test(fileName) || fileName.length > 191) throw Errors.notFound('document', fileName);
        const file = await call(ctx, routes.downloadCustomerDocument, { params: { fileName } });
        return download(file, fileName, 'application/pdf');
      },
    }),
  ];
}

export function registerAccountStorefront(host: HostRuntime): void {
  for (const page of accountStorefrontPages(host)) host.storefront.page(page);
  const routes = routesByName(platformMenuRoutes(host));
  const call = routeCaller();
  host.storefront.accountMenu(async (ctx) => {
    const entries = (await call(ctx, routes.readPlatformMenu, { query: { depth: MAX_MENU_DEPTH } })).elements;
    // A representative acting for no customer has no company pages to open: only their own section.
    return ctx.customer ? entries : entries.filter((entry) => entry.key === REPRESENTATIVE_SECTION);
  });
}
