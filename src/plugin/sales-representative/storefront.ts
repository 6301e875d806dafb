import type { HostRuntime, StoreContext, StorefrontPage } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { isId } from '../../lib/ids.js';
import {
  attempt,
  dateText,
  noticeOf,
  page,
  routeCaller,
  routesByName,
  text,
  wholeNumber,
  type Form,
  type PageResult,
  type PageApi,
} from '../storefront-kit.js';
import { abandonedCartRoutes } from './abandoned-carts.js';
import { activityRoutes } from './activities.js';
import { representativeRoutes } from './routes.js';

type Api = PageApi<typeof representativeRoutes | typeof activityRoutes | typeof abandonedCartRoutes>;

const BASE = '/account/sales-representative';
const CUSTOMERS_PATH = `${BASE}/customers`;
const ACTIVITIES_PATH = `${BASE}/activities`;
const STATISTICS_PATH = `${BASE}/statistics`;
const ABANDONED_CARTS_PATH = `${BASE}/abandoned-carts`;
const customerPath = (id: string) => `${CUSTOMERS_PATH}/${id}`;
const PAGE_SIZE = 25;
/** The Store API's largest page: the customer choices of the activity form. */
const ALL_CUSTOMERS = 500;

const NOTICES: Record<string, string> = {
  acting: 'You now act for this customer: the shop, cart and account pages are theirs.',
  stopped: 'You no longer act for a customer.',
  recorded: 'The activity was recorded.',
  deleted: 'The activity was deleted.',
};

/** "2026-11-23" (a date input) as the start of that day in UTC; empty → undefined. */
function dateInput(value: string): string | null | undefined {
  if (value === '') return undefined;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
    ? `${value}T00:00:00.000Z`
    : null;
}

const currency = (ctx: StoreContext) => ctx.salesChannel.currencyIso;

/**
 * The sales representative's pages: assigned customers (act for one, and stop), one customer with
 * their orders, statistics and activities, the activity log with a form to record one, and the
 * revenue ranking with monthly statistics. Only a representative login may open them (403).
 */
export function salesRepresentativeStorefrontPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName([...representativeRoutes(host), ...activityRoutes(host), ...abandonedCartRoutes(host)]);
  const call = routeCaller();

  return [
    ...representativeCustomerPages(host, { call, routes }),
    ...representativeActivityPages({ call, routes }),
    ...representativeStatisticsPages({ call, routes }),
    ...representativeAbandonedCartPages({ call, routes }),
  ];
}

