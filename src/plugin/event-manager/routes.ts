import { defineAdminRoute, defineStoreRoute, type HostRuntime, type StoreContext } from '../../contract/index.js';
import { jsonApiList, jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import {
  noContent,
  type BodyOf,
  type ParamsOf,
  type QueryOf,
  type RouteDefinition,
  type RouteInput,
  type RouteSchemas,
} from '../../lib/routes.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import { participantStatuses } from './repository.js';
import { EVENT_REGISTER_PERMISSION } from './line-item-processor.js';
import {
  TAG,
  addParticipantBody,
  circularMailBody,
  circularMailResponse,
  createEventBody,
  createParticipantStatusBody,
  createSpecificationBody,
  customerParticipantListResponse,
  eventCriteriaBody,
  eventListResponse,
  eventSchema,
  filtersResponse,
  optionsResponse,
  participantCriteriaBody,
  participantStatusListResponse,
  participantStatusSchema,
  specificationCriteriaBody,
  specificationListResponse,
  specificationSchema,
  staffParticipantListResponse,
  staffParticipantSchema,
  statusBody,
  updateEventBody,
  updateParticipantBody,
  updateSpecificationBody,
} from './schemas.js';
import type { EventUseCases } from './use-cases/index.js';
import type { EventSettingsCache } from './settings.js';
import { criteriaList, storeListOf } from '../../lib/store-list.js';
import { declaredCustomer } from '../declared.js';

const STAFF_TAGS = [`${TAG}: sales staff`];
const CUSTOMER_TAGS = [TAG];

/** A sales staff route as written below: what differs per route; its schemas type its handler's input as `defineStoreRoute` does. */
type StaffRoute<S extends RouteSchemas> = Pick<
  RouteDefinition,
  'method' | 'path' | 'operationId' | 'summary' | 'description' | 'idempotent'
> & {
  schemas: S;
  handler: (input: RouteInput<StoreContext, BodyOf<S>, QueryOf<S>, ParamsOf<S>>) => Promise<unknown>;
};

/** Routes for sales staff (declared `actors: ['salesRepresentative']`: the pipeline refuses everyone else); fresh settings first. */
function staffRouteOf(settings: EventSettingsCache) {
  return <const S extends RouteSchemas, const O extends string>(route: StaffRoute<S> & { operationId: O }) =>
    defineStoreRoute<S, O>({
      ...route,
      auth: 'login',
      // The sales staff of the event manager: sales representative logins, whatever permission keys a customer grants.
      actors: ['salesRepresentative'],
      permission: null,
      tags: STAFF_TAGS,
      handler: async (input) => {
        await settings.load();
        return route.handler(input);
      },
    });
}

const eventId = pathParams('id');

export function eventStoreRoutes(host: HostRuntime, service: EventUseCases, settings: EventSettingsCache) {
  return [
    ...customerEventRoutes(service, settings),
    ...staffEventRoutes(host, service, settings),
    ...staffParticipantRoutes(host, service, settings),
  ];
}

/** The event overview, one event, and the company's participants. */
function customerEventRoutes(service: EventUseCases, settings: EventSettingsCache) {
  return [
    // ---- customers ----
    defineStoreRoute({
      method: 'GET',
      path: '/event-filters',
      operationId: 'readEventFilters',
      summary: 'What the event overview can be filtered by: formats, difficulty levels and the configured languages.',
      tags: CUSTOMER_TAGS,
      auth: 'login',
      permission: null,
      schemas: { responses: { 200: filtersResponse } },
      async handler() {
        const { languages } = await settings.load();
        return {
          formats: await service.specificationsOfType('format'),
          difficultyLevels: await service.specificationsOfType('difficulty_level'),
          languages,
        };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/events',
      operationId: 'searchEvents',
      summary:
        'The event overview: events in a status that allows registration, not over yet, whose product the caller may see.',
      description:
        'Criteria body; filter on `formatId`, `difficultyLevelId`, `language`, `categoryId`, `startsAt` …, `term` searches name, description and product.',
      tags: CUSTOMER_TAGS,
      auth: 'login',
      permission: null,
      schemas: { body: eventCriteriaBody, responses: { 200: eventListResponse } },
      async handler({ ctx, body }) {
        await settings.load();
        return criteriaList(await service.searchCustomerEvents(ctx, body), body);
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/event/{id}',
      operationId: 'readEvent',
      summary: 'One event of the overview (404 for drafts, events over, and hidden products).',
      tags: CUSTOMER_TAGS,
      auth: 'login',
      permission: null,
      schemas: { params: eventId, responses: { 200: eventSchema } },
      async handler({ ctx, params }) {
        await settings.load();
        return service.customerEvent(ctx, params.id);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/event-participants',
      operationId: 'searchCompanyEventParticipants',
      summary: 'The participants the caller’s company registered (all events), never another company’s.',
      tags: CUSTOMER_TAGS,
      auth: 'login',
      needsCustomer: true,
      permission: EVENT_REGISTER_PERMISSION,
      schemas: { body: participantCriteriaBody, responses: { 200: customerParticipantListResponse } },
      async handler({ ctx, body }) {
        return criteriaList(await service.companyParticipants(declaredCustomer(ctx).id, body), body);
      },
    }),
  ];
}

/** Sales staff: events and their specifications. */
function staffEventRoutes(host: HostRuntime, service: EventUseCases, settings: EventSettingsCache) {
  const staffRoute = staffRouteOf(settings);
  return [
    // ---- sales staff: events ----
    staffRoute({
      method: 'GET',
      path: '/event-manager/options',
      operationId: 'readEventManagerOptions',
      summary:
        'Languages, event statuses (those allowing registration among them) and participant statuses to choose from.',
      schemas: { responses: { 200: optionsResponse } },
      async handler() {
        const current = settings.current();
        return {
          languages: current.languages,
          eventStatuses: service.eventStatuses(current),
          registrationStatuses: current.registrationStatuses,
          participantStatuses: await participantStatuses(host.db),
        };
      },
    }),
    staffRoute({
      method: 'POST',
      path: '/event-manager/events',
      operationId: 'searchManagedEvents',
      summary: 'All events in every status, with seat counts.',
      schemas: { body: eventCriteriaBody, responses: { 200: eventListResponse } },
      handler: async ({ body }) => criteriaList(await service.searchEvents(body), body),
    }),
    staffRoute({
      method: 'POST',
      path: '/event-manager/event',
      operationId: 'createEvent',
      summary: 'Creates an event for a product, in status draft.',
      schemas: { body: createEventBody, responses: { 200: eventSchema } },
      handler: ({ ctx, body }) => service.createEvent(ctx, body),
    }),
    staffRoute({
      method: 'GET',
      path: '/event-manager/event/{id}',
      operationId: 'readManagedEvent',
      summary: 'One event in any status.',
      schemas: { params: eventId, responses: { 200: eventSchema } },
      handler: ({ params }) => service.view(host.db, params.id),
    }),
    staffRoute({
      method: 'PATCH',
      path: '/event-manager/event/{id}',
      operationId: 'updateEvent',
      summary: 'Changes an event; a higher participant limit moves waiting participants up.',
      description: 'The limit cannot go below the seats taken (`SUITE__EVENT_LIMIT_BELOW_TAKEN`).',
      schemas: { params: eventId, body: updateEventBody, responses: { 200: eventSchema } },
      handler: ({ params, body }) => service.updateEvent(params.id, body),
    }),
    staffRoute({
      method: 'DELETE',
      path: '/event-manager/event/{id}',
      operationId: 'deleteEvent',
      summary: 'Deletes an event without registered or waiting participants.',
      schemas: { params: eventId, responses: { 204: null } },
      async handler({ params }) {
        await service.deleteEvent(params.id);
        return noContent();
      },
    }),
    staffRoute({
      method: 'POST',
      path: '/event-manager/event/{id}/status',
      operationId: 'setEventStatus',
      summary:
        'Sets the event status (draft, published, closed, canceled, completed or a configured registration status).',
      schemas: { params: eventId, body: statusBody, responses: { 200: eventSchema } },
      handler: ({ params, body }) => service.setEventStatus(params.id, body.status),
    }),

    // ---- sales staff: specifications ----
    staffRoute({
      method: 'POST',
      path: '/event-manager/specifications',
      operationId: 'searchEventSpecifications',
      summary: 'Formats, venues, speakers and difficulty levels (filter on `type`).',
      schemas: { body: specificationCriteriaBody, responses: { 200: specificationListResponse } },
      handler: async ({ body }) => criteriaList(await service.searchSpecifications(body), body),
    }),
    staffRoute({
      method: 'POST',
      path: '/event-manager/specification',
      operationId: 'createEventSpecification',
      summary: 'Creates a format, venue, speaker or difficulty level.',
      schemas: { body: createSpecificationBody, responses: { 200: specificationSchema } },
      handler: ({ body }) => service.createSpecification(body),
    }),
    staffRoute({
      method: 'PATCH',
      path: '/event-manager/specification/{id}',
      operationId: 'updateEventSpecification',
      summary: 'Renames or re-describes a specification.',
      schemas: { params: eventId, body: updateSpecificationBody, responses: { 200: specificationSchema } },
      handler: ({ params, body }) => service.updateSpecification(params.id, body),
    }),
    staffRoute({
      method: 'DELETE',
      path: '/event-manager/specification/{id}',
      operationId: 'deleteEventSpecification',
      summary: 'Deletes a specification no event uses (`SUITE__EVENT_SPECIFICATION_IN_USE` otherwise).',
      schemas: { params: eventId, responses: { 204: null } },
      async handler({ params }) {
        await service.deleteSpecification(params.id);
        return noContent();
      },
    }),
  ];
}

/** Sales staff: the participants of an event, their statuses, the circular mail. */
function staffParticipantRoutes(host: HostRuntime, service: EventUseCases, settings: EventSettingsCache) {
  const staffRoute = staffRouteOf(settings);
  return [
    // ---- sales staff: participants ----
    staffRoute({
      method: 'POST',
      path: '/event-manager/event/{id}/participants',
      operationId: 'searchEventParticipants',
      summary: 'The participants of one event, of every company.',
      schemas: { params: eventId, body: participantCriteriaBody, responses: { 200: staffParticipantListResponse } },
      handler: async ({ params, body }) => criteriaList(await service.searchParticipants(params.id, body), body),
    }),
    staffRoute({
      method: 'POST',
      path: '/event-manager/event/{id}/participant',
      operationId: 'addEventParticipant',
      summary:
        'Adds a customer, one of its employees, or a person by name as participant (registered while seats remain, else waiting).',
      description:
        'The customer by `customerId` or by its login e-mail address `customerEmail` (one of them). Deadline and event status do not apply; the participant limit does (`SUITE__EVENT_FULL` without a waiting list).',
      schemas: { params: eventId, body: addParticipantBody, responses: { 200: staffParticipantSchema } },
      handler: ({ ctx, params, body }) => service.addParticipant(ctx, params.id, body),
    }),
    staffRoute({
      method: 'GET',
      path: '/event-manager/participant/{id}',
      operationId: 'readEventParticipant',
      summary: 'One participant with notes and documents.',
      schemas: { params: eventId, responses: { 200: staffParticipantSchema } },
      handler: ({ params }) => service.participant(host.db, params.id),
    }),
    staffRoute({
      method: 'PATCH',
      path: '/event-manager/participant/{id}',
      operationId: 'updateEventParticipant',
      summary: 'Edits participant data, notes and documents.',
      schemas: { params: eventId, body: updateParticipantBody, responses: { 200: staffParticipantSchema } },
      handler: ({ params, body }) => service.updateParticipant(params.id, body),
    }),
    staffRoute({
      method: 'POST',
      path: '/event-manager/participant/{id}/status',
      operationId: 'setEventParticipantStatus',
      summary: 'Sets a participant status; a seat freed goes to the first on the waiting list, who is mailed.',
      schemas: { params: eventId, body: statusBody, responses: { 200: staffParticipantSchema } },
      handler: ({ params, body }) => service.setParticipantStatus(params.id, body.status),
    }),
    staffRoute({
      method: 'GET',
      path: '/event-manager/participant-statuses',
      operationId: 'listEventParticipantStatuses',
      summary: 'The participant statuses (system and operator-added).',
      schemas: { responses: { 200: participantStatusListResponse } },
      async handler() {
        return storeListOf(
          (await participantStatuses(host.db)).map((status) => ({ id: status.technicalName, ...status })),
        );
      },
    }),
    staffRoute({
      method: 'POST',
      path: '/event-manager/event/{id}/circular-mail',
      operationId: 'sendEventCircularMail',
      summary:
        'Mails every participant of the event (registered and waiting unless `statuses` says otherwise), one mail each.',
      description:
        'Send an `Idempotency-Key` header: a retry with the same key answers the first result and queues nothing again.',
      idempotent: true,
      schemas: { params: eventId, body: circularMailBody, responses: { 200: circularMailResponse } },
      handler: ({ ctx, params, body }) => service.sendCircularMail(ctx, params.id, body),
    }),
  ];
}

const STATUS_TYPE = 'suite_event_participant_status';

export function eventAdminRoutes(host: HostRuntime, service: EventUseCases) {
  const resource = objectSchema(
    { id: { type: 'string' }, type: { const: STATUS_TYPE }, attributes: participantStatusSchema },
    ['id', 'type', 'attributes'],
  );
  const toResource = (status: Awaited<ReturnType<typeof participantStatuses>>[number]) => ({
    id: status.technicalName,
    type: STATUS_TYPE,
    attributes: status,
  });
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/suite-event-participant-status',
      operationId: 'listEventParticipantStatusesAdmin',
      summary: 'Participant statuses of the event manager.',
      tags: [TAG],
      auth: 'admin',
      permission: null,
      schemas: { query: objectSchema(jsonApiPageQuery), responses: { 200: jsonApiListSchema(resource) } },
      async handler({ query }) {
        // A handful of statuses: read them all, answer the page asked for.
        const { page, limit } = query;
        const statuses = await participantStatuses(host.db);
        const onPage = statuses.slice((page - 1) * limit, page * limit);
        return jsonApiList(onPage.map(toResource), {
          path: '/suite-event-participant-status',
          page,
          limit,
          total: statuses.length,
        });
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/suite-event-participant-status',
      operationId: 'createEventParticipantStatus',
      summary:
        'Adds a participant status sales staff can set (`occupiesSeat`: whether it holds one of the event’s seats).',
      tags: [TAG],
      auth: 'admin',
      permission: null,
      schemas: { body: createParticipantStatusBody, responses: { 200: objectSchema({ data: resource }, ['data']) } },
      async handler({ body }) {
        return { data: toResource(await service.addParticipantStatus(body)) };
      },
    }),
  ];
}
