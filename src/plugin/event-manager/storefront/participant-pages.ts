import type { HostRuntime, StoreContext, StorefrontPage } from '../../../host/contract.js';
import { Errors } from '../../../lib/errors.js';
import { isId, newId } from '../../../lib/ids.js';
import { attempt, page, type Form, type PageResult, type RouteCaller } from '../../storefront-kit.js';
import type { EventView } from '../repository.js';
import type { EventUseCases } from '../use-cases/index.js';
import { display, field, pathId, STAFF_PAGE, type ListAnswer } from './shared.js';

interface Participant {
  id: string;
  eventId: string;
  firstName: string;
  lastName: string;
  status: string;
  documents: Array<{ name: string; url: string | null; note: string | null }>;
}

/** The sales staff's pages for one event's participants: the list, adding one, editing one, its status, the circular mail. */
export function eventParticipantPages(host: HostRuntime, call: RouteCaller, service: EventUseCases): StorefrontPage[] {
  async function participantsPage(
    ctx: StoreContext,
    eventId: string,
    query: Form,
    extra: Record<string, unknown> = {},
    status = 200,
  ): Promise<PageResult> {
    const event = await call<EventView>(ctx, 'readManagedEvent', { params: { id: eventId } });
    const { elements } = await call<ListAnswer<Participant>>(ctx, 'searchEventParticipants', {
      params: { id: eventId },
      body: { limit: 500 },
    });
    const statuses = (
      await call<ListAnswer<{ technicalName: string; name: string }>>(ctx, 'listEventParticipantStatuses')
    ).elements;
    const participants = elements.map((p) => ({
      ...p,
      statusOptions: statuses.map((s) => ({
        value: s.technicalName,
        label: s.name,
        selected: s.technicalName === p.status,
      })),
    }));
    const mailed = typeof query.mailed === 'string' && /^\d+$/.test(query.mailed) ? Number(query.mailed) : null;
    return {
      template: 'event-manager-participants',
      status,
      data: { title: `Participants: ${event.name}`, event: display(ctx, event), participants, mailed, ...extra },
    };
  }

  return [
    ...participantListPages(host, call, participantsPage),
    ...participantDetailPages(call, participantsPage),
    ...eventMailPages(call, service),
  ];
}

/** An event's participants: the list and adding one. */
function participantListPages(
  host: HostRuntime,
  call: RouteCaller,
  participantsPage: (
    ctx: StoreContext,
    eventId: string,
    query: Form,
    extra?: Record<string, unknown>,
    status?: number,
  ) => Promise<PageResult>,
): StorefrontPage[] {
  return [
    page({
      ...STAFF_PAGE,
      path: '/account/event-manager/:id/participants',
      handler: ({ ctx, params, query }) => participantsPage(ctx, pathId(params.id, 'Event'), query),
    }),
    page({
      ...STAFF_PAGE,
      path: '/account/event-manager/:id/participants',
      method: 'POST',
      async handler({ ctx, params, form }) {
        const id = pathId(params.id, 'Event');
        const result = await attempt(async () => {
          const customer = await host.customers.findByEmail(host.db, field(form, 'customerEmail'));
          if (!customer)
            throw Errors.badRequest(
              'SUITE__EVENT_CUSTOMER_NOT_FOUND',
              'There is no customer with this e-mail address.',
            );
          const person = {
            firstName: field(form, 'firstName'),
            lastName: field(form, 'lastName'),
            email: field(form, 'email'),
          };
          const named = person.firstName || person.lastName || person.email;
          return call(ctx, 'addEventParticipant', {
            params: { id },
            body: { customerId: customer.id, ...(named ? person : {}) },
          });
        });
        if ('error' in result) return participantsPage(ctx, id, {}, { error: result.error }, 400);
        return { redirect: `/account/event-manager/${id}/participants` };
      },
    }),
  ];
}

