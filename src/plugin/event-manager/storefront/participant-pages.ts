import type { StoreContext, StorefrontPage } from '../../../contract/index.js';
import { AppError } from '../../../lib/errors.js';
import { isId, newId } from '../../../lib/ids.js';
import { attempt, page, type Form, type PageResult } from '../../storefront-kit.js';
import type { EventApi } from './index.js';
import type { EventView } from '../repository.js';
import { display, field, pathId, STAFF_PAGE } from './shared.js';

interface Participant {
  id: string;
  eventId: string;
  firstName: string;
  lastName: string;
  status: string;
  documents: Array<{ name: string; url: string | null; note: string | null }>;
}

/** The sales staff's pages for one event's participants: the list, adding one, editing one, its status, the circular mail. */
export function eventParticipantPages({ call, routes }: EventApi): StorefrontPage[] {
  async function participantsPage(
    ctx: StoreContext,
    eventId: string,
    query: Form,
    extra: Record<string, unknown> = {},
    status = 200,
  ): Promise<PageResult> {
    const event = await call(ctx, routes.readManagedEvent, { params: { id: eventId } });
    const { elements } = await call(ctx, routes.searchEventParticipants, {
      params: { id: eventId },
      body: { limit: 500 },
    });
    const statuses = (await call(ctx, routes.listEventParticipantStatuses)).elements;
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
    ...participantListPages({ call, routes }, participantsPage),
    ...participantDetailPages({ call, routes }, participantsPage),
    ...eventMailPages({ call, routes }),
  ];
}

/** An event's participants: the list and adding one. */
function participantListPages(
  { call, routes }: EventApi,
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
          const person = {
            firstName: field(form, 'firstName'),
            lastName: field(form, 'lastName'),
            email: field(form, 'email'),
          };
          const named = person.firstName || person.lastName || person.email;
          return call(ctx, routes.addEventParticipant, {
            params: { id },
            body: { customerEmail: field(form, 'customerEmail'), ...(named ? person : {}) },
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
  { call, routes }: EventApi,
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
    const documents: Array<{ name: string; url: string | null; note: string | null }> = existing.documents.filter(
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
        const participant = await call(ctx, routes.readEventParticipant, {
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
        const existing = await call(ctx, routes.readEventParticipant, { params: { id } });
        const result = await attempt(() =>
          call(ctx, routes.updateEventParticipant, { params: { id }, body: participantPatch(form, existing) }),
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
        const existing = await call(ctx, routes.readEventParticipant, { params: { id } });
        const result = await attempt(() =>
          call(ctx, routes.setEventParticipantStatus, { params: { id }, body: { status: field(form, 'status') } }),
        );
        if ('error' in result) return participantsPage(ctx, existing.eventId, {}, { error: result.error }, 400);
        return { redirect: `/account/event-manager/${existing.eventId}/participants` };
      },
    }),
  ];
}

/** The circular mail to an event's participants. */
function eventMailPages({ call, routes }: EventApi): StorefrontPage[] {
  /** The form; `mailingKey` is its token, the Idempotency-Key of the send (a new one per rendered form). */
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

  /** Sends through the route with the form's token: a second submit of the same form replays the first answer. */
  async function send(ctx: StoreContext, id: string, body: { subject: string; message: string }, mailingKey: string) {
    try {
      return await attempt(() =>
        call(ctx, routes.sendEventCircularMail, {
          params: { id },
          body,
          idempotencyKey: mailingKey,
        }),
      );
    } catch (error) {
      // The same form sent again with other text (back button, edited): a new mailing, confirmed by a fresh form.
      if (error instanceof AppError && error.code === 'SUITE__IDEMPOTENCY_KEY_REUSED')
        return {
          error: 'This form was already sent with another text. Check the text and send it again.',
          fresh: true,
        };
      throw error;
    }
  }

  return [
    page({
      ...STAFF_PAGE,
      path: '/account/event-manager/:id/mail',
      handler: async ({ ctx, params }) =>
        mailPage(await call(ctx, routes.readManagedEvent, { params: { id: pathId(params.id, 'Event') } }), {}),
    }),
    page({
      ...STAFF_PAGE,
      path: '/account/event-manager/:id/mail',
      method: 'POST',
      async handler({ ctx, params, form }) {
        const id = pathId(params.id, 'Event');
        const values = {
          subject: field(form, 'subject'),
          message: typeof form.message === 'string' ? form.message : '',
        };
        const token = field(form, 'mailingKey');
        const result = isId(token)
          ? await send(ctx, id, values, token)
          : { error: 'This form has expired. Check the text and send it again.', fresh: true };
        if ('error' in result) {
          const event = await call(ctx, routes.readManagedEvent, { params: { id } });
          return mailPage(event, values, 'fresh' in result ? newId() : token, result.error);
        }
        return { redirect: `/account/event-manager/${id}/participants?mailed=${result.ok.recipients}` };
      },
    }),
  ];
}
