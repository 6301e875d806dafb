import { isId } from '../../lib/ids.js';
import { EVENT_STATUSES, EVENTS_PATH } from './events.js';
import {
  consolePage,
  formErrorsOf,
  noErrors,
  pageOf,
  paging,
  text,
  type ConsoleContext,
  type ConsoleKit,
  type FormErrors,
  notFoundPage,
} from './kit.js';
import { routeRefs } from '../../lib/routes.js';
import type { EventAdminRoute } from '../event-manager/index.js';

const routes = routeRefs<EventAdminRoute>();

const PARTICIPANTS_PER_PAGE = 50;
const CHECKED_IN = 'participated';

interface Participant {
  firstName: string;
  lastName: string;
  email: string;
  status: string;
  company: string | null;
  customerNumber: string | null;
  waitingPosition: number | null;
  createdAt: string;
}

const notFound = notFoundPage('event');

/**
 * One event: its data and seats, the status (publish, close, cancel, …), the participants with
 * their statuses (a status changed per participant; check-in sets "participated"), the waiting list
 * in its order, and a circular mail to the participants.
 */
export function eventPages(kit: ConsoleKit) {
  async function detail(
    ctx: ConsoleContext,
    id: string,
    query: Record<string, unknown> = {},
    form: { mail?: Record<string, string>; errors?: FormErrors; status?: number } = {},
  ) {
    const event = await kit.call(ctx, routes.readEventAdmin, {
      params: { id },
    });
    const page = pageOf(query);
    const [participants, waiting, statuses] = await Promise.all([
      kit.call(ctx, routes.listEventParticipantsAdmin, {
        params: { id },
        query: { page, limit: PARTICIPANTS_PER_PAGE },
      }),
      kit.call(ctx, routes.listEventParticipantsAdmin, {
        params: { id },
        query: { status: 'waiting', limit: 100 },
      }),
      kit.call(ctx, routes.listEventParticipantStatusesAdmin, {
        query: { limit: 100 },
      }),
    ]);
    const attributes = event.data.attributes;
    return {
      template: 'event',
      status: form.status ?? 200,
      data: {
        title: attributes.name,
        id,
        event: attributes,
        eventStatuses: EVENT_STATUSES.map((s) => ({ value: s, selected: s === attributes.status })),
        participants: participants.data.map((row) => ({
          ...row.attributes,
          id: row.id,
          checkedIn: row.attributes.status === CHECKED_IN,
          statuses: statuses.data.map((s) => ({
            value: s.attributes.technicalName,
            label: s.attributes.name,
            selected: s.attributes.technicalName === row.attributes.status,
          })),
        })),
        participantPaging: paging(
          kit,
          `${EVENTS_PATH}/${id}`,
          {},
          page,
          participants.meta.total,
          PARTICIPANTS_PER_PAGE,
        ),
        waiting: waiting.data.map((row) => ({ ...row.attributes, id: row.id })),
        mail: form.mail ?? {},
        errors: form.errors ?? noErrors(),
        listHref: kit.href(EVENTS_PATH),
      },
    };
  }

  const back = (id: string, notice: string) => ({ redirect: kit.href(`${EVENTS_PATH}/${id}`), notice });

  return [
    consolePage({
      path: `${EVENTS_PATH}/:id`,
      async handler({ ctx, params, query }) {
        if (!isId(params.id)) return notFound;
        return detail(ctx, params.id, query);
      },
    }),
    consolePage({
      path: `${EVENTS_PATH}/:id/status`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        if (!isId(params.id)) return notFound;
        const status = text(form, 'status');
        try {
          await kit.call(ctx, routes.setEventStatusAdmin, { params: { id: params.id }, body: { status } });
        } catch (error) {
          const errors = formErrorsOf(error);
          return detail(
            ctx,
            params.id,
            {},
            { errors: { fields: {}, general: [...errors.general, ...Object.values(errors.fields)] }, status: 400 },
          );
        }
        return back(
          params.id,
          status === 'published'
            ? 'The event is published: it shows in the storefront’s event overview.'
            : `The event is ${status} now.`,
        );
      },
    }),
    consolePage({
      path: `${EVENTS_PATH}/:id/participants/:participantId/status`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        if (!isId(params.id) || !isId(params.participantId)) return notFound;
        const status = text(form, 'status');
        let participant: { data: { attributes: Participant } };
        try {
          participant = await kit.call(ctx, routes.setEventParticipantStatusAdmin, {
            params: { id: params.participantId },
            body: { status },
          });
        } catch (error) {
          const errors = formErrorsOf(error);
          return detail(
            ctx,
            params.id,
            {},
            { errors: { fields: {}, general: [...errors.general, ...Object.values(errors.fields)] }, status: 400 },
          );
        }
        const who = `${participant.data.attributes.firstName} ${participant.data.attributes.lastName}`;
        return back(params.id, status === CHECKED_IN ? `${who} is checked in.` : `${who} is ${status} now.`);
      },
    }),
    consolePage({
      path: `${EVENTS_PATH}/:id/circular-mail`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        if (!isId(params.id)) return notFound;
        const mail = { subject: text(form, 'subject'), message: text(form, 'message') };
        const errors = noErrors();
        if (!mail.subject) errors.fields.subject = 'Give the subject of the mail.';
        if (!mail.message) errors.fields.message = 'Write the message.';
        if (Object.keys(errors.fields).length) return detail(ctx, params.id, {}, { mail, errors, status: 400 });
        let sent: { recipients: number };
        try {
          sent = await kit.call(ctx, routes.sendEventCircularMailAdmin, { params: { id: params.id }, body: mail });
        } catch (error) {
          return detail(ctx, params.id, {}, { mail, errors: formErrorsOf(error), status: 400 });
        }
        return back(params.id, `The circular mail is on its way to ${sent.recipients} participant(s).`);
      },
    }),
  ];
}