/** One participant: the page, saving, the status. */
function participantDetailPages(
  call: RouteCaller,
  participantsPage: (
    ctx: StoreContext,
    eventId: string,
    query: Form,
    extra?: Record<string, unknown>,
    status?: number,
  ) => Promise<PageResult>,
): StorefrontPage[] {
  /** The edit form as the update route's body: the documents kept (unticked "remove") and the one added. */
  function participantPatch(form: Form, existing: Participant) {
    const documents: Array<Record<string, unknown>> = existing.documents.filter(
      (_d, index) => field(form, `removeDocument${index}`) !== 'on',
    );
    const documentName = field(form, 'documentName');
    if (documentName)
      documents.push({
        name: documentName,
        url: field(form, 'documentUrl') || null,
        note: field(form, 'documentNote') || null,
      });
    return {
      firstName: field(form, 'firstName'),
      lastName: field(form, 'lastName'),
      email: field(form, 'email'),
      notes: field(form, 'notes') || null,
      documents,
    };
  }

  return [
    page({
      ...STAFF_PAGE,
      path: '/account/event-manager/participant/:id',
      async handler({ ctx, params }) {
        const participant = await call<Participant>(ctx, 'readEventParticipant', {
          params: { id: pathId(params.id, 'Participant') },
        });
        return {
          template: 'event-manager-participant',
          data: { title: `${participant.firstName} ${participant.lastName}`, participant },
        };
      },
    }),
    page({
      ...STAFF_PAGE,
      path: '/account/event-manager/participant/:id',
      method: 'POST',
      async handler({ ctx, params, form }) {
        const id = pathId(params.id, 'Participant');
        const existing = await call<Participant>(ctx, 'readEventParticipant', { params: { id } });
        const result = await attempt(() =>
          call(ctx, 'updateEventParticipant', { params: { id }, body: participantPatch(form, existing) }),
        );
        if ('error' in result)
          return {
            template: 'event-manager-participant',
            status: 400,
            data: { title: `${existing.firstName} ${existing.lastName}`, participant: existing, error: result.error },
          };
        return { redirect: `/account/event-manager/${existing.eventId}/participants` };
      },
    }),
    page({
      ...STAFF_PAGE,
      path: '/account/event-manager/participant/:id/status',
      method: 'POST',
      async handler({ ctx, params, form }) {
        const id = pathId(params.id, 'Participant');
        const existing = await call<Participant>(ctx, 'readEventParticipant', { params: { id } });
        const result = await attempt(() =>
          call(ctx, 'setEventParticipantStatus', { params: { id }, body: { status: field(form, 'status') } }),
        );
        if ('error' in result) return participantsPage(ctx, existing.eventId, {}, { error: result.error }, 400);
        return { redirect: `/account/event-manager/${existing.eventId}/participants` };
      },
    }),
  ];
}

/** The circular mail to an event's participants. */
function eventMailPages(call: RouteCaller, service: EventUseCases): StorefrontPage[] {
  const mailPage = (
    event: EventView,
    values: Record<string, unknown>,
    mailingKey = newId(),
    error?: string,
  ): PageResult => ({
    template: 'event-manager-mail',
    status: error ? 400 : 200,
    data: { title: `Circular mail: ${event.name}`, event, mailingKey, values, ...(error ? { error } : {}) },
  });

  return [
    page({
      ...STAFF_PAGE,
      path: '/account/event-manager/:id/mail',
      handler: async ({ ctx, params }) =>
        mailPage(await call<EventView>(ctx, 'readManagedEvent', { params: { id: pathId(params.id, 'Event') } }), {}),
    }),
    page({
      ...STAFF_PAGE,
      path: '/account/event-manager/:id/mail',
      method: 'POST',
      async handler({ ctx, params, form }) {
        const event = await call<EventView>(ctx, 'readManagedEvent', { params: { id: pathId(params.id, 'Event') } });
        const subject = field(form, 'subject');
        const message = typeof form.message === 'string' ? form.message : '';
        const mailingKey = field(form, 'mailingKey');
        if (!subject || subject.length > 255 || !message.trim() || message.length > 20000 || !isId(mailingKey))
          return mailPage(
            event,
            { subject, message },
            isId(mailingKey) ? mailingKey : newId(),
            'Give a subject (at most 255 characters) and a message.',
          );
        // The service, not the route: the form's mailing key makes a second submit of the same form
        // send nothing again, which the route does through the Idempotency-Key header an in-process call has not.
        const sent = await service.sendCircularMail(ctx, event.id, { subject, message }, mailingKey);
        return { redirect: `/account/event-manager/${event.id}/participants?mailed=${sent.recipients}` };
      },
    }),
  ];
}
