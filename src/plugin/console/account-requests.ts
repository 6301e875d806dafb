import { isId } from '../../lib/ids.js';
import {
  consolePage,
  formErrorsOf,
  noErrors,
  pageOf,
  paging,
  PAGE_SIZE,
  sortOf,
  text,
  type ConsoleContext,
  type ConsoleKit,
  type FormErrors,
  notFoundPage,
} from './kit.js';
import { HOST_ADMIN_ROUTES } from '../../contract/index.js';
import { routeRefs } from '../../lib/routes.js';
import type { EmployeeAdminRoute } from '../employee/index.js';

const routes = routeRefs<EmployeeAdminRoute>();

const PATH = '/account-requests';
const STATUSES = ['open', 'accepted', 'declined'] as const;
const REQUEST_SORTS = [
  { value: '-createdAt', label: 'Newest first' },
  { value: 'createdAt', label: 'Oldest first' },
  { value: 'company', label: 'Company name' },
] as const;

/** The customer groups an accepted request may be put into (the host's groups, for the select). */
async function customerGroups(kit: ConsoleKit, ctx: ConsoleContext): Promise<Array<{ id: string; name: string }>> {
  if (!kit.console.has(HOST_ADMIN_ROUTES.listCustomerGroup)) return [];
  const groups = await kit.call(ctx, HOST_ADMIN_ROUTES.listCustomerGroup, { query: { limit: 500 } });
  return groups.data.map((group) => ({ id: group.id, name: group.attributes.name }));
}

/**
 * Business account requests: the list (by status, newest first, paged) and one request with its
 * decision forms. Accept creates the customer and mails them their login link (the Admin API's
 * acceptAccountRequest); decline needs a reason, kept with the request.
 */
export function accountRequestPages(kit: ConsoleKit) {
  async function detail(
    ctx: ConsoleContext,
    id: string,
    form: { action?: 'accept' | 'decline'; values?: Record<string, string>; errors?: FormErrors; status?: number } = {},
  ) {
    const request = await kit.call(ctx, routes.readAccountRequest, {
      params: { id },
    });
    const errors = form.errors ?? noErrors();
    return {
      template: 'account-request',
      status: form.status ?? 200,
      data: {
        title: `Account request of ${request.data.attributes.company}`,
        id,
        request: request.data.attributes,
        open: request.data.attributes.status === 'open',
        groups: (await customerGroups(kit, ctx)).map((group) => ({
          ...group,
          selected: form.values?.groupId === group.id,
        })),
        accept: {
          values: form.action === 'accept' ? form.values : {},
          errors: form.action === 'accept' ? errors : noErrors(),
        },
        decline: {
          values: form.action === 'decline' ? form.values : {},
          errors: form.action === 'decline' ? errors : noErrors(),
        },
        listHref: kit.href(PATH, { status: 'open' }),
      },
    };
  }

  return [
    consolePage({
      path: PATH,
      menu: { label: 'Account requests', position: 20 },
      async handler({ ctx, query }) {
        const status = STATUSES.find((s) => s === text(query, 'status'));
        const sort = sortOf(query, REQUEST_SORTS);
        const page = pageOf(query);
        const list = await kit.call(ctx, routes.listAccountRequests, {
          query: { page, limit: PAGE_SIZE, sort: sort.chosen.value, ...(status ? { status } : {}) },
        });
        return {
          template: 'account-requests',
          data: {
            title: 'Account requests',
            statuses: [
              { value: '', label: 'All', selected: !status },
              ...STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1), selected: s === status })),
            ],
            status: status ?? null,
            sorts: sort.choices,
            sortLabel: sort.chosen.label,
            requests: list.data.map((row) => ({ ...row.attributes, id: row.id, href: kit.href(`${PATH}/${row.id}`) })),
            paging: paging(kit, PATH, { status, sort: sort.param }, page, list.meta.total),
          },
        };
      },
    }),
    consolePage({
      path: `${PATH}/:id`,
      async handler({ ctx, params }) {
        if (!isId(params.id)) return notFoundPage('account request');
        return detail(ctx, params.id);
      },
    }),
    consolePage({
      path: `${PATH}/:id/accept`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        if (!isId(params.id)) return notFoundPage('account request');
        const values = { groupId: text(form, 'groupId'), comment: text(form, 'comment') };
        try {
          await kit.call(ctx, routes.acceptAccountRequest, {
            params: { id: params.id },
            body: { groupId: values.groupId || null, ...(values.comment ? { comment: values.comment } : {}) },
          });
        } catch (error) {
          return detail(ctx, params.id, { action: 'accept', values, errors: formErrorsOf(error), status: 400 });
        }
        return {
          redirect: kit.href(`${PATH}/${params.id}`),
          notice: 'The request is accepted: the customer was created and mailed a link to log in.',
        };
      },
    }),
    consolePage({
      path: `${PATH}/:id/decline`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        if (!isId(params.id)) return notFoundPage('account request');
        const values = { comment: text(form, 'comment') };
        if (!values.comment)
          return detail(ctx, params.id, {
            action: 'decline',
            values,
            errors: { fields: { comment: 'Give the reason for declining: it is kept with the request.' }, general: [] },
            status: 400,
          });
        try {
          await kit.call(ctx, routes.declineAccountRequest, {
            params: { id: params.id },
            body: { comment: values.comment },
          });
        } catch (error) {
          return detail(ctx, params.id, { action: 'decline', values, errors: formErrorsOf(error), status: 400 });
        }
        return { redirect: kit.href(`${PATH}/${params.id}`), notice: 'The request is declined.' };
      },
    }),
  ];
}
