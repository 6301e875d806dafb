import { criteriaSchema } from '../../lib/criteria.js';
import { CURSOR_PROPERTY } from '../../lib/keyset.js';
import { idParam, nullable, objectSchema } from '../../lib/schemas.js';
import { storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';
import { EVENT_CRITERIA, PARTICIPANT_CRITERIA, SPECIFICATION_CRITERIA, SPECIFICATION_TYPES } from './repository.js';

export const TAG = 'Event manager';

const text = { type: 'string' } as const;
const nullableText = nullable({ type: 'string' });
export const nameSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' } as const;
export const emailSchema = { type: 'string', format: 'email', minLength: 3, maxLength: 255 } as const;
const longText = { type: 'string', maxLength: 20000 } as const;
export const statusName = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_-]*$' } as const;
const languageSchema = {
  type: 'string',
  minLength: 2,
  maxLength: 16,
  pattern: '^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?$',
} as const;
const specificationType = { enum: [...SPECIFICATION_TYPES] } as const;

export const specificationSchema = objectSchema(
  { id: text, type: specificationType, name: text, description: nullableText, position: { type: 'integer' } },
  ['id', 'type', 'name', 'description', 'position'],
);

export const eventSchema = objectSchema(
  {
    id: text,
    productId: text,
    productName: text,
    productNumber: text,
    name: text,
    language: text,
    format: nullable(specificationSchema),
    difficultyLevel: nullable(specificationSchema),
    venue: nullable(specificationSchema),
    speakers: { type: 'array', items: specificationSchema },
    description: nullableText,
    startsAt: dateTimeSchema,
    endsAt: dateTimeSchema,
    participantLimit: nullable({ type: 'integer', minimum: 1 }),
    registrationDeadline: dateTimeSchema,
    waitingList: { type: 'boolean' },
    status: text,
    registrationOpen: { type: 'boolean' },
    registeredCount: { type: 'integer', minimum: 0 },
    waitingCount: { type: 'integer', minimum: 0 },
    freeSeats: nullable({ type: 'integer', minimum: 0 }),
    createdAt: dateTimeSchema,
    updatedAt: nullable(dateTimeSchema),
  },
  [
    'id',
    'productId',
    'productName',
    'productNumber',
    'name',
    'language',
    'format',
    'difficultyLevel',
    'venue',
    'speakers',
    'description',
    'startsAt',
    'endsAt',
    'participantLimit',
    'registrationDeadline',
    'waitingList',
    'status',
    'registrationOpen',
    'registeredCount',
    'waitingCount',
    'freeSeats',
    'createdAt',
    'updatedAt',
  ],
);

const customerParticipantProperties = {
  id: text,
  eventId: text,
  eventName: text,
  eventStartsAt: nullable(dateTimeSchema),
  employeeId: nullableText,
  firstName: text,
  lastName: text,
  email: text,
  status: text,
  orderId: nullableText,
  orderNumber: nullableText,
  createdAt: dateTimeSchema,
};
const customerParticipantRequired = Object.keys(customerParticipantProperties) as Array<
  keyof typeof customerParticipantProperties
>;

export const customerParticipantSchema = objectSchema(customerParticipantProperties, customerParticipantRequired);

const documentSchema = objectSchema(
  {
    name: nameSchema,
    url: nullable({ type: 'string', maxLength: 2048, pattern: '^(https?://|/(?![/\\\\]))' }),
    note: nullable({ type: 'string', maxLength: 2000 }),
  },
  ['name'],
);
const documentView = objectSchema({ name: text, url: nullableText, note: nullableText }, ['name', 'url', 'note']);

export const staffParticipantSchema = objectSchema(
  {
    ...customerParticipantProperties,
    customerId: text,
    customerNumber: nullableText,
    company: nullableText,
    orderLineItemId: nullableText,
    waitingPosition: nullable({ type: 'integer' }),
    notes: nullableText,
    documents: { type: 'array', items: documentView },
    reminderSentAt: nullable(dateTimeSchema),
    createdBy: text,
    updatedAt: nullable(dateTimeSchema),
  },
  [
    ...customerParticipantRequired,
    'customerId',
    'customerNumber',
    'company',
    'orderLineItemId',
    'waitingPosition',
    'notes',
    'documents',
    'reminderSentAt',
    'createdBy',
    'updatedAt',
  ],
);

export const participantStatusSchema = objectSchema(
  {
    technicalName: text,
    name: text,
    occupiesSeat: { type: 'boolean' },
    system: { type: 'boolean' },
    position: { type: 'integer' },
  },
  ['technicalName', 'name', 'occupiesSeat', 'system', 'position'],
);

