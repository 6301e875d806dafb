import { AppError } from '../../lib/errors.js';
import { consolePage, text, type ConsoleContext, type ConsoleKit } from './kit.js';
import { HOST_ADMIN_ROUTES } from '../../contract/index.js';
import { routeRefs } from '../../lib/routes.js';
import type { PartialAssortmentAdminRoute } from '../partial-assortment/index.js';

const routes = routeRefs<PartialAssortmentAdminRoute>();

const PATH = '/partial-assortments/preview';

interface Preview {
  data: {
    customer: { id: string; customerNumber: string | null; company: string | null };
    ruleIds: string[];
    hidden: Record<'category' | 'landingPage' | 'product', { ids: string[]; more: boolean }>;
    products: Array<{ id: string; productNumber: string; name: string }>;
  };
}

/**
 * "See the shop as this customer": the categories and products the partial assortment hides from a
 * customer, by customer number (previewSuitePartialAssortment). A read: a GET form, open to the
 * read-only operator too.
 */
export function assortmentPreviewPages(kit: ConsoleKit) {
  async function categoryNames(ctx: ConsoleContext, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0 || !kit.console.has(HOST_ADMIN_ROUTES.searchCategory)) return new Map();
    const found = await kit.call(ctx, HOST_ADMIN_ROUTES.searchCategory, {
      body: { ids, limit: Math.min(500, ids.length) },
    });
    return new Map(found.data.map((row) => [row.id, row.attributes.name]));
  }

  return [
    consolePage({
      path: PATH,
      async handler({ ctx, query }) {
        const customerNumber = text(query, 'customerNumber');
        const data: Record<string, unknown> = { customerNumber, back: kit.href('/partial-assortments') };
        if (!customerNumber) return { template: 'assortment-preview', data };
        let preview: Preview;
        try {
          preview = await kit.call(ctx, routes.previewSuitePartialAssortment, { body: { customerNumber } });
        } catch (error) {
          if (!(error instanceof AppError) || error.status !== 404) throw error;
          return {
            template: 'assortment-preview',
            status: 404,
            data: { ...data, error: `There is no customer with the number "${customerNumber}".` },
          };
        }
        const { customer, hidden, products, ruleIds } = preview.data;
        const names = await categoryNames(ctx, hidden.category.ids);
        return {
          template: 'assortment-preview',
          data: {
            ...data,
            customer,
            ruleCount: ruleIds.length,
            categories: hidden.category.ids.map((id) => ({ id, name: names.get(id) ?? id })),
            categoriesMore: hidden.category.more,
            products,
            productCount: hidden.product.ids.length,
            productsMore: hidden.product.more || hidden.product.ids.length > products.length,
            landingPageCount: hidden.landingPage.ids.length,
            nothingHidden: hidden.category.ids.length + hidden.product.ids.length + hidden.landingPage.ids.length === 0,
          },
        };
      },
    }),
  ];
}
