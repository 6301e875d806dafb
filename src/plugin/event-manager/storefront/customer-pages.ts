import type { HostRuntime, StoreContext, StorefrontPage } from '../../../contract/index.js';
import { MAX_LIMIT, type Filter } from '../../../lib/criteria.js';
import { Errors } from '../../../lib/errors.js';
import { isId } from '../../../lib/ids.js';
import { fromMinor } from '../../../lib/money.js';
import { attempt, list, page, type PageResult } from '../../storefront-kit.js';
import type { EventApi } from './index.js';
import { EVENT_REGISTER_PERMISSION } from '../line-item-processor.js';
import type { EventSettingsCache } from '../settings.js';
import { isSalesStaff } from '../staff.js';
import { allEventsLink, dateTime, display, field, ORDER_PERMISSION, pathId } from './shared.js';

interface EventFilters {
  formats: Array<{ id: string; name: string }>;
  difficultyLevels: Array<{ id: string; name: string }>;
  languages: string[];
}

/** The customer's pages: the event overview, an event with its registration form, the company's participants, the ticket checkout. */
export function eventCustomerPages(
  host: HostRuntime,
  { call, routes }: EventApi,
  settings: EventSettingsCache,
): StorefrontPage[] {
  return [...eventOverviewPages({ call, routes }, settings), ...eventRegistrationPages(host, { call, routes })];
}

/** The event overview and the company's participants. */
function eventOverviewPages({ call, routes }: EventApi, settings: EventSettingsCache): StorefrontPage[] {
  /** The overview's filters from the query string, only values the filter route offers (nothing else is echoed). */
  function overviewFilter(query: Record<string, unknown>, filters: EventFilters) {
    const offered = (value: unknown, ids: Array<{ id: string }>) =>
      typeof value === 'string' && ids.some((s) => s.id === value) ? value : '';
    const chosen = {
      formatId: offered(query.format, filters.formats),
      difficultyLevelId: offered(query.difficulty, filters.difficultyLevels),
      language: typeof query.language === 'string' && filters.languages.includes(query.language) ? query.language : '',
      categoryId: typeof query.category === 'string' && isId(query.category) ? query.category : '',
    };
    const filter: Filter[] = Object.entries(chosen).flatMap(([field, value]): Filter[] =>
      value ? [{ type: 'equals', field, value }] : [],
    );
    return { chosen, filter, term: typeof query.term === 'string' ? query.term.trim().slice(0, 255) : '' };
  }

  return [
    {
      path: '/account/events',
      auth: 'login',
      async handler({ ctx, query }) {
        const filters = await call(ctx, routes.readEventFilters);
        const { chosen, filter, term } = overviewFilter(query, filters);
        const { elements, total } = await call(ctx, routes.searchEvents, {
          body: { limit: 100, filter, ...(term ? { term } : {}) },
        });
        const option = (options: Array<{ id: string; name: string }>, selected: string) =>
          options.map((s) => ({ id: s.id, name: s.name, selected: s.id === selected }));
        return {
          template: 'event-overview',
          data: {
            title: 'Events',
            total,
            events: elements.map((event) => display(ctx, event)),
            formats: option(filters.formats, chosen.formatId),
            difficultyLevels: option(filters.difficultyLevels, chosen.difficultyLevelId),
            languages: filters.languages.map((l) => ({ value: l, selected: l === chosen.language })),
            term,
            filtered: filter.length > 0 || term !== '',
            allEventsUrl: allEventsLink(settings.current()),
            canSeeParticipants: ctx.can(EVENT_REGISTER_PERMISSION),
            isStaff: isSalesStaff(ctx),
          },
        };
      },
    },
    {
      path: '/account/events/participants',
      auth: 'login',
      async handler({ ctx, query }) {
        const { elements, total } = await call(ctx, routes.searchCompanyEventParticipants, {
          body: { limit: 500, sort: [{ field: 'createdAt', order: 'DESC' }] },
        });
        const participants = elements.map((p) => ({ ...p, eventStartsAtText: dateTime(ctx, p.eventStartsAt) }));
        return {
          template: 'event-participants',
          data: {
            title: 'Our participants',
            total,
            participants,
            ordered: typeof query.ordered === 'string' ? query.ordered.slice(0, 64) : null,
          },
        };
      },
    },
  ];
}

/** At most this many colleagues are offered on an event's page (the employee list's largest page). */
const COLLEAGUES_MAX = MAX_LIMIT;

