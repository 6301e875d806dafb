import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import type { Criteria } from '../../lib/criteria.js';
import {
  jsonApiList,
  jsonApiListSchema,
  jsonApiSortQuery,
  jsonApiPageQuery,
  jsonApiSortOf,
} from '../../lib/json-api.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import {
  circularMailBody,
  circularMailResponse,
  createEventBody,
  eventSchema,
  staffParticipantSchema,
  statusBody,
  statusName,
  TAG,
} from './schemas.js';
import type { EventSettingsCache } from './settings.js';
import type { EventUseCases } from './use-cases/index.js';

const EVENT_TYPE = 'suite_event';
const PARTICIPANT_TYPE = 'suite_event_participant';
const eventResource = objectSchema({ id: { type: 'string' }, type: { const: EVENT_TYPE }, attributes: eventSchema }, [
  'id',
  'type',
  'attributes',
]);
const participantResource = objectSchema(
  { id: { type: 'string' }, type: { const: PARTICIPANT_TYPE }, attributes: staffParticipantSchema },
  ['id', 'type', 'attributes'],
);
const singleEvent = objectSchema({ data: eventResource }, ['data']);
const asEvent = <E extends { id: string }>(event: E) => ({ id: event.id, type: EVENT_TYPE, attributes: event });
const asParticipant = <P extends { id: string }>(participant: P) => ({
  id: participant.id,
  type: PARTICIPANT_TYPE,
  attributes: participant,
});

const tags = [`${TAG}: operator`];
const eventId = pathParams('id');

/**
 * The event manager for the shop operator (the console's events page): what sales staff do in the
 * storefront's event manager — list, create, publish, participants with their statuses (check-in
 * is the status `participated`), a circular mail — through the same use cases, as Admin API routes.
 * A circular sent by the operator goes out through each participant's customer's sales channel.
 */
export function eventOperatorRoutes(host: HostRuntime, service: EventUseCases, settings: EventSettingsCache) {
  return [...operatorEventRoutes(host, service, settings), ...operatorParticipantRoutes(host, service)];
}

/** Events: the list, create, read, and a status change. */
function operatorEventRoutes(host: HostRuntime, service: EventUseCases, settings: EventSettingsCache) {
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/suite-event',
      operationId: 'listEventsAdmin',
      summary:
        'Events in every status with their seat counts, next first (JSON:API, paged; filter by status, or upcoming only).',
      tags,
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({
          ...jsonApiPageQuery,
          ...jsonApiSortQuery(['startsAt', 'name'], 'by start, next first with startsAfter, else latest first'),
          status: statusName,
          startsAfter: { type: 'string', format: 'date-time' },
          startsBefore: { type: 'string', format: 'date-time' },
        }),
        responses: { 200: jsonApiListSchema(eventResource) },
      },
      async handler({ query }) {
        await settings.load();
        const filter: NonNullable<Criteria['filter']> = [];
        if (query.status) filter.push({ type: 'equals', field: 'status', value: query.status });
        if (query.startsAfter || query.startsBefore)
          filter.push({
            type: 'range',
            field: 'startsAt',
            parameters: {
              ...(query.startsAfter ? { gte: query.startsAfter } : {}),
              ...(query.startsBefore ? { lte: query.startsBefore } : {}),
            },
          });
        const upcoming = Boolean(query.startsAfter);
        const found = await service.searchEvents({
          page: query.page,
          limit: query.limit,
          filter,
          sort: [query.sort ? jsonApiSortOf(query.sort) : { field: 'startsAt', order: upcoming ? 'asc' : 'desc' }],
        });
        return jsonApiList(found.data.map(asEvent), {
          path: '/suite-event',
          page: query.page,
          limit: query.limit,
          total: found.total,
          filters: {
            status: query.status,
            startsAfter: query.startsAfter,
            startsBefore: query.startsBefore,
            sort: query.sort,
          },
        });
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/suite-event',
      operationId: 'createEventAdmin',
      summary: 'Creates an event for a product, in status draft.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { body: createEventBody, responses: { 200: singleEvent } },
      async handler({ body }) {
        await settings.load();
        return { data: asEvent(await service.createEvent(null, body)) };
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: '/suite-event/{id}',
      operationId: 'readEventAdmin',
      summary: 'One event in any status, with its seat counts.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params: eventId, responses: { 200: singleEvent } },
      async handler({ params }) {
        await settings.load();
        return { data: asEvent(await service.view(host.db, params.id)) };
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/_action/suite-event/{id}/status',
      operationId: 'setEventStatusAdmin',
      summary: 'Sets the event status (published makes it appear in the storefront’s event overview).',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params: eventId, body: statusBody, responses: { 200: singleEvent } },
      async handler({ params, body }) {
        await settings.load();
        return { data: asEvent(await service.setEventStatus(params.id, body.status)) };
      },
    }),
  ];
}

/** An event's participants, a participant's status, the circular mail. */
function operatorParticipantRoutes(host: HostRuntime, service: EventUseCases) {
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/suite-event/{id}/participant',
      operationId: 'listEventParticipantsAdmin',
      summary:
        'The participants of one event, of every company, in registration order (the waiting list in its order); filter by status.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: {
        params: eventId,
        query: objectSchema({ ...jsonApiPageQuery, status: statusName }),
        responses: { 200: jsonApiListSchema(participantResource) },
      },
      async handler({ params, query }) {
        await service.view(host.db, params.id);
        const filter: NonNullable<Criteria['filter']> = query.status
          ? [{ type: 'equals', field: 'status', value: query.status }]
          : [];
        const found = await service.searchParticipants(params.id, { page: query.page, limit: query.limit, filter });
        return jsonApiList(found.data.map(asParticipant), {
          path: `/suite-event/${params.id}/participant`,
          page: query.page,
          limit: query.limit,
          total: found.total,
          filters: { status: query.status },
        });
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/_action/suite-event-participant/{id}/status',
      operationId: 'setEventParticipantStatusAdmin',
      summary:
        'Sets a participant status (check-in: participated); a seat freed goes to the first on the waiting list, who is mailed.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: {
        params: eventId,
        body: statusBody,
        responses: { 200: objectSchema({ data: participantResource }, ['data']) },
      },
      async handler({ params, body }) {
        return { data: asParticipant(await service.setParticipantStatus(params.id, body.status)) };
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/_action/suite-event/{id}/circular-mail',
      operationId: 'sendEventCircularMailAdmin',
      summary:
        'Mails every participant of the event (registered and waiting unless `statuses` says otherwise), one mail each, signed by the shop.',
      description:
        'Send an `Idempotency-Key` header: a retry with the same key answers the first result and queues nothing again.',
      idempotent: true,
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params: eventId, body: circularMailBody, responses: { 200: circularMailResponse } },
      async handler({ params, body }) {
        return service.sendCircularMail(
          { salesChannel: null, name: 'The shop', salesRepresentativeId: null },
          params.id,
          body,
        );
      },
    }),
  ];
}
