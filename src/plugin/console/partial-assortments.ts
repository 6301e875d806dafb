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
import { HOST_ADMIN_ROUTES } from '../../contract/index.js';
import { routeRefs } from '../../lib/routes.js';
import type { PartialAssortmentAdminRoute } from '../partial-assortment/index.js';

const routes = routeRefs<PartialAssortmentAdminRoute>();

const PATH = '/partial-assortments';

/** The assignment kinds of the partial assortment add-on, each with its Admin API routes. */
const KINDS = [
  {
    key: 'category',
    label: 'Categories',
    one: 'category',
    idField: 'categoryId',
    list: (kit: ConsoleKit, ctx: ConsoleContext, page: number) =>
      kit.call(ctx, routes.listSuitePartialAssortmentCategoryRules, { query: { page, limit: PAGE_SIZE } }),
    assign: (kit: ConsoleKit, ctx: ConsoleContext, categoryId: string, ruleId: string) =>
      kit.call(ctx, routes.createSuitePartialAssortmentCategoryRule, { body: { categoryId, ruleId } }),
    unassign: (kit: ConsoleKit, ctx: ConsoleContext, categoryId: string, ruleId: string) =>
      kit.call(ctx, routes.deleteSuitePartialAssortmentCategoryRule, { params: { categoryId, ruleId } }),
  },
  {
    key: 'product',
    label: 'Products',
    one: 'product',
    idField: 'productId',
    list: (kit: ConsoleKit, ctx: ConsoleContext, page: number) =>
      kit.call(ctx, routes.listSuitePartialAssortmentProductRules, { query: { page, limit: PAGE_SIZE } }),
    assign: (kit: ConsoleKit, ctx: ConsoleContext, productId: string, ruleId: string) =>
      kit.call(ctx, routes.createSuitePartialAssortmentProductRule, { body: { productId, ruleId } }),
    unassign: (kit: ConsoleKit, ctx: ConsoleContext, productId: string, ruleId: string) =>
      kit.call(ctx, routes.deleteSuitePartialAssortmentProductRule, { params: { productId, ruleId } }),
  },
] as const;
type Kind = (typeof KINDS)[number];

interface RuleForm {
  kind: string;
  categoryId: string;
  productNumber: string;
  audience: string;
  customerNumber: string;
  customerGroupId: string;
}

const kindOf = (key: string): Kind => KINDS.find((kind) => kind.key === key) ?? KINDS[0];

/**
 * Partial assortments: which categories and products only some customers see. The list shows the
 * rules assigned per kind; the form limits a category or product to a customer or customer group
 * (or to everyone but them) by creating a rule (createRule) and assigning it (the add-on's
 * createSuitePartialAssortment…Rule); a failed assignment deletes the rule it created again.
 */
export function partialAssortmentPages(kit: ConsoleKit) {
  const { host } = kit;
  const page = assignmentsPageOf(kit);
  return [
    consolePage({
      path: PATH,
      menu: { label: 'Partial assortments', position: 40 },
      handler: ({ ctx, query }) => page(ctx, query),
    }),
    consolePage({
      path: PATH,
      method: 'POST',
      async handler({ ctx, form }) {
        const values: RuleForm = {
          kind: text(form, 'kind'),
          categoryId: text(form, 'categoryId'),
          productNumber: text(form, 'productNumber'),
          audience: text(form, 'audience') === 'except' ? 'except' : 'only',
          customerNumber: text(form, 'customerNumber'),
          customerGroupId: text(form, 'customerGroupId'),
        };
        const kind = kindOf(values.kind);
        const errors = noErrors();
        let entityId: string | null = null;
        if (kind.key === 'category') {
          if (isId(values.categoryId)) entityId = values.categoryId;
          else errors.fields.categoryId = 'Choose the category.';
        } else {
          const [product] = values.productNumber
            ? await host.catalog.productIdsByNumbers(host.db, [values.productNumber])
            : [];
          if (product) entityId = product.id;
          else
            errors.fields.productNumber = values.productNumber
              ? `There is no product with the number "${values.productNumber}".`
              : 'Give the product number.';
        }
        let condition: Record<string, unknown> | null = null;
        let whom = '';
        const operator = values.audience === 'except' ? '!=' : '=';
        if (values.customerNumber && values.customerGroupId)
          errors.fields.customerNumber = 'Give a customer number or a customer group, not both.';
        else if (values.customerNumber) {
          const [customer] = await host.customers.findByNumbers(host.db, [values.customerNumber]);
          if (customer) {
            condition = { type: 'customerNumber', operator, value: customer.customerNumber };
            whom = `customer ${customer.customerNumber}`;
          } else errors.fields.customerNumber = `There is no customer with the number "${values.customerNumber}".`;
        } else if (values.customerGroupId) {
          condition = { type: 'customerGroup', operator, value: values.customerGroupId };
          whom = `group ${(await host.customerGroups.getMany(host.db, [values.customerGroupId]))[0]?.name ?? values.customerGroupId}`;
        } else errors.fields.customerNumber = 'Give the customer number, or choose a customer group.';
        if (Object.keys(errors.fields).length || !entityId || !condition)
          return page(ctx, { kind: kind.key }, { values, errors, status: 400 });

        let ruleId: string;
        try {
          const rule = await kit.call(ctx, HOST_ADMIN_ROUTES.createRule, {
            body: {
              name: `Console: ${values.audience === 'except' ? 'all but' : 'only'} ${whom}`,
              conditions: condition,
            },
          });
          ruleId = rule.data.id;
        } catch (error) {
          return page(ctx, { kind: kind.key }, { values, errors: formErrorsOf(error, () => null), status: 400 });
        }
        try {
          await kind.assign(kit, ctx, entityId, ruleId);
        } catch (error) {
          await kit.call(ctx, HOST_ADMIN_ROUTES.deleteRule, { params: { id: ruleId } });
          return page(
            ctx,
            { kind: kind.key },
            {
              values,
              errors: formErrorsOf(error, (pointer) =>
                pointer === `/${kind.idField}` ? (kind.key === 'category' ? 'categoryId' : 'productNumber') : null,
              ),
              status: 400,
            },
          );
        }
        return {
          redirect: kit.href(PATH, { kind: kind.key }),
          notice: `The ${kind.one} is now visible ${values.audience === 'except' ? 'to everyone but' : 'only to'} ${whom}.`,
        };
      },
    }),
    consolePage({
      path: `${PATH}/:kind/:entityId/:ruleId/delete`,
      method: 'POST',
      async handler({ ctx, params }) {
        const kind = KINDS.find((k) => k.key === params.kind);
        if (!kind || !isId(params.entityId) || !isId(params.ruleId)) return notFoundPage('rule assignment');
        await kind.unassign(kit, ctx, params.entityId, params.ruleId);
        return { redirect: kit.href(PATH, { kind: kind.key }), notice: `The rule no longer limits this ${kind.one}.` };
      },
    }),
  ];
}

