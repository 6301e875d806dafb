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
} from './kit.js';
import { routeRefs } from '../../lib/routes.js';
import type { EventAdminRoute } from '../event-manager/index.js';

const routes = routeRefs<EventAdminRoute>();

export const EVENTS_PATH = '/events';
export const EVENT_STATUSES = ['draft', 'published', 'closed', 'canceled', 'completed'] as const;
const EVENT_SORTS = [
  { value: '-startsAt', label: 'Latest start first' },
  { value: 'startsAt', label: 'Next start first' },
  { value: 'name', label: 'Name' },
] as const;
const NEW_EVENT_FIELDS = [
  'productNumber',
  'name',
  'language',
  'startsAt',
  'endsAt',
  'participantLimit',
  'registrationDeadline',
  'description',
] as const;

export interface EventAttributes {
  name: string;
  productNumber: string;
  productName: string;
  language: string;
  description: string | null;
  startsAt: string;
  endsAt: string;
  participantLimit: number | null;
  registrationDeadline: string;
  waitingList: boolean;
  status: string;
  registrationOpen: boolean;
  registeredCount: number;
  waitingCount: number;
  freeSeats: number | null;
}

/** A `datetime-local` value (taken as UTC, as the console's dates are) as an ISO instant; null when it is not one. */
export function localToInstant(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const instant = `${value}:00.000Z`;
  return Number.isNaN(Date.parse(instant)) ? null : instant;
}

/**
 * Events (the event manager for the operator): the list by status, next first when upcoming, with
 * seat counts, and a form for a new event (a draft for a product; publishing happens on its page).
 */
export function eventListPages(kit: ConsoleKit) {
  const { host } = kit;

  async function listPage(
    ctx: ConsoleContext,
    query: Record<string, unknown>,
    form: { values?: Record<string, string>; errors?: FormErrors; status?: number } = {},
  ) {
    const status = EVENT_STATUSES.find((s) => s === text(query, 'status'));
    const sort = sortOf(query, EVENT_SORTS);
    const page = pageOf(query);
    const list = await kit.call(ctx, routes.listEventsAdmin, {
      query: { page, limit: PAGE_SIZE, sort: sort.chosen.value, ...(status ? { status } : {}) },
    });
    return {
      template: 'events',
      status: form.status ?? 200,
      data: {
        title: 'Events',
        statuses: [
          { value: '', label: 'All', selected: !status },
          ...EVENT_STATUSES.map((s) => ({ value: s, label: s, selected: s === status })),
        ],
        status: status ?? null,
        sorts: sort.choices,
        sortLabel: sort.chosen.label,
        events: list.data.map((row) => ({ ...row.attributes, id: row.id, href: kit.href(`${EVENTS_PATH}/${row.id}`) })),
        paging: paging(kit, EVENTS_PATH, { status, sort: sort.param }, page, list.meta.total),
        values: form.values ?? { language: 'en' },
        errors: form.errors ?? noErrors(),
      },
    };
  }

  return [
    consolePage({
      path: EVENTS_PATH,
      menu: { label: 'Events', position: 60 },
      async handler({ ctx, query }) {
        return listPage(ctx, query);
      },
    }),
    consolePage({
      path: `${EVENTS_PATH}/create`,
      method: 'POST',
      async handler({ ctx, form }) {
        const values: Record<string, string> = Object.fromEntries(
          NEW_EVENT_FIELDS.map((name) => [name, text(form, name)]),
        );
        values.waitingList = text(form, 'waitingList') === 'on' ? 'on' : '';
        const errors = noErrors();
        let productId: string | undefined;
        if (!values.productNumber)
          errors.fields.productNumber = 'Give the number of the product the tickets are sold as.';
        else {
          const [product] = await host.catalog.productIdsByNumbers(host.db, [values.productNumber]);
          if (product) productId = product.id;
          else errors.fields.productNumber = `There is no product with the number "${values.productNumber}".`;
        }
        const instants: { startsAt?: string; endsAt?: string; registrationDeadline?: string } = {};
        for (const field of ['startsAt', 'endsAt', 'registrationDeadline'] as const) {
          if (!values[field]) {
            if (field !== 'registrationDeadline') errors.fields[field] = 'Give a date and time.';
            continue;
          }
          const instant = localToInstant(values[field]);
          if (instant) instants[field] = instant;
          else errors.fields[field] = 'Give a date and time as YYYY-MM-DDTHH:MM.';
        }
        const { startsAt, endsAt, registrationDeadline } = instants;
        if (Object.keys(errors.fields).length || !productId || !startsAt || !endsAt)
          return listPage(ctx, {}, { values, errors, status: 400 });
        const limit = values.participantLimit;
        const body = {
          name: values.name ?? '',
          language: values.language ?? '',
          waitingList: values.waitingList === 'on',
          productId,
          startsAt,
          endsAt,
          ...(registrationDeadline ? { registrationDeadline } : {}),
          // Unreadable: NaN, which the route refuses (400) with its own message.
          ...(limit ? { participantLimit: /^\d{1,7}$/.test(limit) ? Number(limit) : Number.NaN } : {}),
          ...(values.description ? { description: values.description } : {}),
        };
        let created: { data: { id: string } };
        try {
          created = await kit.call(ctx, routes.createEventAdmin, { body });
        } catch (error) {
          return listPage(
            ctx,
            {},
            {
              values,
              errors: formErrorsOf(error, (pointer) =>
                pointer === '/productId' ? 'productNumber' : (pointer.split('/')[1] ?? null),
              ),
              status: 400,
            },
          );
        }
        return {
          redirect: kit.href(`${EVENTS_PATH}/${created.data.id}`),
          notice: `The event "${values.name}" is created as a draft. Publish it to show it in the storefront.`,
        };
      },
    }),
  ];
}