export const eventListResponse = storeListResponse(eventSchema);
export const specificationListResponse = storeListResponse(specificationSchema);
export const staffParticipantListResponse = storeListResponse(staffParticipantSchema);
export const customerParticipantListResponse = storeListResponse(customerParticipantSchema);
/** Listed statuses carry an `id` as every list element does: the technical name. */
export const participantStatusListResponse = storeListResponse(
  objectSchema({ id: text, ...participantStatusSchema.properties }, ['id', ...participantStatusSchema.required]),
);

export const eventCriteriaBody = criteriaSchema(Object.keys(EVENT_CRITERIA.fields));
export const participantCriteriaBody = criteriaSchema(Object.keys(PARTICIPANT_CRITERIA.fields), {
  cursor: CURSOR_PROPERTY,
});
export const specificationCriteriaBody = criteriaSchema(Object.keys(SPECIFICATION_CRITERIA.fields));

const eventFields = {
  productId: idParam,
  /** The product by its number instead of `productId` (the staff page's form); one of them on create. */
  productNumber: { type: 'string', minLength: 1, maxLength: 64 },
  name: nameSchema,
  language: languageSchema,
  formatId: nullable(idParam),
  difficultyLevelId: nullable(idParam),
  venueId: nullable(idParam),
  speakerIds: { type: 'array', maxItems: 50, uniqueItems: true, items: idParam },
  description: nullable(longText),
  startsAt: dateTimeSchema,
  endsAt: dateTimeSchema,
  participantLimit: nullable({ type: 'integer', minimum: 1, maximum: 1000000 }),
  registrationDeadline: nullable(dateTimeSchema),
  waitingList: { type: 'boolean' },
} as const;

export const createEventBody = objectSchema(eventFields, ['name', 'language', 'startsAt', 'endsAt']);
export const updateEventBody = objectSchema(eventFields, [], { minProperties: 1 });
export const statusBody = objectSchema({ status: statusName }, ['status']);

export const createSpecificationBody = objectSchema(
  {
    type: specificationType,
    name: nameSchema,
    description: nullable(longText),
    position: { type: 'integer', minimum: -1000000, maximum: 1000000 },
  },
  ['type', 'name'],
);
export const updateSpecificationBody = objectSchema(
  {
    name: nameSchema,
    description: nullable(longText),
    position: { type: 'integer', minimum: -1000000, maximum: 1000000 },
  },
  [],
  { minProperties: 1 },
);

export const addParticipantBody = objectSchema(
  {
    customerId: idParam,
    customerEmail: emailSchema,
    employeeId: idParam,
    firstName: nameSchema,
    lastName: nameSchema,
    email: emailSchema,
    status: statusName,
    notes: nullable(longText),
  },
  [],
);

export const updateParticipantBody = objectSchema(
  {
    firstName: nameSchema,
    lastName: nameSchema,
    email: emailSchema,
    notes: nullable(longText),
    documents: { type: 'array', maxItems: 50, items: documentSchema },
  },
  [],
  { minProperties: 1 },
);

export const circularMailBody = objectSchema(
  {
    subject: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
    message: { type: 'string', minLength: 1, maxLength: 20000, pattern: '\\S' },
    statuses: { type: 'array', minItems: 1, maxItems: 50, uniqueItems: true, items: statusName },
  },
  ['subject', 'message'],
);

export const circularMailResponse = objectSchema(
  {
    id: text,
    eventId: text,
    subject: text,
    statuses: { type: 'array', items: text },
    recipients: { type: 'integer', minimum: 0 },
    createdAt: dateTimeSchema,
  },
  ['id', 'eventId', 'subject', 'statuses', 'recipients', 'createdAt'],
);

export const filtersResponse = objectSchema(
  {
    formats: { type: 'array', items: specificationSchema },
    difficultyLevels: { type: 'array', items: specificationSchema },
    languages: { type: 'array', items: text },
  },
  ['formats', 'difficultyLevels', 'languages'],
);

export const optionsResponse = objectSchema(
  {
    languages: { type: 'array', items: text },
    eventStatuses: { type: 'array', items: text },
    registrationStatuses: { type: 'array', items: text },
    participantStatuses: { type: 'array', items: participantStatusSchema },
  },
  ['languages', 'eventStatuses', 'registrationStatuses', 'participantStatuses'],
);

export const createParticipantStatusBody = objectSchema(
  {
    technicalName: statusName,
    name: nameSchema,
    occupiesSeat: { type: 'boolean' },
    position: { type: 'integer', minimum: -1000000, maximum: 1000000 },
  },
  ['technicalName', 'name'],
);