/** The assigned customers: the list, acting for one and stopping, one customer. */
function representativeCustomerPages(host: HostRuntime, { call, routes }: Api): StorefrontPage[] {
  async function customersPage(ctx: StoreContext, query: Record<string, unknown>): Promise<PageResult> {
    const page = wholeNumber(query.page, 1, 100_000) ?? 1;
    const term = typeof query.q === 'string' ? query.q.trim().slice(0, 100) : '';
    const result = await call(ctx, routes.listSalesRepresentativeCustomers, {
      body: { page, limit: PAGE_SIZE, ...(term ? { term } : {}) },
    });
    const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
    const search = term ? `&q=${encodeURIComponent(term)}` : '';
    return {
      template: 'b2b/sales-customers',
      data: {
        title: 'My customers',
        customers: result.elements.map((customer) => ({
          ...customer,
          url: customerPath(customer.id),
          lastOrderText: dateText(ctx, customer.lastOrderDate),
        })),
        total: result.total,
        term,
        currency: currency(ctx),
        actingFor: ctx.customer
          ? {
              company: ctx.customer.company ?? `${ctx.customer.firstName} ${ctx.customer.lastName}`,
              customerNumber: ctx.customer.customerNumber,
            }
          : null,
        previous: page > 1 ? `${CUSTOMERS_PATH}?page=${Math.min(page - 1, pages)}${search}` : null,
        next: page < pages ? `${CUSTOMERS_PATH}?page=${page + 1}${search}` : null,
        notice: noticeOf(query, NOTICES),
      },
    };
  }

  async function customerPage(ctx: StoreContext, id: string): Promise<PageResult> {
    if (!isId(id)) throw Errors.notFound('customer', id);
    // The statistics route answers 404 for a customer not assigned to the caller.
    const statistics = await call(ctx, routes.readSalesStatistics, {
      query: { customerId: id, months: 12 },
      body: {},
    });
    const [customer] = (
      await call(ctx, routes.searchSalesRepresentativeCustomers, {
        body: { limit: 1, filter: [{ type: 'equals', field: 'id', value: id }] },
      })
    ).elements;
    if (!customer) throw Errors.notFound('customer', id);
    // The customer-orders route answers a bare array (the spec); the order search answers the total too.
    const orders = await call(ctx, routes.listSalesRepresentativeOrders, {
      body: { page: 1, limit: 10, filter: [{ type: 'equals', field: 'customerId', value: id }] },
    });
    const activities = await call(ctx, routes.listCustomerActivities, {
      query: { customerId: id, page: 1, limit: 10 },
    });
    return {
      template: 'b2b/sales-customer',
      data: {
        title: customer.company ?? `${customer.firstName} ${customer.lastName}`,
        customer,
        statistics: { ...statistics, months: statistics.months.filter((month) => month.orderCount > 0) },
        orders: orders.elements.map((order) => ({ ...order, orderDateText: dateText(ctx, order.orderDate) })),
        ordersTotal: orders.total,
        activities: activities.elements.map((activity) => ({
          ...activity,
          activityDateText: dateText(ctx, activity.activityDate),
        })),
        activitiesTotal: activities.total,
        currency: currency(ctx),
        isCurrent: ctx.customer?.id === customer.id,
        activitiesUrl: `${ACTIVITIES_PATH}?customerId=${customer.id}`,
        listUrl: CUSTOMERS_PATH,
      },
    };
  }

  return [
    {
      path: CUSTOMERS_PATH,
      auth: 'login',
      actors: ['salesRepresentative'],
      handler: ({ ctx, query }) => customersPage(ctx, query),
    },
    {
      path: `${BASE}/act`,
      method: 'POST',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ ctx, form }) {
        const customerId = text(form, 'customerId', 64);
        if (!isId(customerId)) throw Errors.notFound('customer', customerId);
        const { contextToken } = await call(ctx, routes.switchSalesRepresentativeCustomer, {
          body: { customerId },
        });
        return { redirect: `${CUSTOMERS_PATH}?done=acting`, login: { token: contextToken } };
      },
    },
    {
      path: `${BASE}/stop`,
      method: 'POST',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ ctx }) {
        const { contextToken } = await call(ctx, routes.stopSalesRepresentativeActing);
        return { redirect: `${CUSTOMERS_PATH}?done=stopped`, login: { token: contextToken } };
      },
    },
    page({
      path: `${CUSTOMERS_PATH}/:id`,
      auth: 'login',
      actors: ['salesRepresentative'],
      handler: ({ ctx, params }) => customerPage(ctx, params.id),
    }),
  ];
}

/** Customer activities: the list, recording one, deleting one. */
function representativeActivityPages({ call, routes }: Api): StorefrontPage[] {
  async function activitiesPage(
    ctx: StoreContext,
    query: Record<string, unknown>,
    extra: { error?: string; form?: Form } = {},
    status = 200,
  ): Promise<PageResult> {
    const page = wholeNumber(query.page, 1, 100_000) ?? 1;
    const customerId = typeof query.customerId === 'string' && isId(query.customerId) ? query.customerId : null;
    if (typeof query.customerId === 'string' && query.customerId !== '' && !customerId)
      throw Errors.notFound('customer', query.customerId);
    const result = await call(ctx, routes.listCustomerActivities, {
      query: { page, limit: PAGE_SIZE, ...(customerId ? { customerId } : {}) },
    });
    const customers = (await call(ctx, routes.searchSalesRepresentativeCustomers, { body: { limit: ALL_CUSTOMERS } }))
      .elements;
    const names = new Map(
      customers.map((customer) => [customer.id, customer.company ?? `${customer.firstName} ${customer.lastName}`]),
    );
    const types = (await call(ctx, routes.listActiveCustomerActivityTypes)).elements;
    const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
    const filter = customerId ? `&customerId=${customerId}` : '';
    const form = extra.form ?? { customerId: customerId ?? ctx.customer?.id ?? '' };
    return {
      template: 'b2b/sales-activities',
      status,
      data: {
        title: 'Customer activities',
        activities: result.elements.map((activity) => ({
          ...activity,
          customerName: names.get(activity.customerId) ?? '',
          customerUrl: customerPath(activity.customerId),
          activityDateText: dateText(ctx, activity.activityDate),
          followUpText: dateText(ctx, activity.followUpDate),
          deleteUrl: `${ACTIVITIES_PATH}/${activity.id}/delete`,
        })),
        total: result.total,
        filterCustomer: customerId ? { id: customerId, name: names.get(customerId) ?? '' } : null,
        customers: customers.map((customer) => ({
          id: customer.id,
          name: names.get(customer.id),
          selected: customer.id === form.customerId,
        })),
        types: types.map((type) => ({ ...type, selected: type.id === form.typeId })),
        form,
        previous: page > 1 ? `${ACTIVITIES_PATH}?page=${Math.min(page - 1, pages)}${filter}` : null,
        next: page < pages ? `${ACTIVITIES_PATH}?page=${page + 1}${filter}` : null,
        error: extra.error ?? null,
        notice: noticeOf(query, NOTICES),
      },
    };
  }

  return [
    {
      path: ACTIVITIES_PATH,
      auth: 'login',
      actors: ['salesRepresentative'],
      handler: ({ ctx, query }) => activitiesPage(ctx, query),
    },
    {
      path: ACTIVITIES_PATH,
      method: 'POST',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ ctx, form }) {
        const fields = {
          customerId: text(form, 'customerId', 64),
          typeId: text(form, 'typeId', 64),
          subject: text(form, 'subject', 255),
          comment: text(form, 'comment', 10000),
          followUpDate: text(form, 'followUpDate', 10),
        };
        const followUpDate = dateInput(fields.followUpDate);
        if (followUpDate === null)
          return activitiesPage(ctx, {}, { error: 'Enter the follow-up date as a date.', form: fields }, 400);
        const body = {
          ...(fields.customerId ? { customerId: fields.customerId } : {}),
          typeId: fields.typeId,
          subject: fields.subject,
          comment: fields.comment || null,
          ...(followUpDate ? { followUpDate } : {}),
        };
        const result = await attempt(() => call(ctx, routes.createCustomerActivity, { body }));
        if ('error' in result) return activitiesPage(ctx, {}, { error: result.error, form: fields }, 400);
        return { redirect: `${ACTIVITIES_PATH}?done=recorded` };
      },
    },
    page({
      path: `${ACTIVITIES_PATH}/:id/delete`,
      method: 'POST',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ ctx, params }) {
        const id = params.id;
        if (!isId(id)) throw Errors.notFound('customer activity', id);
        await call(ctx, routes.deleteCustomerActivity, { params: { id } });
        return { redirect: `${ACTIVITIES_PATH}?done=deleted` };
      },
    }),
  ];
}

