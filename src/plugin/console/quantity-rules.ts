import { isId } from '../../lib/ids.js';
import {
  consolePage,
  formErrorsOf,
  noErrors,
  pageOf,
  paging,
  PAGE_SIZE,
  text,
  type ConsoleContext,
  type ConsoleKit,
  type FormErrors,
  notFoundPage,
} from './kit.js';
import { routeRefs } from '../../lib/routes.js';
import type { QuantityRuleAdminRoute } from '../quantity-rule/index.js';

const routes = routeRefs<QuantityRuleAdminRoute>();

const PATH = '/quantity-rules';

interface RuleForm {
  productNumber: string;
  packSize: string;
  minQuantity: string;
  step: string;
  maxQuantity: string;
  priceUnit: string;
}

/** A whole number typed into the form; '' is absent (the API's default), anything else unreadable is NaN (the API answers 400). */
const whole = (value: string): number | undefined =>
  value === '' ? undefined : /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;

/**
 * Quantity rules: each product's minimum, maximum, step and pack size, set through the quantity
 * rule add-on's Admin API (setSuiteQuantityRule, deleteSuiteQuantityRule), so its consistency
 * checks answer here as over HTTP.
 */
export function quantityRulePages(kit: ConsoleKit) {
  const { host } = kit;

  async function page(
    ctx: ConsoleContext,
    query: Record<string, unknown>,
    form: { values?: RuleForm; errors?: FormErrors; status?: number } = {},
  ) {
    const pageNumber = pageOf(query);
    const list = await kit.call(ctx, routes.listSuiteQuantityRules, {
      query: { page: pageNumber, limit: PAGE_SIZE },
    });
    const products = new Map(
      (
        await host.catalog.products(
          host.db,
          list.data.map((row) => row.attributes.productId),
        )
      ).map((product) => [product.id, product]),
    );
    return {
      template: 'quantity-rules',
      status: form.status ?? 200,
      data: {
        title: 'Quantity rules',
        rules: list.data.map(({ attributes: rule }) => {
          const product = products.get(rule.productId);
          return {
            ...rule,
            product: product ? `${product.productNumber} · ${product.name}` : rule.productId,
            maxText: rule.maxQuantity ?? '—',
            action: kit.href(`${PATH}/${rule.productId}/delete`),
          };
        }),
        paging: paging(kit, PATH, {}, pageNumber, list.meta.total),
        values: form.values ?? {
          productNumber: '',
          packSize: '',
          minQuantity: '',
          step: '',
          maxQuantity: '',
          priceUnit: 'piece',
        },
        perPack: form.values?.priceUnit === 'pack',
        errors: form.errors ?? noErrors(),
      },
    };
  }

  return [
    consolePage({
      path: PATH,
      menu: { label: 'Quantity rules', position: 45 },
      handler: ({ ctx, query }) => page(ctx, query),
    }),
    consolePage({
      path: PATH,
      method: 'POST',
      async handler({ ctx, form }) {
        const values: RuleForm = {
          productNumber: text(form, 'productNumber'),
          packSize: text(form, 'packSize'),
          minQuantity: text(form, 'minQuantity'),
          step: text(form, 'step'),
          maxQuantity: text(form, 'maxQuantity'),
          priceUnit: text(form, 'priceUnit') === 'pack' ? 'pack' : 'piece',
        };
        const [product] = values.productNumber
          ? await host.catalog.productIdsByNumbers(host.db, [values.productNumber])
          : [];
        if (!product) {
          const errors = noErrors();
          errors.fields.productNumber = values.productNumber
            ? `There is no product with the number "${values.productNumber}".`
            : 'Give the product number.';
          return page(ctx, {}, { values, errors, status: 400 });
        }
        const body = Object.fromEntries(
          Object.entries({
            packSize: whole(values.packSize),
            minQuantity: whole(values.minQuantity),
            step: whole(values.step),
            maxQuantity: whole(values.maxQuantity),
            priceUnit: values.priceUnit,
          }).filter(([, value]) => value !== undefined),
        );
        try {
          await kit.call(ctx, routes.setSuiteQuantityRule, { params: { productId: product.id }, body });
        } catch (error) {
          return page(ctx, {}, { values, errors: formErrorsOf(error), status: 400 });
        }
        return { redirect: kit.href(PATH), notice: `The quantity rule of ${product.productNumber} is saved.` };
      },
    }),
    consolePage({
      path: `${PATH}/:productId/delete`,
      method: 'POST',
      async handler({ ctx, params }) {
        if (!isId(params.productId)) return notFoundPage('quantity rule');
        await kit.call(ctx, routes.deleteSuiteQuantityRule, { params: { productId: params.productId } });
        return { redirect: kit.href(PATH), notice: 'The product takes any quantity from 1 again.' };
      },
    }),
  ];
}
