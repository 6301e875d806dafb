import type { HostRuntime, StoreContext, StorefrontPage } from '../../../host/contract.js';
import { attempt, list, page, type Form, type PageResult, type RouteCaller } from '../../storefront-kit.js';
import { SPECIFICATION_TYPES, type EventView, type SpecificationType } from '../repository.js';
import { display, field, formDate, pathId, STAFF_PAGE, type ListAnswer } from './shared.js';

interface Options {
  languages: string[];
  eventStatuses: string[];
}

interface Specification {
  id: string;
  type: SpecificationType;
  name: string;
}

/** The sales staff's pages for events: the management list, the create form, specifications and the status. */
export function eventStaffPages(host: HostRuntime, call: RouteCaller): StorefrontPage[] {
  async function specificationsByType(ctx: StoreContext): Promise<Record<SpecificationType, Specification[]>> {
    const { elements } = await call<ListAnswer<Specification>>(ctx, 'searchEventSpecifications', {
      body: { limit: 500 },
    });
    return Object.fromEntries(
      SPECIFICATION_TYPES.map((type) => [type, elements.filter((s) => s.type === type)]),
    ) as Record<SpecificationType, Specification[]>;
  }

  async function managementPage(
    ctx: StoreContext,
    query: Form,
    extra: Record<string, unknown> = {},
    status = 200,
  ): Promise<PageResult> {
    const { eventStatuses } = await call<Options>(ctx, 'readEventManagerOptions');
    const { elements, total } = await call<ListAnswer<EventView>>(ctx, 'searchManagedEvents', {
      body: { limit: 200, sort: [{ field: 'createdAt', order: 'DESC' }] },
    });
    const created = typeof query.created === 'string' ? elements.find((e) => e.id === query.created) : undefined;
    const events = elements.map((event) => ({
      ...display(ctx, event),
      statusOptions: eventStatuses.map((s) => ({ value: s, selected: s === event.status })),
    }));
    return {
      template: 'event-manager',
      status,
      data: {
        title: 'Event management',
        total,
        events,
        created: created ? created.name : null,
        notice: typeof query.notice === 'string' ? query.notice.slice(0, 200) : null,
        ...extra,
      },
    };
  }

  return [
    ...staffEventListPages(host, call, specificationsByType, managementPage),
    ...staffSpecificationPages(call, specificationsByType, managementPage),
  ];
}

