import type { Knex } from 'knex';
import type { ContextVersionSource, HostRuntime, StoreContext } from '../../contract/index.js';
import type { ProductFieldsOfList } from '../product-fields.js';
import { searchByCriteria, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import {
  forUpdate,
  lockingRead,
  readBool,
  readInt,
  readJson,
  selectRow,
  selectRows,
  writeJson,
  type Executor,
} from '../../lib/db.js';
import { fromDbTime, now as currentTime, nowDb } from '../../lib/time.js';

export const EVENTS = 'b2b_events';
export const SPECIFICATIONS = 'b2b_event_specifications';
export const SPEAKERS = 'b2b_event_speakers';
export const PARTICIPANTS = 'b2b_event_participants';
export const PARTICIPANT_STATUSES = 'b2b_event_participant_statuses';
export const CIRCULAR_MAILS = 'b2b_event_circular_mails';
export const EVENT_COUNTERS = 'b2b_event_counters';

export const SPECIFICATION_TYPES = ['format', 'venue', 'speaker', 'difficulty_level'] as const;
export type SpecificationType = (typeof SPECIFICATION_TYPES)[number];

/** Event statuses besides those the setting eventRegistrationStatuses adds. */
export const BASE_EVENT_STATUSES = ['draft', 'published', 'closed', 'canceled', 'completed'] as const;

/** Statuses a registration may hold a seat or a waiting place in: one person is in these at most once per event. */
export const ACTIVE_PARTICIPANT_STATUSES = ['registered', 'waiting'] as const;

export interface SpecificationView {
  id: string;
  type: SpecificationType;
  name: string;
  description: string | null;
  position: number;
}

export interface EventRow {
  id: string;
  product_id: string;
  name: string;
  language: string;
  format_id: string | null;
  difficulty_level_id: string | null;
  venue_id: string | null;
  description: string | null;
  starts_at: string;
  ends_at: string;
  participant_limit: number | null;
  registration_deadline: string | null;
  waiting_list: unknown;
  status: string;
  created_at: string;
  updated_at: string | null;
}

export interface EventView {
  id: string;
  productId: string;
  productName: string;
  productNumber: string;
  name: string;
  language: string;
  format: SpecificationView | null;
  difficultyLevel: SpecificationView | null;
  venue: SpecificationView | null;
  speakers: SpecificationView[];
  description: string | null;
  startsAt: string;
  endsAt: string;
  participantLimit: number | null;
  registrationDeadline: string;
  waitingList: boolean;
  status: string;
  registrationOpen: boolean;
  registeredCount: number;
  waitingCount: number;
  freeSeats: number | null;
  createdAt: string;
  updatedAt: string | null;
}

export interface ParticipantRow {
  id: string;
  event_id: string;
  customer_id: string;
  employee_id: string | null;
  first_name: string;
  last_name: string;
  email: string;
  status: string;
  order_id: string | null;
  order_line_item_id: string | null;
  waiting_position: number | null;
  notes: string | null;
  documents: unknown;
  reminder_sent_at: string | null;
  created_by_type: string;
  created_at: string;
  updated_at: string | null;
  company?: string | null;
  customer_number?: string | null;
  order_number?: string | null;
  event_name?: string;
  event_starts_at?: string;
}

export interface ParticipantDocument {
  name: string;
  url: string | null;
  note: string | null;
}

export const EVENT_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: 'ev.id', type: 'id' },
    productId: { column: 'ev.product_id', type: 'id' },
    name: { column: 'ev.name', type: 'string' },
    language: { column: 'ev.language', type: 'string' },
    formatId: { column: 'ev.format_id', type: 'id' },
    difficultyLevelId: { column: 'ev.difficulty_level_id', type: 'id' },
    venueId: { column: 'ev.venue_id', type: 'id' },
    speakerId: {
      column: 'sp.speaker_id',
      type: 'id',
      via: { table: `${SPEAKERS} as sp`, foreignKey: 'sp.event_id', localKey: 'ev.id' },
    },
    // A product field: resolved through the host (eventProductFields); the column is never read.
    categoryId: { column: 'ev.product_id', type: 'id' },
    status: { column: 'ev.status', type: 'string' },
    startsAt: { column: 'ev.starts_at', type: 'date' },
    endsAt: { column: 'ev.ends_at', type: 'date' },
    waitingList: { column: 'ev.waiting_list', type: 'boolean' },
    createdAt: { column: 'ev.created_at', type: 'date' },
  },
  termColumns: ['ev.name', 'ev.description'],
  defaultSort: [
    { column: 'ev.starts_at', order: 'asc' },
    { column: 'ev.id', order: 'asc' },
  ],
  idColumn: 'ev.id',
};

