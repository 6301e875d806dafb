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
import type { SalesRepresentativeAdminRoute } from '../sales-representative/index.js';

const routes = routeRefs<SalesRepresentativeAdminRoute>();

const PATH = '/sales-representatives';
const NEW_FIELDS = ['email', 'firstName', 'lastName', 'phone', 'password'] as const;

const notFound = notFoundPage('sales representative');

/**
 * Sales representatives: the list (search by name or e-mail) with a form for a new login, and one
 * representative with their customers — assigned by customer number (a customer looked after by
 * another representative moves), taken away, and the login switched off or on.
 */
export function salesRepresentativePages(kit: ConsoleKit) {
  return [...representativeListPages(kit), ...representativePages(kit)];
}

/** The list (search by name or e-mail) with the form for a new login. */
function representativeListPages(kit: ConsoleKit) {
  async function listPage(
    ctx: ConsoleContext,
    query: Record<string, unknown>,
    form: { values?: Record<string, string>; errors?: FormErrors; status?: number } = {},
  ) {
    const term = text(query, 'q').slice(0, 255);
    const page = pageOf(query);
    const list = await kit.call(ctx, routes.listSalesRepresentatives, {
      query: { page, limit: PAGE_SIZE, ...(term ? { term } : {}) },
    });
    return {
      template: 'sales-representatives',
      status: form.status ?? 200,
      data: {
        title: 'Sales representatives',
        term,
        representatives: list.data.map((row) => ({
          ...row.attributes,
          id: row.id,
          customerCount: row.attributes.customerIds.length,
          href: kit.href(`${PATH}/${row.id}`),
        })),
        paging: paging(kit, PATH, { q: term }, page, list.meta.total),
        values: form.values ?? {},
        errors: form.errors ?? noErrors(),
      },
    };
  }

  return [
    consolePage({
      path: PATH,
      menu: { label: 'Sales representatives', position: 50 },
      async handler({ ctx, query }) {
        return listPage(ctx, query);
      },
    }),
    consolePage({
      path: `${PATH}/create`,
      method: 'POST',
      async handler({ ctx, form }) {
        const values = Object.fromEntries(
          NEW_FIELDS.map((name) => [
            name,
            name === 'password' ? (typeof form.password === 'string' ? form.password : '') : text(form, name),
          ]),
        );
        const body = {
          email: values.email ?? '',
          firstName: values.firstName ?? '',
          lastName: values.lastName ?? '',
          password: values.password ?? '',
          ...(values.phone ? { phone: values.phone } : {}),
        };
        let created: { data: { id: string } };
        try {
          created = await kit.call(ctx, routes.createSalesRepresentative, { body });
        } catch (error) {
          return listPage(ctx, {}, { values: { ...values, password: '' }, errors: formErrorsOf(error), status: 400 });
        }
        return {
          redirect: kit.href(`${PATH}/${created.data.id}`),
          notice: `${values.firstName} ${values.lastName} can log in as a sales representative now. Assign their customers below.`,
        };
      },
    }),
  ];
}

/** One representative with their customers: assign by customer number, take away, switch the login off or on. */
function representativePages(kit: ConsoleKit) {
  const { host } = kit;

  async function detail(
    ctx: ConsoleContext,
    id: string,
    form: { customerNumbers?: string; errors?: FormErrors; status?: number } = {},
  ) {
    const representative = await kit.call(ctx, routes.readSalesRepresentative, { params: { id } });
    const attributes = representative.data.attributes;
    const customers = await host.customers.getMany(host.db, attributes.customerIds);
    return {
      template: 'sales-representative',
      status: form.status ?? 200,
      data: {
        title: `${attributes.firstName} ${attributes.lastName}`,
        id,
        representative: attributes,
        customers: customers.map((customer) => ({
          id: customer.id,
          customerNumber: customer.customerNumber,
          name: customer.company || `${customer.firstName} ${customer.lastName}`,
          href: kit.href(`/companies/${customer.id}`),
        })),
        customerNumbers: form.customerNumbers ?? '',
        errors: form.errors ?? noErrors(),
        listHref: kit.href(PATH),
      },
    };
  }

  return [
    consolePage({
      path: `${PATH}/:id`,
      async handler({ ctx, params }) {
        if (!isId(params.id)) return notFound;
        return detail(ctx, params.id);
      },
    }),
    consolePage({
      path: `${PATH}/:id/active`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        if (!isId(params.id)) return notFound;
        const active = text(form, 'active') === 'true';
        await kit.call(ctx, routes.updateSalesRepresentative, { params: { id: params.id }, body: { active } });
        return {
          redirect: kit.href(`${PATH}/${params.id}`),
          notice: active
            ? 'The representative can log in again.'
            : 'The representative’s login is switched off; their sessions end at the next request.',
        };
      },
    }),
    consolePage({
      path: `${PATH}/:id/customers`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        if (!isId(params.id)) return notFound;
        const id = params.id;
        const customerNumbers = text(form, 'customerNumbers');
        const numbers = [...new Set(customerNumbers.split(/[\s,;]+/).filter(Boolean))];
        const fail = (message: string) =>
          detail(ctx, id, {
            customerNumbers,
            errors: { fields: { customerNumbers: message }, general: [] },
            status: 400,
          });
        if (!numbers.length) return fail('Give one or more customer numbers, separated by commas or spaces.');
        if (numbers.length > 500) return fail('At most 500 customer numbers at once.');
        const found = await host.customers.findByNumbers(host.db, numbers);
        const unknown = numbers.filter((number) => !found.some((customer) => customer.customerNumber === number));
        if (unknown.length)
          return fail(`There is no customer with the number ${unknown.map((number) => `"${number}"`).join(', ')}.`);
        try {
          await kit.call(ctx, routes.assignSalesRepresentativeCustomers, {
            params: { id: params.id },
            body: { customerIds: found.map((customer) => customer.id) },
          });
        } catch (error) {
          return detail(ctx, params.id, {
            customerNumbers,
            errors: formErrorsOf(error, () => 'customerNumbers'),
            status: 400,
          });
        }
        return { redirect: kit.href(`${PATH}/${params.id}`), notice: `Assigned: ${numbers.join(', ')}.` };
      },
    }),
    consolePage({
      path: `${PATH}/:id/customers/:customerId/remove`,
      method: 'POST',
      async handler({ ctx, params }) {
        if (!isId(params.id) || !isId(params.customerId)) return notFound;
        await kit.call(ctx, routes.unassignSalesRepresentativeCustomer, {
          params: { id: params.id, customerId: params.customerId },
        });
        return {
          redirect: kit.href(`${PATH}/${params.id}`),
          notice: 'The customer is no longer looked after by this representative.',
        };
      },
    }),
  ];
}