/** The sales statistics. */
function representativeStatisticsPages({ call, routes }: Api): StorefrontPage[] {
  async function statisticsPage(ctx: StoreContext, query: Record<string, unknown>): Promise<PageResult> {
    const ranking = await call(ctx, routes.readCustomerSalesRanking, {
      body: { page: 1, limit: 100 },
    });
    const chosen = typeof query.customerId === 'string' && query.customerId !== '' ? query.customerId : null;
    if (chosen !== null && !isId(chosen)) throw Errors.notFound('customer', chosen);
    const statistics = chosen
      ? await call(ctx, routes.readSalesStatistics, { query: { customerId: chosen, months: 12 }, body: {} })
      : null;
    return {
      template: 'b2b/sales-statistics',
      data: {
        title: 'Sales statistics',
        ranking: ranking.elements.map((entry) => ({
          ...entry,
          url: `${STATISTICS_PATH}?customerId=${entry.customerId}`,
          selected: entry.customerId === chosen,
        })),
        rankingTotal: ranking.total,
        chosen: chosen
          ? (ranking.elements.find((entry) => entry.customerId === chosen) ?? { customerId: chosen })
          : null,
        statistics,
        currency: currency(ctx),
      },
    };
  }

  return [
    {
      path: STATISTICS_PATH,
      auth: 'login',
      actors: ['salesRepresentative'],
      handler: ({ ctx, query }) => statisticsPage(ctx, query),
    },
  ];
}

/** The carts the assigned customers filled and left (`?hours=`, default 24), to follow up on. */
function representativeAbandonedCartPages({ call, routes }: Api): StorefrontPage[] {
  async function abandonedCartsPage(ctx: StoreContext, query: Record<string, unknown>): Promise<PageResult> {
    // A malformed or out-of-range hours value is the default: a GET page never answers 400.
    const idleHours = wholeNumber(query.hours, 1, 2160) ?? 24;
    const carts = await call(ctx, routes.listSalesRepresentativeAbandonedCarts, {
      body: { idleHours, limit: 100 },
    });
    return {
      template: 'b2b/sales-abandoned-carts',
      data: {
        title: 'Abandoned carts',
        idleHours,
        carts: carts.elements.map((cart) => ({
          ...cart,
          customerUrl: customerPath(cart.customerId),
          updatedText: dateText(ctx, cart.updatedAt, true),
        })),
      },
    };
  }

  return [
    {
      path: ABANDONED_CARTS_PATH,
      auth: 'login',
      actors: ['salesRepresentative'],
      handler: ({ ctx, query }) => abandonedCartsPage(ctx, query),
    },
  ];
}