/** Events filter by their product's categories and search its number and name: the host answers those (see product-fields.ts). */
export const eventProductFields: ProductFieldsOfList = {
  fields: { categoryId: 'categoryId' },
  productIdField: 'productId',
  ownTermColumns: ['ev.name', 'ev.description'],
};

export const PARTICIPANT_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: 'pa.id', type: 'id' },
    eventId: { column: 'pa.event_id', type: 'id' },
    customerId: { column: 'pa.customer_id', type: 'id' },
    employeeId: { column: 'pa.employee_id', type: 'id' },
    firstName: { column: 'pa.first_name', type: 'string' },
    lastName: { column: 'pa.last_name', type: 'string' },
    email: { column: 'pa.email', type: 'string' },
    status: { column: 'pa.status', type: 'string' },
    orderId: { column: 'pa.order_id', type: 'id' },
    createdAt: { column: 'pa.created_at', type: 'date' },
  },
  termColumns: ['pa.first_name', 'pa.last_name', 'pa.email'],
  defaultSort: [
    { column: 'pa.created_at', order: 'asc' },
    { column: 'pa.id', order: 'asc' },
  ],
  idColumn: 'pa.id',
};

export const SPECIFICATION_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: 's.id', type: 'id' },
    type: { column: 's.type', type: 'string' },
    name: { column: 's.name', type: 'string' },
    position: { column: 's.position', type: 'number' },
  },
  termColumns: ['s.name', 's.description'],
  defaultSort: [
    { column: 's.type', order: 'asc' },
    { column: 's.position', order: 'asc' },
    { column: 's.name', order: 'asc' },
    { column: 's.id', order: 'asc' },
  ],
  idColumn: 's.id',
};

export function eventsQuery(executor: Executor): Knex.QueryBuilder {
  return executor(`${EVENTS} as ev`);
}

export const EVENT_COLUMNS = ['ev.*'];

/** Events a customer may see at `now`: a registration status, not over (the product's visibility is the host's answer). */
export function customerEventsQuery(
  executor: Executor,
  registrationStatuses: string[],
  now: string,
): Knex.QueryBuilder {
  return eventsQuery(executor).whereIn('ev.status', registrationStatuses).where('ev.ends_at', '>=', now);
}

/** The events version's row: moves on every write to the events and their speakers (triggers, migration 016). */
export const EVENTS_VERSION: ContextVersionSource = { table: EVENT_COUNTERS, name: 'events' };

/** The events version, read (where the request's context did not bring it: `host.auth.contextVersion`). */
export async function eventsVersion(executor: Executor): Promise<number> {
  const row = await selectRow<{ value: unknown }>(
    executor(EVENT_COUNTERS).where({ name: EVENTS_VERSION.name }).first('value'),
  );
  return readInt(row?.value);
}

export async function findEvent(executor: Executor, id: string): Promise<EventRow | null> {
  return (await selectRow<EventRow>(eventsQuery(executor).where('ev.id', id).first(EVENT_COLUMNS))) ?? null;
}

/** Whether a product has an event of that name (the demo's seed runs once). */
export async function hasEventNamed(executor: Executor, productId: string, name: string): Promise<boolean> {
  return !!(await executor(EVENTS).where({ product_id: productId, name }).first('id'));
}

/** The event row, locked for the rest of the transaction and read after the lock. */
export async function lockEvent(executor: Executor, id: string): Promise<EventRow | null> {
  return (await selectRow<EventRow>(forUpdate(executor(EVENTS).where({ id }).first(), executor))) ?? null;
}

interface SpecificationDbRow {
  id: string;
  type: SpecificationType;
  name: string;
  description: string | null;
  position: unknown;
}