/** The page: the rules assigned per kind (with the names of rules, categories and products), and the form. */
function assignmentsPageOf(kit: ConsoleKit) {
  const { host } = kit;

  async function names(
    ctx: ConsoleContext,
    route: typeof HOST_ADMIN_ROUTES.searchRule | typeof HOST_ADMIN_ROUTES.searchCategory,
    ids: string[],
  ): Promise<Map<string, string>> {
    if (ids.length === 0 || !kit.console.has(route)) return new Map();
    const found = await kit.call(ctx, route, { body: { ids, limit: Math.min(500, ids.length) } });
    return new Map(found.data.map((row) => [row.id, row.attributes.name]));
  }

  async function page(
    ctx: ConsoleContext,
    query: Record<string, unknown>,
    form: { values?: RuleForm; errors?: FormErrors; status?: number } = {},
  ) {
    const kind = kindOf(text(query, 'kind') || form.values?.kind || 'category');
    const pageNumber = pageOf(query);
    const list = await kind.list(kit, ctx, pageNumber);
    const entityIds = [...new Set(list.data.map((row) => row.attributes[kind.idField]))];
    const ruleNames = await names(ctx, HOST_ADMIN_ROUTES.searchRule, [
      ...new Set(list.data.map((row) => row.attributes.ruleId)),
    ]);
    const entityNames =
      kind.key === 'product'
        ? new Map(
            (await host.catalog.products(host.db, entityIds)).map((product) => [
              product.id,
              `${product.productNumber} · ${product.name}`,
            ]),
          )
        : await names(ctx, HOST_ADMIN_ROUTES.searchCategory, entityIds);
    const categories = kit.console.has(HOST_ADMIN_ROUTES.searchCategory)
      ? (await kit.call(ctx, HOST_ADMIN_ROUTES.searchCategory, { body: { limit: 500 } })).data
      : [];
    const groups = kit.console.has(HOST_ADMIN_ROUTES.listCustomerGroup)
      ? (await kit.call(ctx, HOST_ADMIN_ROUTES.listCustomerGroup, { query: { limit: 500 } })).data
      : [];
    const values: RuleForm = form.values ?? {
      kind: kind.key,
      categoryId: '',
      productNumber: '',
      audience: 'only',
      customerNumber: '',
      customerGroupId: '',
    };
    return {
      template: 'partial-assortments',
      status: form.status ?? 200,
      data: {
        title: 'Partial assortments',
        kinds: KINDS.map((k) => ({
          key: k.key,
          label: k.label,
          selected: k.key === kind.key,
          href: kit.href(PATH, { kind: k.key }),
        })),
        kind: { key: kind.key, one: kind.one },
        assignments: list.data.map((row) => {
          const entityId = row.attributes[kind.idField];
          const ruleId = row.attributes.ruleId;
          return {
            entity: entityNames.get(entityId) ?? entityId,
            rule: ruleNames.get(ruleId) ?? ruleId,
            // A rule deleted since (e.g. its customer group in Vendure's Dashboard) fails closed: say so.
            ruleGone: kit.console.has(HOST_ADMIN_ROUTES.searchRule) && !ruleNames.has(ruleId),
            action: kit.href(`${PATH}/${kind.key}/${entityId}/${ruleId}/delete`),
          };
        }),
        paging: paging(kit, PATH, { kind: kind.key }, pageNumber, list.meta.total),
        values,
        kindOptions: KINDS.map((k) => ({ key: k.key, one: k.one, selected: k.key === values.kind })),
        categories: categories.map((category) => ({
          id: category.id,
          name: category.attributes.name,
          selected: category.id === values.categoryId,
        })),
        groups: groups.map((group) => ({
          id: group.id,
          name: group.attributes.name,
          selected: group.id === values.customerGroupId,
        })),
        audienceOnly: values.audience !== 'except',
        errors: form.errors ?? noErrors(),
      },
    };
  }

  return page;
}
