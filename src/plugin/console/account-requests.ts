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
  type JsonApiDocument,
  notFoundPage,
} from './kit.js';

const PATH = '/account-requests';
const STATUSES = ['open', 'accepted', 'declined'] as const;
const REQUEST_SORTS = [
  { value: '-createdAt', label: 'Newest first' },
  { value: 'createdAt', label: 'Oldest first' },
  { value: 'company', label: 'Company name' },
] as const;

interface AccountRequest {
  status: 'open' | 'accepted' | 'declined';
  company: string;
  firstName: string;
  lastName: string;
  email: string;
  phone?: string | null;
  vatId?: string | null;
  address?: { street?: string; zipcode?: string; city?: string; countryCode?: string } | null;
  message?: string | null;
  customerId: string | null;
  decisionComment?: string | null;
  decidedAt?: string | null;
  createdAt: string;
}

/** The customer groups an accepted request may be put into (the host's groups, for the select). */
async function customerGroups(kit: ConsoleKit, ctx: ConsoleContext): Promise<Array<{ id: string; name: string }>> {
  if (!kit.console.has('listCustomerGroup')) return [];
  const groups = await kit.call<JsonApiDocument<{ name: string }>>(ctx, 'listCustomerGroup', { query: { limit: 500 } });
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
    const request = await kit.call<{ data: { id: string; attributes: AccountRequest } }>(ctx, 'readAccountRequest', {
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
        const list = await kit.call<JsonApiDocument<AccountRequest>>(ctx, 'listAccountRequests', {
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
          await kit.call(ctx, 'acceptAccountRequest', {
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
          await kit.call(ctx, 'declineAccountRequest', {
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