export function toSpecificationView(row: SpecificationDbRow): SpecificationView {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    description: row.description ?? null,
    position: readInt(row.position),
  };
}

export async function specificationsById(executor: Executor, ids: string[]): Promise<Map<string, SpecificationView>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await selectRows<SpecificationDbRow>(executor(SPECIFICATIONS).whereIn('id', unique));
  return new Map(rows.map((row) => [row.id, toSpecificationView(row)]));
}

/** Seat-holding statuses (registered, participated, not_participated and operator statuses flagged so). */
export async function seatStatuses(executor: Executor): Promise<string[]> {
  const rows = await selectRows<{ technical_name: string }>(
    executor(PARTICIPANT_STATUSES).where({ occupies_seat: true }).select('technical_name'),
  );
  return rows.map((row) => row.technical_name);
}

export interface ParticipantStatusView {
  technicalName: string;
  name: string;
  occupiesSeat: boolean;
  system: boolean;
  position: number;
}

export async function participantStatuses(executor: Executor): Promise<ParticipantStatusView[]> {
  const rows = await selectRows<{
    technical_name: string;
    name: string;
    occupies_seat: unknown;
    system: unknown;
    position: unknown;
  }>(executor(PARTICIPANT_STATUSES).orderBy('position').orderBy('technical_name'));
  return rows.map((row) => ({
    technicalName: row.technical_name,
    name: row.name,
    occupiesSeat: readBool(row.occupies_seat),
    system: readBool(row.system),
    position: readInt(row.position),
  }));
}

// ---- reads and writes of the use cases ---------------------------------------------------------
// A participant's status change is a conditional write (`WHERE status = <from>`) answering its row
// count; states.ts says which change is allowed.

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The person an employee row (the employee add-on's `findEmployeeRow`, a row of its join) names, for
 * a registration; its name and e-mail columns are read as the strings they are.
 */
export function employeePerson(employee: { id: string } & Record<string, unknown>): {
  firstName: string;
  lastName: string;
  email: string;
  employeeId: string;
} {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    firstName: text(employee.first_name),
    lastName: text(employee.last_name),
    email: normaliseEmail(text(employee.email)),
    employeeId: employee.id,
  };
}

/** Whether someone with this e-mail holds a registration or a waiting place at the event (other than `exceptId`). */
export async function hasActiveRegistration(
  executor: Executor,
  eventId: string,
  email: string,
  exceptId?: string,
): Promise<boolean> {
  const query = executor(PARTICIPANTS)
    .where({ event_id: eventId, email: normaliseEmail(email) })
    .whereIn('status', [...ACTIVE_PARTICIPANT_STATUSES]);
  if (exceptId) query.whereNot({ id: exceptId });
  return !!(await lockingRead(query.first('id'), executor));
}

export async function nextWaitingPosition(executor: Executor, eventId: string): Promise<number> {
  const [row] = await selectRows<{ m: unknown }>(
    lockingRead(executor(PARTICIPANTS).where({ event_id: eventId }).max({ m: 'waiting_position' }), executor),
  );
  return readInt(row?.m) + 1;
}

export async function specificationExists(executor: Executor, id: string, type: SpecificationType): Promise<boolean> {
  return !!(await executor(SPECIFICATIONS).where({ id, type }).first('id'));
}

export async function replaceSpeakers(executor: Executor, eventId: string, speakerIds: string[]): Promise<void> {
  await executor(SPEAKERS).where({ event_id: eventId }).delete();
  if (speakerIds.length)
    await executor(SPEAKERS).insert(
      speakerIds.map((speakerId, position) => ({ event_id: eventId, speaker_id: speakerId, position })),
    );
}

export async function insertEvent(executor: Executor, columns: Record<string, unknown>): Promise<void> {
  await executor(EVENTS).insert(columns);
}

export async function updateEventColumns(
  executor: Executor,
  id: string,
  columns: Record<string, unknown>,
): Promise<void> {
  await executor(EVENTS).where({ id }).update(columns);
}

export async function hasActiveParticipants(executor: Executor, eventId: string): Promise<boolean> {
  return !!(await executor(PARTICIPANTS)
    .where({ event_id: eventId })
    .whereIn('status', [...ACTIVE_PARTICIPANT_STATUSES])
    .first('id'));
}