/** The ticket checkout, an event, and the registration of colleagues. */
function eventRegistrationPages(host: HostRuntime, { call, routes }: EventApi): StorefrontPage[] {
  /**
   * The colleagues a registration may name: the company's active employees (the declared employee
   * list, for callers with employee.read); without it an employee is offered only themselves.
   */
  async function colleagues(ctx: StoreContext) {
    if (!ctx.customer) return [];
    if (!ctx.can('employee.read')) {
      const self = ctx.employee;
      return self ? [{ id: self.id, name: `${self.firstName} ${self.lastName}`, email: self.email }] : [];
    }
    const { elements } = await call(ctx, routes.listEmployees, {
      body: {
        limit: COLLEAGUES_MAX,
        filter: [{ type: 'equals', field: 'active', value: true }],
        sort: [{ field: 'lastName' }],
      },
    });
    return elements.map(({ id, firstName, lastName, email }) => ({ id, name: `${firstName} ${lastName}`, email }));
  }

  async function detailPage(
    ctx: StoreContext,
    id: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ): Promise<PageResult> {
    const event = await call(ctx, routes.readEvent, { params: { id: pathId(id, 'Event') } });
    const canRegister = ctx.can(EVENT_REGISTER_PERMISSION) && !!ctx.customer;
    return {
      template: 'event-detail',
      status,
      data: {
        title: event.name,
        event: display(ctx, event),
        canRegister: canRegister && event.registrationOpen && (event.freeSeats !== 0 || event.waitingList),
        colleagues: canRegister ? await colleagues(ctx) : [],
        self:
          ctx.actor.type === 'customer' && ctx.customer
            ? { name: `${ctx.customer.firstName} ${ctx.customer.lastName}`, email: ctx.customer.email }
            : null,
        ...extra,
      },
    };
  }

  async function checkoutPage(
    ctx: StoreContext,
    extra: Record<string, unknown> = {},
    status = 200,
  ): Promise<PageResult> {
    const priced = await host.cart.price(host.db, ctx, await host.cart.current(host.db, ctx));
    const precision = ctx.salesChannel.currencyPrecision;
    const lines = priced.lines.map((line) => ({
      label: line.label,
      quantity: line.quantity,
      participant: line.payload.participant ?? null,
      totalNet: fromMinor(line.totalNet, precision),
    }));
    const data = {
      title: 'Checkout',
      lines,
      netTotal: fromMinor(priced.netTotal, precision),
      total: fromMinor(priced.total, precision),
      currency: ctx.salesChannel.currencyIso,
    };
    return {
      template: 'event-checkout',
      status,
      data: { ...data, canOrder: lines.length > 0 && ctx.can(ORDER_PERMISSION), ...extra },
    };
  }

  return [
    { path: '/account/events/checkout', auth: 'login', handler: ({ ctx }) => checkoutPage(ctx) },
    {
      path: '/account/events/checkout',
      method: 'POST',
      auth: 'login',
      async handler({ ctx }) {
        if (!ctx.can(ORDER_PERMISSION))
          throw Errors.forbidden(
            `The permission "${ORDER_PERMISSION}" is required to place orders.`,
            'SUITE__PERMISSION_DENIED',
          );
        const cart = await host.cart.current(host.db, ctx);
        const result = await attempt(() => host.checkout.placeOrder(host.db, ctx, { cartToken: cart.token }));
        if ('error' in result) return checkoutPage(ctx, { error: result.error }, 400);
        return { redirect: `/account/events/participants?ordered=${encodeURIComponent(result.ok.orderNumber)}` };
      },
    },
    page({ path: '/account/events/:id', auth: 'login', handler: ({ ctx, params }) => detailPage(ctx, params.id) }),
    page({
      path: '/account/events/:id/register',
      method: 'POST',
      auth: 'login',
      async handler({ ctx, params, form }) {
        const id = pathId(params.id, 'Event');
        const event = await call(ctx, routes.readEvent, { params: { id } });
        const participants: Array<Record<string, string>> = list(form, 'employeeId').map((employeeId) => ({
          employeeId,
        }));
        if (field(form, 'self') === 'on') participants.push({});
        const guest = {
          firstName: field(form, 'guestFirstName'),
          lastName: field(form, 'guestLastName'),
          email: field(form, 'guestEmail'),
        };
        if (guest.firstName || guest.lastName || guest.email) participants.push(guest);
        if (participants.length === 0) return detailPage(ctx, id, { error: 'Choose at least one participant.' }, 400);
        const tickets = participants.map((participant) => ({
          productId: event.productId,
          quantity: 1,
          payload: { eventId: event.id, participant },
        }));
        const result = await attempt(() => host.cart.addLineItems(host.db, ctx, tickets));
        if ('error' in result) return detailPage(ctx, id, { error: result.error }, 400);
        return { redirect: '/account/events/checkout' };
      },
    }),
  ];
}
