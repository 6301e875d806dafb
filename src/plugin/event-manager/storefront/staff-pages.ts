import type { HostRuntime, StoreContext, StorefrontPage } from '../../../contract/index.js';
import { attempt, list, page, type Form, type PageResult } from '../../storefront-kit.js';
import type { EventApi } from './index.js';
import { SPECIFICATION_TYPES, type SpecificationType } from '../repository.js';
import { display, field, formDate, pathId, STAFF_PAGE } from './shared.js';
import { Errors } from '../../../lib/errors.js';

const isSpecificationType = (value: string): value is SpecificationType =>
  (SPECIFICATION_TYPES as readonly string[]).includes(value);

interface Specification {
  id: string;
  type: SpecificationType;
  name: string;
}

/** The sales staff's pages for events: the management list, the create form, specifications and the status. */
export function eventStaffPages(host: HostRuntime, { call, routes }: EventApi): StorefrontPage[] {
  async function specificationsByType(ctx: StoreContext): Promise<Record<SpecificationType, Specification[]>> {
    const { elements } = await call(ctx, routes.searchEventSpecifications, {
      body: { limit: 500 },
    });
    const byType = {} as Record<SpecificationType, Specification[]>;
    for (const type of SPECIFICATION_TYPES) byType[type] = elements.filter((s) => s.type === type);
    return byType;
  }

  async function managementPage(
    ctx: StoreContext,
    query: Form,
    extra: Record<string, unknown> = {},
    status = 200,
  ): Promise<PageResult> {
    const { eventStatuses } = await call(ctx, routes.readEventManagerOptions);
    const { elements, total } = await call(ctx, routes.searchManagedEvents, {
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
    ...staffEventListPages(host, { call, routes }, specificationsByType, managementPage),
    ...staffSpecificationPages({ call, routes }, specificationsByType, managementPage),
  ];
}

/** The staff's event list and the event form. */
function staffEventListPages(
  host: HostRuntime,
  { call, routes }: EventApi,
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
    const { languages } = await call(ctx, routes.readEventManagerOptions);
    const { elements: products } = await host.catalog.searchProducts(host.db, null, {
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
  function createBody(form: Form) {
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
      // Left empty: '', which the route refuses (400) as no date.
      startsAt: formDate(field(form, 'startsAt')) ?? '',
      endsAt: formDate(field(form, 'endsAt')) ?? '',
      // Unreadable: NaN, which the route refuses (400) as it refuses any other number it cannot take.
      participantLimit: limit === '' ? null : /^\d{1,7}$/.test(limit) ? Number(limit) : Number.NaN,
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
          { waitingList: false, language: (await call(ctx, routes.readEventManagerOptions)).languages[0] },
          null,
        ),
    },
    {
      ...STAFF_PAGE,
      path: '/account/event-manager/create',
      method: 'POST',
      async handler({ ctx, form }) {
        const result = await attempt(() => call(ctx, routes.createEvent, { body: createBody(form) }));
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
  { call, routes }: EventApi,
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
        const type = field(form, 'type');
        if (!isSpecificationType(type))
          throw Errors.badRequest('SUITE__INVALID_INPUT', 'Choose the kind of specification.', { pointer: '/type' });
        await call(ctx, routes.createEventSpecification, {
          body: {
            type,
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
          call(ctx, routes.setEventStatus, { params: { id }, body: { status: field(form, 'status') } }),
        );
        if ('error' in result) return managementPage(ctx, {}, { error: result.error }, 400);
        return {
          redirect: `/account/event-manager?notice=${encodeURIComponent(`${result.ok.name}: ${result.ok.status}`)}`,
        };
      },
    }),
  ];
}