export async function deleteEventRow(executor: Executor, id: string): Promise<void> {
  await executor(EVENTS).where({ id }).delete();
}

export async function changeEventStatus(executor: Executor, id: string, from: string, to: string): Promise<number> {
  return executor(EVENTS).where({ id, status: from }).update({ status: to, updated_at: nowDb() });
}

export async function searchSpecifications(
  executor: Executor,
  criteria: Criteria,
): Promise<{ total: number; data: SpecificationView[] }> {
  const page = await searchByCriteria<SpecificationDbRow>(
    executor(`${SPECIFICATIONS} as s`),
    criteria,
    SPECIFICATION_CRITERIA,
    (q) => q.select('s.*'),
  );
  return { total: page.total, data: page.rows.map(toSpecificationView) };
}

export async function specificationsOfType(executor: Executor, type: SpecificationType): Promise<SpecificationView[]> {
  const rows = await selectRows<SpecificationDbRow>(
    executor(SPECIFICATIONS).where({ type }).orderBy('position').orderBy('name').orderBy('id').limit(500),
  );
  return rows.map(toSpecificationView);
}

export async function findSpecification(executor: Executor, id: string): Promise<SpecificationView | null> {
  const row = await selectRow<SpecificationDbRow>(executor(SPECIFICATIONS).where({ id }).first());
  return row ? toSpecificationView(row) : null;
}

export async function insertSpecification(
  executor: Executor,
  input: { id: string; type: SpecificationType; name: string; description: string | null; position: number },
): Promise<void> {
  await executor(SPECIFICATIONS).insert({ ...input, created_at: nowDb() });
}

export async function updateSpecificationColumns(
  executor: Executor,
  id: string,
  input: { name?: string; description?: string | null; position?: number },
): Promise<number> {
  const columns: Record<string, unknown> = { updated_at: nowDb() };
  if (input.name !== undefined) columns.name = input.name;
  if (input.description !== undefined) columns.description = input.description;
  if (input.position !== undefined) columns.position = input.position;
  return executor(SPECIFICATIONS).where({ id }).update(columns);
}

/** Whether an event uses the specification (as format, difficulty level, venue or speaker). */
export async function specificationInUse(executor: Executor, id: string): Promise<boolean> {
  return !!(
    (await executor(EVENTS)
      .where((q) => {
        q.where({ format_id: id }).orWhere({ difficulty_level_id: id }).orWhere({ venue_id: id });
      })
      .first('id')) ?? (await executor(SPEAKERS).where({ speaker_id: id }).first('event_id'))
  );
}

export async function deleteSpecificationRow(executor: Executor, id: string): Promise<void> {
  await executor(SPECIFICATIONS).where({ id }).delete();
}

export async function participantStatusExists(executor: Executor, status: string): Promise<boolean> {
  return !!(await executor(PARTICIPANT_STATUSES).where({ technical_name: status }).first('technical_name'));
}

export async function insertParticipantStatus(
  executor: Executor,
  input: { technicalName: string; name: string; occupiesSeat: boolean; position: number },
): Promise<void> {
  await executor(PARTICIPANT_STATUSES).insert({
    technical_name: input.technicalName,
    name: input.name,
    occupies_seat: input.occupiesSeat,
    system: false,
    position: input.position,
    created_at: nowDb(),
  });
}

export interface NewParticipant {
  id: string;
  eventId: string;
  customerId: string;
  employeeId: string | null;
  firstName: string;
  lastName: string;
  email: string;
  status: string;
  waitingPosition: number | null;
  notes: string | null;
  /** A registration by ticket: the order and its line. */
  order?: { id: string; lineItemId: string };
  createdBy: { type: string; id: string | null };
  createdAt?: string;
}