/** The staff's event list and the event form. */
function staffEventListPages(
  host: HostRuntime,
  call: RouteCaller,
  specificationsByType: (ctx: StoreContext) => Promise<Record<SpecificationType, Specification[]>>,
  managementPage: (
    ctx: StoreContext,
    query: Form,
    extra?: Record<string, unknown>,
    status?: number,
  ) => Promise<PageResult>,
): StorefrontPage[] {
  async function eventFormPage(
    ctx: StoreContext,
    values: Record<string, unknown>,
    error: string | null,
    status = 200,
  ): Promise<PageResult> {
    const { languages } = await call<Options>(ctx, 'readEventManagerOptions');
    const { products } = await host.catalog.searchProducts(null, {
      limit: 200,
      sort: [{ field: 'createdAt', order: 'DESC' }],
      'total-count-mode': 'none',
    });
    const specs = await specificationsByType(ctx);
    const chosen = (type: SpecificationType, selected: unknown) =>
      specs[type].map((s) => ({
        ...s,
        selected: Array.isArray(selected) ? selected.includes(s.id) : selected === s.id,
      }));
    return {
      template: 'event-manager-form',
      status,
      data: {
        title: 'Create event',
        error,
        values,
        products: products.map((p) => ({ number: p.productNumber, name: p.name })),
        languages: languages.map((l) => ({ value: l, selected: l === values.language })),
        formats: chosen('format', values.formatId),
        difficultyLevels: chosen('difficulty_level', values.difficultyLevelId),
        venues: chosen('venue', values.venueId),
        speakers: chosen('speaker', values.speakerIds),
      },
    };
  }

  /** The create route's body from the form; the form names the product by its number (a shop has too many products for a select). The route validates the rest. */
  function createBody(form: Form): Record<string, unknown> {
    const limit = field(form, 'participantLimit');
    const optionalId = (name: string) => field(form, name) || null;
    return {
      productNumber: field(form, 'productNumber'),
      name: field(form, 'name'),
      language: field(form, 'language'),
      formatId: optionalId('formatId'),
      difficultyLevelId: optionalId('difficultyLevelId'),
      venueId: optionalId('venueId'),
      speakerIds: [...new Set(list(form, 'speakerIds'))],
      description: field(form, 'description') || null,
      startsAt: formDate(field(form, 'startsAt')),
      endsAt: formDate(field(form, 'endsAt')),
      participantLimit: limit === '' ? null : /^\d{1,7}$/.test(limit) ? Number(limit) : limit,
      registrationDeadline: formDate(field(form, 'registrationDeadline')) ?? null,
      waitingList: field(form, 'waitingList') === 'on' || field(form, 'waitingList') === '1',
    };
  }

  return [
    { ...STAFF_PAGE, path: '/account/event-manager', handler: ({ ctx, query }) => managementPage(ctx, query) },
    {
      ...STAFF_PAGE,
      path: '/account/event-manager/create',
      handler: async ({ ctx }) =>
        eventFormPage(
          ctx,
          { waitingList: false, language: (await call<Options>(ctx, 'readEventManagerOptions')).languages[0] },
          null,
        ),
    },
    {
      ...STAFF_PAGE,
      path: '/account/event-manager/create',
      method: 'POST',
      async handler({ ctx, form }) {
        const result = await attempt(() => call<EventView>(ctx, 'createEvent', { body: createBody(form) }));
        if ('error' in result)
          return eventFormPage(
            ctx,
            { ...form, speakerIds: list(form, 'speakerIds'), waitingList: field(form, 'waitingList') === 'on' },
            result.error,
            400,
          );
        return { redirect: `/account/event-manager?created=${result.ok.id}` };
      },
    },
  ];
}

/** Specifications (formats, levels, …) and an event's status. */
function staffSpecificationPages(
  call: RouteCaller,
  specificationsByType: (ctx: StoreContext) => Promise<Record<SpecificationType, Specification[]>>,
  managementPage: (
    ctx: StoreContext,
    query: Form,
    extra?: Record<string, unknown>,
    status?: number,
  ) => Promise<PageResult>,
): StorefrontPage[] {
  return [
    {
      ...STAFF_PAGE,
      path: '/account/event-manager/specifications',
      async handler({ ctx }) {
        const specs = await specificationsByType(ctx);
        const groups = SPECIFICATION_TYPES.map((type) => ({ type, label: type.replace('_', ' '), items: specs[type] }));
        return { template: 'event-manager-specifications', data: { title: 'Event specifications', groups } };
      },
    },
    {
      ...STAFF_PAGE,
      path: '/account/event-manager/specifications',
      method: 'POST',
      async handler({ ctx, form }) {
        await call(ctx, 'createEventSpecification', {
          body: {
            type: field(form, 'type'),
            name: field(form, 'name'),
            description: field(form, 'description') || null,
          },
        });
        return { redirect: '/account/event-manager/specifications' };
      },
    },
    page({
      ...STAFF_PAGE,
      path: '/account/event-manager/:id/status',
      method: 'POST',
      async handler({ ctx, params, form }) {
        const id = pathId(params.id, 'Event');
        const result = await attempt(() =>
          call<EventView>(ctx, 'setEventStatus', { params: { id }, body: { status: field(form, 'status') } }),
        );
        if ('error' in result) return managementPage(ctx, {}, { error: result.error }, 400);
        return {
          redirect: `/account/event-manager?notice=${encodeURIComponent(`${result.ok.name}: ${result.ok.status}`)}`,
        };
      },
    }),
  ];
}
