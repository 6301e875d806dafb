import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { searchByCriteria, type Criteria } from '../../../lib/criteria.js';
import { inTransaction, type Executor } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { fromDbTime, nowDb, toDbTime } from '../../../lib/time.js';
import { narrowByProductFields } from '../../product-fields.js';
import {
  BASE_EVENT_STATUSES,
  EVENT_COLUMNS,
  EVENT_CRITERIA,
  changeEventStatus,
  deleteEventRow,
  eventProductFields,
  eventsQuery,
  findEvent,
  hasActiveParticipants,
  insertEvent,
  lockEvent,
  replaceSpeakers,
  specificationExists,
  takenSeats,
  toEventViews,
  updateEventColumns,
  withSeatCounts,
  type EventRow,
  type EventRowWithCounts,
  type EventView,
  type SpecificationType,
} from '../repository.js';
import type { EventSettings, EventSettingsCache } from '../settings.js';
import { promoteWaiting } from './waiting-list.js';

export interface EventInput {
  productId?: string;
  productNumber?: string;
  name?: string;
  language?: string;
  formatId?: string | null;
  difficultyLevelId?: string | null;
  venueId?: string | null;
  speakerIds?: string[];
  description?: string | null;
  startsAt?: string;
  endsAt?: string;
  participantLimit?: number | null;
  registrationDeadline?: string | null;
  waitingList?: boolean;
}

const SPEC_FIELDS: Array<{
  field: 'formatId' | 'difficultyLevelId' | 'venueId';
  column: 'format_id' | 'difficulty_level_id' | 'venue_id';
  type: SpecificationType;
}> = [
  { field: 'formatId', column: 'format_id', type: 'format' },
  { field: 'difficultyLevelId', column: 'difficulty_level_id', type: 'difficulty_level' },
  { field: 'venueId', column: 'venue_id', type: 'venue' },
];

/** Event statuses: the base ones and the registration statuses of the settings. Any status may follow any other. */
export function eventStatuses(settings: EventSettings): string[] {
  return [...new Set([...BASE_EVENT_STATUSES, ...settings.registrationStatuses])];
}

/** `viewer`: the customer's context the rows were narrowed to visible products for (their names then come from the host's kept product reads). */
export async function eventViews(
  host: HostRuntime,
  settings: EventSettingsCache,
  executor: Executor,
  rows: EventRow[],
  viewer?: StoreContext,
): Promise<EventView[]> {
  return toEventViews(host, executor, rows, settings.current().registrationStatuses, viewer);
}

export async function eventView(
  host: HostRuntime,
  settings: EventSettingsCache,
  executor: Executor,
  id: string,
): Promise<EventView> {
  const row = await findEvent(executor, id);
  if (!row) throw Errors.notFound('Event', id);
  return (await eventViews(host, settings, executor, [row]))[0]!;
}

export async function searchEvents(
  host: HostRuntime,
  settings: EventSettingsCache,
  criteria: Criteria,
): Promise<{ total: number; data: EventView[] }> {
  const query = eventsQuery(host.db);
  const list = await narrowByProductFields(host, null, query, criteria, EVENT_CRITERIA, eventProductFields);
  const page = await searchByCriteria<EventRowWithCounts>(query, list.criteria, EVENT_CRITERIA, (q) =>
    list.order(withSeatCounts(q.select(EVENT_COLUMNS), host.db)),
  );
  return { total: page.total, data: await eventViews(host, settings, host.db, page.rows) };
}

export async function createEvent(
  host: HostRuntime,
  settings: EventSettingsCache,
  createdById: string | null,
  input: EventInput,
): Promise<EventView> {
  return inTransaction(host.db, async (trx) => {
    const columns = await eventColumns(host, settings, trx, input, null);
    const id = newId();
    await insertEvent(trx, {
      id,
      ...columns,
      waiting_list: input.waitingList ?? false,
      participant_limit: input.participantLimit ?? null,
      status: 'draft',
      created_by_id: createdById,
      created_at: nowDb(),
    });
    await replaceSpeakers(trx, id, input.speakerIds ?? []);
    return eventView(host, settings, trx, id);
  });
}

/** A higher limit (or other change) may free seats: the waiting list moves up in the same transaction. */
export async function updateEvent(
  host: HostRuntime,
  settings: EventSettingsCache,
  id: string,
  input: EventInput,
): Promise<EventView> {
  return inTransaction(host.db, async (trx) => {
    const existing = await lockEvent(trx, id);
    if (!existing) throw Errors.notFound('Event', id);
    const columns = await eventColumns(host, settings, trx, input, existing);
    if (input.participantLimit !== undefined && input.participantLimit !== null) {
      const taken = await takenSeats(trx, id);
      if (input.participantLimit < taken)
        throw Errors.badRequest(
          'SUITE__EVENT_LIMIT_BELOW_TAKEN',
          `${taken} participants hold a seat already; the limit cannot be lower.`,
          { pointer: '/participantLimit' },
        );
    }
    await updateEventColumns(trx, id, { ...columns, updated_at: nowDb() });
    if (input.speakerIds !== undefined) await replaceSpeakers(trx, id, input.speakerIds);
    await promoteWaiting(host, trx, id);
    return eventView(host, settings, trx, id);
  });
}

export async function deleteEvent(host: HostRuntime, id: string): Promise<void> {
  await inTransaction(host.db, async (trx) => {
    if (!(await lockEvent(trx, id))) throw Errors.notFound('Event', id);
    if (await hasActiveParticipants(trx, id))
      throw Errors.badRequest(
        'SUITE__EVENT_HAS_PARTICIPANTS',
        'The event has registered or waiting participants; cancel them or set the event status instead.',
      );
    await deleteEventRow(trx, id);
  });
}