export async function insertParticipant(executor: Executor, participant: NewParticipant): Promise<void> {
  await executor(PARTICIPANTS).insert({
    id: participant.id,
    event_id: participant.eventId,
    customer_id: participant.customerId,
    employee_id: participant.employeeId,
    first_name: participant.firstName,
    last_name: participant.lastName,
    email: participant.email,
    status: participant.status,
    waiting_position: participant.waitingPosition,
    notes: participant.notes,
    ...(participant.order ? { order_id: participant.order.id, order_line_item_id: participant.order.lineItemId } : {}),
    documents: writeJson([]),
    created_by_type: participant.createdBy.type,
    created_by_id: participant.createdBy.id,
    created_at: participant.createdAt ?? nowDb(),
  });
}

/** The ids of (at most `limit`) events on the product. */
export async function eventIdsOfProduct(
  executor: Executor,
  productId: string | null,
  limit: number,
): Promise<string[]> {
  return (
    await selectRows<{ id: string }>(executor(EVENTS).where({ product_id: productId }).limit(limit).select('id'))
  ).map((row) => row.id);
}

/** Registered participants without a reminder whose (not draft, not canceled) event starts in the window. */
export async function participantsDueForReminder(
  executor: Executor,
  window: { after: string; until: string },
  limit: number,
): Promise<ParticipantRow[]> {
  return selectRows<ParticipantRow>(
    executor(`${PARTICIPANTS} as pa`)
      .join(`${EVENTS} as ev`, 'ev.id', 'pa.event_id')
      .where('pa.status', 'registered')
      .whereNull('pa.reminder_sent_at')
      .whereNotIn('ev.status', ['draft', 'canceled'])
      .where('ev.starts_at', '>', window.after)
      .where('ev.starts_at', '<=', window.until)
      .orderBy('ev.starts_at')
      .orderBy('pa.id')
      .limit(limit)
      .select('pa.*'),
  );
}

/** Claims the participant's reminder: true once, while still registered. */
export async function claimParticipantReminder(executor: Executor, participantId: string): Promise<boolean> {
  return (
    (await executor(PARTICIPANTS)
      .where({ id: participantId, status: 'registered' })
      .whereNull('reminder_sent_at')
      .update({ reminder_sent_at: nowDb() })) === 1
  );
}

/** A participant row without the joined event and host fields. */
export async function participantRow(executor: Executor, id: string): Promise<ParticipantRow | null> {
  return (await selectRow<ParticipantRow>(executor(PARTICIPANTS).where({ id }).first())) ?? null;
}

export async function updateParticipantColumns(
  executor: Executor,
  id: string,
  columns: Record<string, unknown>,
): Promise<void> {
  await executor(PARTICIPANTS).where({ id }).update(columns);
}

/** from → to, only while the participant still holds `from`. */
export async function changeParticipantStatus(
  executor: Executor,
  id: string,
  from: string,
  to: string,
  waitingPosition: number | null,
): Promise<number> {
  return executor(PARTICIPANTS)
    .where({ id, status: from })
    .update({ status: to, waiting_position: waitingPosition, updated_at: nowDb() });
}

/** The first of the event's waiting list. */
export async function firstWaiting(executor: Executor, eventId: string): Promise<ParticipantRow | null> {
  return (
    (await selectRow<ParticipantRow>(
      lockingRead(
        executor(PARTICIPANTS)
          .where({ event_id: eventId, status: 'waiting' })
          .orderBy('waiting_position')
          .orderBy('created_at')
          .orderBy('id')
          .first(),
        executor,
      ),
    )) ?? null
  );
}

export async function participantsWithStatuses(
  executor: Executor,
  eventId: string,
  statuses: string[],
): Promise<ParticipantRow[]> {
  return selectRows<ParticipantRow>(
    executor(PARTICIPANTS).where({ event_id: eventId }).whereIn('status', statuses).orderBy('created_at').orderBy('id'),
  );
}

export interface CircularMailView {
  id: string;
  eventId: string;
  subject: string;
  statuses: string[];
  recipients: number;
  createdAt: string;
}

export async function insertCircularMail(
  executor: Executor,
  mail: {
    id: string;
    eventId: string;
    subject: string;
    message: string;
    statuses: string[];
    recipientCount: number;
    sentById: string | null;
    createdAt: string;
  },
): Promise<void> {
  await executor(CIRCULAR_MAILS).insert({
    id: mail.id,
    event_id: mail.eventId,
    subject: mail.subject,
    message: mail.message,
    statuses: writeJson(mail.statuses),
    recipient_count: mail.recipientCount,
    sent_by_id: mail.sentById,
    created_at: mail.createdAt,
  });
}

