import { isId } from '../../lib/ids.js';
import {
  consolePage,
  formErrorsOf,
  noErrors,
  pageOf,
  paging,
  text,
  type ConsoleContext,
  type ConsoleKit,
  type FormErrors,
  notFoundPage,
} from './kit.js';
import { routeRefs } from '../../lib/routes.js';
import type { SalesRepresentativeAdminRoute } from '../sales-representative/index.js';

const routes = routeRefs<SalesRepresentativeAdminRoute>();

const PATH = '/activity-types';
const PER_PAGE = 100;

/**
 * The kinds of customer activity sales representatives record (visit, call, …), in their order: a
 * new type, and a type switched off (it can no longer be chosen for new activities) or on again.
 */
export function activityTypePages(kit: ConsoleKit) {
  async function listPage(
    ctx: ConsoleContext,
    query: Record<string, unknown>,
    form: { values?: Record<string, string>; errors?: FormErrors; status?: number } = {},
  ) {
    const page = pageOf(query);
    const list = await kit.call(ctx, routes.listCustomerActivityTypes, {
      query: { page, limit: PER_PAGE },
    });
    return {
      template: 'activity-types',
      status: form.status ?? 200,
      data: {
        title: 'Activity types',
        types: list.data.map((row) => ({ ...row.attributes, id: row.id })),
        paging: paging(kit, PATH, {}, page, list.meta.total, PER_PAGE),
        values: form.values ?? { position: '0' },
        errors: form.errors ?? noErrors(),
      },
    };
  }

  return [
    consolePage({
      path: PATH,
      menu: { label: 'Activity types', position: 55 },
      async handler({ ctx, query }) {
        return listPage(ctx, query);
      },
    }),
    consolePage({
      path: `${PATH}/create`,
      method: 'POST',
      async handler({ ctx, form }) {
        const values = {
          technicalName: text(form, 'technicalName'),
          name: text(form, 'name'),
          position: text(form, 'position'),
        };
        const position =
          values.position === '' ? 0 : /^\d{1,6}$/.test(values.position) ? Number(values.position) : Number.NaN;
        try {
          await kit.call(ctx, routes.createCustomerActivityType, {
            body: { technicalName: values.technicalName, name: values.name, position },
          });
        } catch (error) {
          return listPage(ctx, {}, { values, errors: formErrorsOf(error), status: 400 });
        }
        return { redirect: kit.href(PATH), notice: `The activity type "${values.name}" is added.` };
      },
    }),
    consolePage({
      path: `${PATH}/:id/active`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        if (!isId(params.id)) return notFoundPage('activity type');
        const active = text(form, 'active') === 'true';
        await kit.call(ctx, routes.updateCustomerActivityType, { params: { id: params.id }, body: { active } });
        return {
          redirect: kit.href(PATH),
          notice: active
            ? 'The activity type can be chosen again.'
            : 'The activity type is switched off: it can no longer be chosen for new activities.',
        };
      },
    }),
  ];
}