export async function setEventStatus(
  host: HostRuntime,
  settings: EventSettingsCache,
  id: string,
  status: string,
): Promise<EventView> {
  const allowed = eventStatuses(settings.current());
  if (!allowed.includes(status))
    throw Errors.badRequest(
      'SUITE__EVENT_STATUS_UNKNOWN',
      `The status "${status}" is not one of ${allowed.join(', ')}.`,
      { pointer: '/status' },
    );
  return inTransaction(host.db, async (trx) => {
    const existing = await lockEvent(trx, id);
    if (!existing) throw Errors.notFound('Event', id);
    if (existing.status !== status) await changeEventStatus(trx, id, existing.status, status);
    return eventView(host, settings, trx, id);
  });
}

/** Event times between 1970 and 9999, which both databases store. */
function storedTime(iso: string, pointer: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1970 || date.getUTCFullYear() > 9999)
    throw Errors.badRequest('SUITE__EVENT_INVALID_DATES', 'Times must lie between the years 1970 and 9999.', {
      pointer,
    });
  return toDbTime(date);
}

async function checkSpecifications(executor: Executor, input: EventInput): Promise<void> {
  for (const { field, type } of SPEC_FIELDS) {
    const id = input[field];
    if (!id) continue;
    if (!(await specificationExists(executor, id, type)))
      throw Errors.badRequest(
        'SUITE__EVENT_SPECIFICATION_INVALID',
        `There is no ${type.replace('_', ' ')} with id "${id}".`,
        { pointer: `/${field}` },
      );
  }
  for (const [index, id] of (input.speakerIds ?? []).entries()) {
    if (!(await specificationExists(executor, id, 'speaker')))
      throw Errors.badRequest('SUITE__EVENT_SPECIFICATION_INVALID', `There is no speaker with id "${id}".`, {
        pointer: `/speakerIds/${index}`,
      });
  }
}

/** Checks an event's fields (input merged over the stored row) and returns the columns to write. */
async function eventColumns(
  host: HostRuntime,
  settingsCache: EventSettingsCache,
  executor: Executor,
  input: EventInput,
  existing: EventRow | null,
): Promise<Record<string, unknown>> {
  const settings = settingsCache.current();
  const columns: Record<string, unknown> = {};
  if (input.productId !== undefined && input.productNumber !== undefined)
    throw Errors.badRequest('SUITE__INVALID_INPUT', 'Give either productId or productNumber.', {
      pointer: '/productNumber',
    });
  if (!existing && input.productId === undefined && input.productNumber === undefined)
    throw Errors.badRequest('SUITE__INVALID_INPUT', 'Give the product: productId or productNumber.', {
      pointer: '/productId',
    });
  if (input.productNumber !== undefined) {
    const [product] = await host.catalog.productIdsByNumbers(executor, [input.productNumber]);
    if (!product)
      throw Errors.badRequest('SUITE__EVENT_PRODUCT_NOT_FOUND', 'There is no product with this product number.', {
        pointer: '/productNumber',
      });
    columns.product_id = product.id;
  }
  if (input.productId !== undefined) {
    const [product] = await host.catalog.products(executor, [input.productId]);
    if (!product)
      throw Errors.badRequest('SUITE__EVENT_PRODUCT_NOT_FOUND', `There is no product with id "${input.productId}".`, {
        pointer: '/productId',
      });
    columns.product_id = product.id;
  }
  if (input.language !== undefined) {
    if (!settings.languages.includes(input.language))
      throw Errors.badRequest(
        'SUITE__EVENT_LANGUAGE_NOT_AVAILABLE',
        `The language "${input.language}" is not one of ${settings.languages.join(', ')}.`,
        { pointer: '/language' },
      );
    columns.language = input.language;
  }
  await checkSpecifications(executor, input);
  for (const { field, column } of SPEC_FIELDS) if (input[field] !== undefined) columns[column] = input[field];
  if (input.name !== undefined) columns.name = input.name.trim();
  if (input.description !== undefined) columns.description = input.description;
  if (input.participantLimit !== undefined) columns.participant_limit = input.participantLimit;
  if (input.waitingList !== undefined) columns.waiting_list = input.waitingList;
  if (input.startsAt !== undefined) columns.starts_at = storedTime(input.startsAt, '/startsAt');
  if (input.endsAt !== undefined) columns.ends_at = storedTime(input.endsAt, '/endsAt');
  if (input.registrationDeadline !== undefined)
    columns.registration_deadline =
      input.registrationDeadline === null ? null : storedTime(input.registrationDeadline, '/registrationDeadline');

  const startsAt = new Date(fromDbTime((columns.starts_at as string | undefined) ?? existing?.starts_at)!);
  const endsAt = new Date(fromDbTime((columns.ends_at as string | undefined) ?? existing?.ends_at)!);
  if (endsAt <= startsAt)
    throw Errors.badRequest('SUITE__EVENT_INVALID_DATES', 'An event must end after it starts.', { pointer: '/endsAt' });
  const deadline =
    columns.registration_deadline !== undefined
      ? (columns.registration_deadline as string | null)
      : (existing?.registration_deadline ?? null);
  if (deadline !== null && new Date(fromDbTime(deadline)!) > endsAt)
    throw Errors.badRequest('SUITE__EVENT_INVALID_DATES', 'Registration must close before the event ends.', {
      pointer: '/registrationDeadline',
    });
  return columns;
}