export interface EventCounts {
  taken: number;
  waiting: number;
}

export async function countsByEvent(executor: Executor, eventIds: string[]): Promise<Map<string, EventCounts>> {
  const counts = new Map<string, EventCounts>(eventIds.map((id) => [id, { taken: 0, waiting: 0 }]));
  if (eventIds.length === 0) return counts;
  // Whether a status holds a seat comes with the counts (one query, not two).
  const rows = await selectRows<{ event_id: string; status: string; occupies_seat: unknown; n: unknown }>(
    executor(`${PARTICIPANTS} as pa`)
      .leftJoin(`${PARTICIPANT_STATUSES} as st`, 'st.technical_name', 'pa.status')
      .whereIn('pa.event_id', eventIds)
      .groupBy('pa.event_id', 'pa.status', 'st.occupies_seat')
      .select('pa.event_id', 'pa.status', 'st.occupies_seat')
      .count({ n: '*' }),
  );
  for (const row of rows) {
    const entry = counts.get(row.event_id)!;
    if (row.occupies_seat !== null && readBool(row.occupies_seat)) entry.taken += readInt(row.n);
    else if (row.status === 'waiting') entry.waiting += readInt(row.n);
  }
  return counts;
}

/** Seats taken by one event's participants; call with the event row locked when the answer decides a write (a locking read: the latest rows). */
export async function takenSeats(executor: Executor, eventId: string): Promise<number> {
  const seats = await seatStatuses(executor);
  const [row] = await selectRows<{ n: unknown }>(
    lockingRead(
      executor(PARTICIPANTS).where({ event_id: eventId }).whereIn('status', seats).count({ n: '*' }),
      executor,
    ),
  );
  return readInt(row?.n);
}

export function registrationDeadlineOf(row: Pick<EventRow, 'registration_deadline' | 'starts_at'>): string {
  return fromDbTime(row.registration_deadline ?? row.starts_at)!;
}

export function registrationOpen(row: EventRow, registrationStatuses: string[], now = currentTime()): boolean {
  return registrationStatuses.includes(row.status) && new Date(registrationDeadlineOf(row)) > now;
}

/** An event row with its seat counts read along (`withSeatCounts`). */
export type EventRowWithCounts = EventRow & { taken_count: unknown; waiting_count: unknown };

/**
 * Adds the seat counts of each event to an events query (`ev`) as two correlated counts on the
 * participants' (event_id, status) index, with the same rules as `countsByEvent`: taken are the
 * participants in a seat-holding status, waiting those in 'waiting' (when it holds no seat).
 */
export function withSeatCounts(query: Knex.QueryBuilder, executor: Executor): Knex.QueryBuilder {
  const taken = executor(`${PARTICIPANTS} as pc`)
    .join(`${PARTICIPANT_STATUSES} as sc`, 'sc.technical_name', 'pc.status')
    .whereRaw('?? = ??', ['pc.event_id', 'ev.id'])
    .where('sc.occupies_seat', true)
    .count('*')
    .as('taken_count');
  const waiting = executor(`${PARTICIPANTS} as pw`)
    .leftJoin(`${PARTICIPANT_STATUSES} as sw`, 'sw.technical_name', 'pw.status')
    .whereRaw('?? = ??', ['pw.event_id', 'ev.id'])
    .where('pw.status', 'waiting')
    .where((q) => void q.whereNull('sw.occupies_seat').orWhere('sw.occupies_seat', false))
    .count('*')
    .as('waiting_count');
  return query.select(taken, waiting);
}

function hasSeatCounts(rows: Array<EventRow | EventRowWithCounts>): rows is EventRowWithCounts[] {
  return rows.every((row) => 'taken_count' in row && 'waiting_count' in row);
}

/**
 * The specifications the events name (format, difficulty level, venue) and each event's speakers
 * (by position, then id) in one statement: the named ones, UNION ALL the speakers joined to theirs.
 */
