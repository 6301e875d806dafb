import type { HostRuntime, StoreContext, StorefrontPage } from '../../host/contract.js';
import type { Filter } from '../../lib/criteria.js';
import { selectRows } from '../../lib/db.js';
import { AppError, Errors } from '../../lib/errors.js';
import { isId, newId } from '../../lib/ids.js';
import { fromMinor } from '../../lib/money.js';
import { employeesOfCustomer } from '../employee/repository.js';
import { EVENT_REGISTER_PERMISSION } from './line-item-processor.js';
import { formatDateTime } from './mail.js';
import { participantStatuses, type EventView, type SpecificationType, SPECIFICATION_TYPES } from './repository.js';
import type { EventInput, EventUseCases } from './use-cases/index.js';
import type { EventSettings, EventSettingsCache } from './settings.js';
import { isSalesStaff } from './staff.js';

type Form = Record<string, unknown>;
type PageResult = Awaited<ReturnType<StorefrontPage['handler']>>;

const SAFE_LINK = /^(\/(?![/\\])|https?:\/\/)/i;
const ORDER_PERMISSION = 'orders.create';

function field(form: Form, name: string): string {
  const value = form[name];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : '';
}

function fields(form: Form, name: string): string[] {
  const value = form[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string' && v !== '');
}

/** 'YYYY-MM-DDTHH:MM' from a datetime-local input, read as UTC; '' → undefined. */
function formDate(value: string, label: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`);
  if (Number.isNaN(date.getTime())) throw Errors.badRequest('SUITE__INVALID_INPUT', `${label} is not a date and time.`);
  return date.toISOString();
}

function dateTime(ctx: StoreContext, iso: string | null): string {
  return iso ? formatDateTime(iso, ctx.salesChannel.timeZone) : '';
}

/** A 400 from the service becomes a message on the re-rendered form; anything else propagates. */
async function formErrors<T>(work: () => Promise<T>): Promise<{ ok: T } | { error: string }> {
  try {
    return { ok: await work() };
  } catch (error) {
    if (error instanceof AppError && error.status === 400) return { error: error.message };
    throw error;
  }
}

function allEventsLink(settings: EventSettings): string {
  if (settings.categoryUrl && SAFE_LINK.test(settings.categoryUrl)) return settings.categoryUrl;
  if (settings.categoryId && isId(settings.categoryId)) return `/account/events?category=${settings.categoryId}`;
  return '/account/events';
}

export function eventStorefrontPages(host: HostRuntime, service: EventUseCases, settings: EventSettingsCache): StorefrontPage[] {
  const display = (ctx: StoreContext, event: EventView) => ({
    ...event,
    startsAtText: dateTime(ctx, event.startsAt),
    endsAtText: dateTime(ctx, event.endsAt),
    deadlineText: dateTime(ctx, event.registrationDeadline),
    speakerNames: event.speakers.map((s) => s.name).join(', '),
    seatsText: event.participantLimit === null ? 'Unlimited' : `${event.freeSeats} of ${event.participantLimit} free`,
  });

  async function colleagues(ctx: StoreContext) {
    const rows = await selectRows<{ id: string; first_name: string; last_name: string; email: string }>(
      employeesOfCustomer(host.db, ctx.customer!.id)
        .where('ec.active', true)
        .where('e.active', true)
        .orderBy('e.last_name')
        .orderBy('e.first_name')
        .limit(500)
        .select('e.id', 'e.first_name', 'e.last_name', 'e.email'),
    );
    return rows.map((row) => ({ id: row.id, name: `${row.first_name} ${row.last_name}`, email: row.email }));
  }

  async function detailPage(ctx: StoreContext, id: string, extra: Record<string, unknown> = {}, status = 200): Promise<PageResult> {
    if (!isId(id)) throw Errors.notFound('Event', id);
    await settings.load();
    const event = await service.customerEvent(ctx, id);
    const canRegister = ctx.can(EVENT_REGISTER_PERMISSION) && !!ctx.customer;
    return {
      template: 'event-detail',
      status,
      data: {
        title: event.name,
        event: display(ctx, event),
        canRegister: canRegister && event.registrationOpen && (event.freeSeats !== 0 || event.waitingList),
        colleagues: canRegister ? await colleagues(ctx) : [],
        self: ctx.actor.type === 'customer' && ctx.customer ? { name: `${ctx.customer.firstName} ${ctx.customer.lastName}`, email: ctx.customer.email } : null,
        ...extra,
      },
    };
  }

  async function checkoutPage(ctx: StoreContext, extra: Record<string, unknown> = {}, status = 200): Promise<PageResult> {
    const cart = await host.cart.current(ctx);
    const priced = await host.cart.price(ctx, cart);
    const precision = ctx.salesChannel.currencyPrecision;
    const lines = priced.lines.map((line) => {
      const participant = line.payload.participant ?? null;
      return { label: line.label, quantity: line.quantity, participant, totalNet: fromMinor(line.totalNet, precision) };
    });
    return {
      template: 'event-checkout',
      status,
      data: {
        title: 'Checkout',
        lines,
        netTotal: fromMinor(priced.netTotal, precision),
        total: fromMinor(priced.total, precision),
        currency: ctx.salesChannel.currencyIso,
        canOrder: lines.length > 0 && ctx.can(ORDER_PERMISSION),
        ...extra,
      },
    };
  }

  // ---- sales staff ----

  const staffStatusOptions = (current: string) => service.eventStatuses(settings.current()).map((s) => ({ value: s, selected: s === current }));

  async function managementPage(ctx: StoreContext, query: Form, extra: Record<string, unknown> = {}, status = 200): Promise<PageResult> {
    await settings.load();
    const { data, total } = await service.searchEvents({ limit: 200, sort: [{ field: 'createdAt', order: 'DESC' }] });
    const created = typeof query.created === 'string' ? data.find((e) => e.id === query.created) : undefined;
    return {
      template: 'event-manager',
      status,
      data: {
        title: 'Event management',
        total,
        events: data.map((event) => ({ ...display(ctx, event), statusOptions: staffStatusOptions(event.status) })),
        created: created ? created.name : null,
        notice: typeof query.notice === 'string' ? query.notice.slice(0, 200) : null,
        ...extra,
      },
    };
  }

  async function eventFormPage(ctx: StoreContext, values: Record<string, unknown>, error: string | null, status = 200): Promise<PageResult> {
    const current = await settings.load();
    const { products } = await host.catalog.searchProducts(null, { limit: 200, sort: [{ field: 'createdAt', order: 'DESC' }], 'total-count-mode': 'none' });
    const specs = Object.fromEntries(await Promise.all(SPECIFICATION_TYPES.map(async (type) => [type, await service.specificationsOfType(type)] as const)));
    const chosen = (type: SpecificationType, selected: unknown) =>
      specs[type]!.map((s) => ({ ...s, selected: Array.isArray(selected) ? selected.includes(s.id) : selected === s.id }));
    return {
      template: 'event-manager-form',
      status,
      data: {
        title: 'Create event',
        error,
        values,
        products: products.map((p) => ({ number: p.productNumber, name: p.name })),
        languages: current.languages.map((l) => ({ value: l, selected: l === values.language })),
        formats: chosen('format', values.formatId),
        difficultyLevels: chosen('difficulty_level', values.difficultyLevelId),
        venues: chosen('venue', values.venueId),
        speakers: chosen('speaker', values.speakerIds),
      },
    };
  }

  async function participantsPage(ctx: StoreContext, eventId: string, query: Form, extra: Record<string, unknown> = {}, status = 200): Promise<PageResult> {
    if (!isId(eventId)) throw Errors.notFound('Event', eventId);
    await settings.load();
    const event = await service.view(host.db, eventId);
    const { data } = await service.searchParticipants(eventId, { limit: 500 });
    const statuses = await participantStatuses(host.db);
    return {
      template: 'event-manager-participants',
      status,
      data: {
        title: `Participants: ${event.name}`,
        event: display(ctx, event),
        participants: data.map((p) => ({ ...p, statusOptions: statuses.map((s) => ({ value: s.technicalName, label: s.name, selected: s.technicalName === p.status })) })),
        mailed: typeof query.mailed === 'string' && /^\d+$/.test(query.mailed) ? Number(query.mailed) : null,
        ...extra,
      },
    };
  }

  /** The form names the product by its number (a shop has too many products for a select). */
  async function eventInputFrom(form: Form): Promise<EventInput> {
    const limit = field(form, 'participantLimit');
    if (limit && !/^\d{1,7}$/.test(limit)) throw Errors.badRequest('SUITE__INVALID_INPUT', 'The participant limit must be a whole number.');
    const spec = (name: string) => {
      const value = field(form, name);
      return value && isId(value) ? value : null;
    };
    const name = field(form, 'name');
    if (!name || name.length > 255) throw Errors.badRequest('SUITE__INVALID_INPUT', 'Give the event a name (at most 255 characters).');
    const productNumber = field(form, 'productNumber');
    const [product] = productNumber && productNumber.length <= 64 ? await host.catalog.productIdsByNumbers(host.db, [productNumber]) : [];
    if (!product) throw Errors.badRequest('SUITE__EVENT_PRODUCT_NOT_FOUND', 'There is no product with this product number.');
    const productId = product.id;
    const startsAt = formDate(field(form, 'startsAt'), 'Start');
    const endsAt = formDate(field(form, 'endsAt'), 'End');
    if (!startsAt || !endsAt) throw Errors.badRequest('SUITE__INVALID_INPUT', 'Give start and end of the event.');
    const description = field(form, 'description');
    return {
      productId,
      name,
      language: field(form, 'language'),
      formatId: spec('formatId'),
      difficultyLevelId: spec('difficultyLevelId'),
      venueId: spec('venueId'),
      speakerIds: [...new Set(fields(form, 'speakerIds').filter(isId))],
      description: description ? description.slice(0, 20000) : null,
      startsAt,
      endsAt,
      participantLimit: limit ? Math.max(1, Number(limit)) : null,
      registrationDeadline: formDate(field(form, 'registrationDeadline'), 'Registration deadline') ?? null,
      waitingList: field(form, 'waitingList') === 'on' || field(form, 'waitingList') === '1',
    };
  }

  const pages: StorefrontPage[] = [
    // ---- customers ----
    {
      path: '/account/events',
      auth: 'login',
      async handler({ ctx, query }) {
        const current = await settings.load();
        const filter: Filter[] = [];
        const formatId = typeof query.format === 'string' && isId(query.format) ? query.format : '';
        const difficultyId = typeof query.difficulty === 'string' && isId(query.difficulty) ? query.difficulty : '';
        const language = typeof query.language === 'string' && current.languages.includes(query.language) ? query.language : '';
        const categoryId = typeof query.category === 'string' && isId(query.category) ? query.category : '';
        const term = typeof query.term === 'string' ? query.term.trim().slice(0, 255) : '';
        if (formatId) filter.push({ type: 'equals', field: 'formatId', value: formatId });
        if (difficultyId) filter.push({ type: 'equals', field: 'difficultyLevelId', value: difficultyId });
        if (language) filter.push({ type: 'equals', field: 'language', value: language });
        if (categoryId) filter.push({ type: 'equals', field: 'categoryId', value: categoryId });
        const { data, total } = await service.searchCustomerEvents(ctx, { limit: 100, filter, ...(term ? { term } : {}) });
        const option = (list: Array<{ id: string; name: string }>, selected: string) => list.map((s) => ({ id: s.id, name: s.name, selected: s.id === selected }));
        return {
          template: 'event-overview',
          data: {
            title: 'Events',
            total,
            events: data.map((event) => display(ctx, event)),
            formats: option(await service.specificationsOfType('format'), formatId),
            difficultyLevels: option(await service.specificationsOfType('difficulty_level'), difficultyId),
            languages: current.languages.map((l) => ({ value: l, selected: l === language })),
            term,
            filtered: filter.length > 0 || term !== '',
            allEventsUrl: allEventsLink(current),
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
        if (!ctx.can(EVENT_REGISTER_PERMISSION) || !ctx.customer) throw Errors.forbidden();
        const { data, total } = await service.companyParticipants(ctx.customer.id, { limit: 500, sort: [{ field: 'createdAt', order: 'DESC' }] });
        return {
          template: 'event-participants',
          data: {
            title: 'Our participants',
            total,
            participants: data.map((p) => ({ ...p, eventStartsAtText: dateTime(ctx, p.eventStartsAt) })),
            ordered: typeof query.ordered === 'string' ? query.ordered.slice(0, 64) : null,
          },
        };
      },
    },
    {
      path: '/account/events/checkout',
      auth: 'login',
      handler: ({ ctx }) => checkoutPage(ctx),
    },
    {
      path: '/account/events/checkout',
      method: 'POST',
      auth: 'login',
      async handler({ ctx }) {
        if (!ctx.can(ORDER_PERMISSION)) throw Errors.forbidden(`The permission "${ORDER_PERMISSION}" is required to place orders.`, 'SUITE__PERMISSION_DENIED');
        const cart = await host.cart.current(ctx);
        const result = await formErrors(() => host.checkout.placeOrder(ctx, { cartToken: cart.token }));
        if ('error' in result) return checkoutPage(ctx, { error: result.error }, 400);
        return { redirect: `/account/events/participants?ordered=${encodeURIComponent(result.ok.orderNumber)}` };
      },
    },
    {
      path: '/account/events/:id',
      auth: 'login',
      handler: ({ ctx, params }) => detailPage(ctx, params.id!),
    },
    {
      path: '/account/events/:id/register',
      method: 'POST',
      auth: 'login',
      async handler({ ctx, params, form }) {
        const page = await detailPage(ctx, params.id!);
        const event = ('data' in page ? page.data.event : null) as EventView;
        const participants: Array<Record<string, string>> = [];
        for (const employeeId of fields(form, 'employeeId')) participants.push({ employeeId });
        if (field(form, 'self') === 'on') participants.push({});
        const guest = { firstName: field(form, 'guestFirstName'), lastName: field(form, 'guestLastName'), email: field(form, 'guestEmail') };
        if (guest.firstName || guest.lastName || guest.email) participants.push(guest);
        if (participants.length === 0) return detailPage(ctx, params.id!, { error: 'Choose at least one participant.' }, 400);
        const result = await formErrors(() =>
          host.cart.addLineItems(
            ctx,
            participants.map((participant) => ({ productId: event.productId, quantity: 1, payload: { eventId: event.id, participant } })),
          ),
        );
        if ('error' in result) return detailPage(ctx, params.id!, { error: result.error }, 400);
        return { redirect: '/account/events/checkout' };
      },
    },

    // ---- sales staff ----
    {
      path: '/account/event-manager',
      auth: 'login',
      actors: ['salesRepresentative'],
      handler: ({ ctx, query }) => managementPage(ctx, query),
    },
    {
      path: '/account/event-manager/create',
      auth: 'login',
      actors: ['salesRepresentative'],
      handler: ({ ctx }) => eventFormPage(ctx, { waitingList: false, language: settings.current().languages[0] }, null),
    },
    {
      path: '/account/event-manager/create',
      method: 'POST',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ ctx, form }) {
        await settings.load();
        const result = await formErrors(async () => service.createEvent(ctx, await eventInputFrom(form)));
        if ('error' in result) {
          const values = { ...form, speakerIds: fields(form, 'speakerIds'), waitingList: field(form, 'waitingList') === 'on' };
          return eventFormPage(ctx, values, result.error, 400);
        }
        return { redirect: `/account/event-manager?created=${result.ok.id}` };
      },
    },
    {
      path: '/account/event-manager/specifications',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler() {
        const groups = await Promise.all(
          SPECIFICATION_TYPES.map(async (type) => ({ type, label: type.replace('_', ' '), items: await service.specificationsOfType(type) })),
        );
        return { template: 'event-manager-specifications', data: { title: 'Event specifications', groups } };
      },
    },
    {
      path: '/account/event-manager/specifications',
      method: 'POST',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ form }) {
        const type = field(form, 'type') as SpecificationType;
        const name = field(form, 'name');
        if (!SPECIFICATION_TYPES.includes(type) || !name || name.length > 255) throw Errors.badRequest('SUITE__INVALID_INPUT', 'Choose a type and give a name of at most 255 characters.');
        const description = field(form, 'description');
        await service.createSpecification({ type, name, description: description ? description.slice(0, 20000) : null });
        return { redirect: '/account/event-manager/specifications' };
      },
    },
    {
      path: '/account/event-manager/:id/status',
      method: 'POST',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ ctx, params, form }) {
        if (!isId(params.id!)) throw Errors.notFound('Event', params.id);
        await settings.load();
        const result = await formErrors(() => service.setEventStatus(params.id!, field(form, 'status')));
        if ('error' in result) return managementPage(ctx, {}, { error: result.error }, 400);
        return { redirect: `/account/event-manager?notice=${encodeURIComponent(`${result.ok.name}: ${result.ok.status}`)}` };
      },
    },
    {
      path: '/account/event-manager/:id/participants',
      auth: 'login',
      actors: ['salesRepresentative'],
      handler: ({ ctx, params, query }) => participantsPage(ctx, params.id!, query),
    },
    {
      path: '/account/event-manager/:id/participants',
      method: 'POST',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ ctx, params, form }) {
        if (!isId(params.id!)) throw Errors.notFound('Event', params.id);
        const result = await formErrors(async () => {
          const customer = await host.customers.findByEmail(host.db, field(form, 'customerEmail'));
          if (!customer) throw Errors.badRequest('SUITE__EVENT_CUSTOMER_NOT_FOUND', 'There is no customer with this e-mail address.');
          const person = { firstName: field(form, 'firstName'), lastName: field(form, 'lastName'), email: field(form, 'email') };
          const named = person.firstName || person.lastName || person.email;
          return service.addParticipant(ctx, params.id!, { customerId: customer.id, ...(named ? person : {}) });
        });
        if ('error' in result) return participantsPage(ctx, params.id, {}, { error: result.error }, 400);
        return { redirect: `/account/event-manager/${params.id}/participants` };
      },
    },
    {
      path: '/account/event-manager/participant/:id',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ params }) {
        if (!isId(params.id!)) throw Errors.notFound('Participant', params.id);
        const participant = await service.participant(host.db, params.id);
        return { template: 'event-manager-participant', data: { title: `${participant.firstName} ${participant.lastName}`, participant } };
      },
    },
    {
      path: '/account/event-manager/participant/:id',
      method: 'POST',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ params, form }) {
        if (!isId(params.id!)) throw Errors.notFound('Participant', params.id);
        const existing = await service.participant(host.db, params.id);
        const result = await formErrors(async () => {
          const documents = existing.documents.filter((_d, index) => field(form, `removeDocument${index}`) !== 'on');
          const documentName = field(form, 'documentName');
          const documentUrl = field(form, 'documentUrl');
          if (documentName) {
            if (documentUrl && !SAFE_LINK.test(documentUrl)) throw Errors.badRequest('SUITE__INVALID_INPUT', 'A document link must start with http://, https:// or /.');
            documents.push({ name: documentName.slice(0, 255), url: documentUrl ? documentUrl.slice(0, 2048) : null, note: field(form, 'documentNote').slice(0, 2000) || null });
          }
          const patch = { firstName: field(form, 'firstName'), lastName: field(form, 'lastName'), email: field(form, 'email') };
          for (const [key, value] of Object.entries(patch))
            if (!value || value.length > 255) throw Errors.badRequest('SUITE__INVALID_INPUT', `${key} must not be empty.`);
          if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(patch.email)) throw Errors.badRequest('SUITE__INVALID_INPUT', 'The e-mail address is not valid.');
          return service.updateParticipant(params.id!, { ...patch, notes: field(form, 'notes').slice(0, 20000) || null, documents });
        });
        if ('error' in result)
          return { template: 'event-manager-participant', status: 400, data: { title: `${existing.firstName} ${existing.lastName}`, participant: existing, error: result.error } };
        return { redirect: `/account/event-manager/${existing.eventId}/participants` };
      },
    },
    {
      path: '/account/event-manager/participant/:id/status',
      method: 'POST',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ ctx, params, form }) {
        if (!isId(params.id!)) throw Errors.notFound('Participant', params.id);
        const existing = await service.participant(host.db, params.id);
        const result = await formErrors(() => service.setParticipantStatus(params.id!, field(form, 'status')));
        if ('error' in result) return participantsPage(ctx, existing.eventId, {}, { error: result.error }, 400);
        return { redirect: `/account/event-manager/${existing.eventId}/participants` };
      },
    },
    {
      path: '/account/event-manager/:id/mail',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ params }) {
        if (!isId(params.id!)) throw Errors.notFound('Event', params.id);
        await settings.load();
        const event = await service.view(host.db, params.id);
        return { template: 'event-manager-mail', data: { title: `Circular mail: ${event.name}`, event, mailingKey: newId(), values: {} } };
      },
    },
    {
      path: '/account/event-manager/:id/mail',
      method: 'POST',
      auth: 'login',
      actors: ['salesRepresentative'],
      async handler({ ctx, params, form }) {
        if (!isId(params.id!)) throw Errors.notFound('Event', params.id);
        await settings.load();
        const event = await service.view(host.db, params.id);
        const subject = field(form, 'subject');
        const message = typeof form.message === 'string' ? form.message : '';
        const mailingKey = field(form, 'mailingKey');
        if (!subject || subject.length > 255 || !message.trim() || message.length > 20000 || !isId(mailingKey))
          return { template: 'event-manager-mail', status: 400, data: { title: `Circular mail: ${event.name}`, event, mailingKey: isId(mailingKey) ? mailingKey : newId(), values: { subject, message }, error: 'Give a subject (at most 255 characters) and a message.' } };
        const sent = await service.sendCircularMail(ctx, event.id, { subject, message }, mailingKey);
        return { redirect: `/account/event-manager/${event.id}/participants?mailed=${sent.recipients}` };
      },
    },
  ];
  return pages;
}