async function specificationsOfEvents(
  executor: Executor,
  rows: EventRow[],
): Promise<{ specs: Map<string, SpecificationView>; speakers: Map<string, SpecificationView[]> }> {
  const named = [
    ...new Set(
      rows.flatMap((row) => [row.format_id, row.difficulty_level_id, row.venue_id].filter((v): v is string => !!v)),
    ),
  ];
  const specs = new Map<string, SpecificationView>();
  const speakers = new Map<string, SpecificationView[]>();
  if (rows.length === 0) return { specs, speakers };
  const namedQuery = executor(`${SPECIFICATIONS} as s`)
    .whereIn('s.id', named)
    .select('s.*', executor.raw('null as speaker_event_id'), executor.raw('null as speaker_position'));
  const speakerQuery = executor(`${SPEAKERS} as sp`)
    .join(`${SPECIFICATIONS} as s`, 's.id', 'sp.speaker_id')
    .whereIn(
      'sp.event_id',
      rows.map((row) => row.id),
    )
    .select('s.*', 'sp.event_id as speaker_event_id', 'sp.position as speaker_position');
  const found = await selectRows<SpecificationDbRow & { speaker_event_id: string | null; speaker_position: unknown }>(
    namedQuery.unionAll([speakerQuery]).orderBy('speaker_position').orderBy('id'),
  );
  for (const row of found) {
    const view = specs.get(row.id) ?? toSpecificationView(row);
    specs.set(row.id, view);
    if (row.speaker_event_id === null || row.speaker_event_id === undefined) continue;
    const list = speakers.get(row.speaker_event_id);
    if (list) list.push(view);
    else speakers.set(row.speaker_event_id, [view]);
  }
  return { specs, speakers };
}

export async function toEventViews(
  host: HostRuntime,
  executor: Executor,
  rows: Array<EventRow | EventRowWithCounts>,
  registrationStatuses: string[],
  viewer?: StoreContext,
): Promise<EventView[]> {
  const ids = rows.map((row) => row.id);
  const productIds = rows.map((row) => row.product_id);
  // A customer's rows are of products it may see: visibleProducts answers them from the host's kept reads.
  const products = new Map(
    (
      await (viewer
        ? host.catalog.visibleProducts(executor, viewer, productIds)
        : host.catalog.products(executor, productIds))
    ).map((p) => [p.id, p]),
  );
  const { specs, speakers } = await specificationsOfEvents(executor, rows);
  const counts = hasSeatCounts(rows)
    ? new Map(rows.map((row) => [row.id, { taken: readInt(row.taken_count), waiting: readInt(row.waiting_count) }]))
    : await countsByEvent(executor, ids);
  const now = currentTime();
  return rows.map((row) => {
    const limit =
      row.participant_limit === null || row.participant_limit === undefined ? null : readInt(row.participant_limit);
    const { taken, waiting } = counts.get(row.id)!;
    return {
      id: row.id,
      productId: row.product_id,
      productName: products.get(row.product_id)?.name ?? '',
      productNumber: products.get(row.product_id)?.productNumber ?? '',
      name: row.name,
      language: row.language,
      format: row.format_id ? (specs.get(row.format_id) ?? null) : null,
      difficultyLevel: row.difficulty_level_id ? (specs.get(row.difficulty_level_id) ?? null) : null,
      venue: row.venue_id ? (specs.get(row.venue_id) ?? null) : null,
      speakers: speakers.get(row.id) ?? [],
      description: row.description ?? null,
      startsAt: fromDbTime(row.starts_at)!,
      endsAt: fromDbTime(row.ends_at)!,
      participantLimit: limit,
      registrationDeadline: registrationDeadlineOf(row),
      waitingList: readBool(row.waiting_list),
      status: row.status,
      registrationOpen: registrationOpen(row, registrationStatuses, now),
      registeredCount: taken,
      waitingCount: waiting,
      freeSeats: limit === null ? null : Math.max(0, limit - taken),
      createdAt: fromDbTime(row.created_at)!,
      updatedAt: fromDbTime(row.updated_at),
    };
  });
}

export function participantsQuery(executor: Executor): Knex.QueryBuilder {
  return executor(`${PARTICIPANTS} as pa`).join(`${EVENTS} as ev`, 'ev.id', 'pa.event_id');
}

/** The participants of one company (all its events) or of one event, for a criteria search (it selects PARTICIPANT_COLUMNS). */
export function participantsOf(
  executor: Executor,
  scope: { customerId: string } | { eventId: string },
): Knex.QueryBuilder {
  return 'customerId' in scope
    ? participantsQuery(executor).where('pa.customer_id', scope.customerId)
    : participantsQuery(executor).where('pa.event_id', scope.eventId);
}

export const PARTICIPANT_COLUMNS = ['pa.*', 'ev.name as event_name', 'ev.starts_at as event_starts_at'];

/** Adds the customer's company and number and the order number, read from the host in one call each. */
export async function withHostFields(
  host: HostRuntime,
  executor: Executor,
  rows: ParticipantRow[],
): Promise<ParticipantRow[]> {
  const customers = new Map(
    (await host.customers.getMany(executor, [...new Set(rows.map((row) => row.customer_id))])).map((c) => [c.id, c]),
  );
  const orderIds = [...new Set(rows.flatMap((row) => (row.order_id ? [row.order_id] : [])))];
  const orders = new Map((orderIds.length ? await host.orders.getMany(executor, orderIds) : []).map((o) => [o.id, o]));
  return rows.map((row) => ({
    ...row,
    company: customers.get(row.customer_id)?.company ?? null,
    customer_number: customers.get(row.customer_id)?.customerNumber ?? null,
    order_number: row.order_id ? (orders.get(row.order_id)?.orderNumber ?? null) : null,
  }));
}

export async function findParticipant(
  host: HostRuntime,
  executor: Executor,
  id: string,
): Promise<ParticipantRow | null> {
  const row = await selectRow<ParticipantRow>(
    participantsQuery(executor).where('pa.id', id).first(PARTICIPANT_COLUMNS),
  );
  return row ? (await withHostFields(host, executor, [row]))[0]! : null;
}

export function documentsOf(row: Pick<ParticipantRow, 'documents'>): ParticipantDocument[] {
  return readJson<ParticipantDocument[]>(row.documents, []);
}

/** What sales staff see of a participant. */
export function toStaffParticipantView(row: ParticipantRow) {
  return {
    ...toCustomerParticipantView(row),
    customerId: row.customer_id,
    customerNumber: row.customer_number ?? null,
    company: row.company ?? null,
    orderLineItemId: row.order_line_item_id ?? null,
    waitingPosition:
      row.waiting_position === null || row.waiting_position === undefined ? null : readInt(row.waiting_position),
    notes: row.notes ?? null,
    documents: documentsOf(row),
    reminderSentAt: fromDbTime(row.reminder_sent_at),
    createdBy: row.created_by_type,
    updatedAt: fromDbTime(row.updated_at),
  };
}

/** What the participant's own company sees (no staff notes or documents). */
export function toCustomerParticipantView(row: ParticipantRow) {
  return {
    id: row.id,
    eventId: row.event_id,
    eventName: row.event_name ?? '',
    eventStartsAt: fromDbTime(row.event_starts_at ?? null),
    employeeId: row.employee_id ?? null,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    status: row.status,
    orderId: row.order_id ?? null,
    orderNumber: row.order_number ?? null,
    createdAt: fromDbTime(row.created_at)!,
  };
}

/** The customers were deleted by the host (contract event): their participants go with them. */
export async function deleteCustomersParticipants(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(PARTICIPANTS).whereIn('customer_id', customerIds).delete();
}

/** The products were deleted by the host (contract event): their events go with them (speakers, participants, circular mails by foreign key). */
export async function deleteEventsOfProducts(executor: Executor, productIds: string[]): Promise<void> {
  await executor(EVENTS).whereIn('product_id', productIds).delete();
}

/** The active participants (registered, waiting) an order's tickets registered. */
export async function activeParticipantsOfOrder(executor: Executor, orderId: string): Promise<ParticipantRow[]> {
  return selectRows<ParticipantRow>(
    executor(PARTICIPANTS)
      .where({ order_id: orderId })
      .whereIn('status', [...ACTIVE_PARTICIPANT_STATUSES])
      .orderBy('event_id')
      .orderBy('id'),
  );
}
