import type { Knex } from 'knex';
import type { HostRuntime, StoreContext } from '../../host/contract.js';
import { searchByCriteria, type Criteria } from '../../lib/criteria.js';
import { inTransaction, isDuplicateKeyError, readBool, readInt, readJson, writeJson, type Executor, type Trx } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { fromDbTime, nowDb, toDbTime } from '../../lib/time.js';
import { findEmployeeRow } from '../employee/repository.js';
import { narrowByProductFields } from '../product-fields.js';
import { EVENT_MAIL, eventMailData, salesChannelOfCustomer } from './mail.js';
import {
  ACTIVE_PARTICIPANT_STATUSES,
  BASE_EVENT_STATUSES,
  CIRCULAR_MAILS,
  EVENT_COLUMNS,
  EVENT_CRITERIA,
  EVENTS,
  PARTICIPANT_COLUMNS,
  PARTICIPANT_CRITERIA,
  PARTICIPANT_STATUSES,
  PARTICIPANTS,
  SPEAKERS,
  SPECIFICATION_CRITERIA,
  SPECIFICATIONS,
  eventProductFields,
  eventsQuery,
  findEvent,
  findParticipant,
  lockEvent,
  participantsQuery,
  seatStatuses,
  takenSeats,
  toCustomerParticipantView,
  toEventViews,
  toSpecificationView,
  toStaffParticipantView,
  withHostFields,
  type EventRow,
  type EventView,
  type ParticipantDocument,
  type ParticipantRow,
  type SpecificationType,
  type SpecificationView,
} from './repository.js';
import type { EventSettings, EventSettingsCache } from './settings.js';

export interface EventInput {
  productId?: string;
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

export interface ParticipantInput {
  customerId: string;
  employeeId?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  status?: string;
  notes?: string | null;
}

export interface ParticipantPatch {
  firstName?: string;
  lastName?: string;
  email?: string;
  notes?: string | null;
  documents?: Array<{ name: string; url?: string | null; note?: string | null }>;
}

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  employeeId: string | null;
}

const SPEC_FIELDS: Array<{ field: 'formatId' | 'difficultyLevelId' | 'venueId'; column: 'format_id' | 'difficulty_level_id' | 'venue_id'; type: SpecificationType }> = [
  { field: 'formatId', column: 'format_id', type: 'format' },
  { field: 'difficultyLevelId', column: 'difficulty_level_id', type: 'difficulty_level' },
  { field: 'venueId', column: 'venue_id', type: 'venue' },
];

export const eventFull = () => Errors.badRequest('SUITE__EVENT_FULL', 'The event has no free seats left and no waiting list.');
export const alreadyRegistered = (email: string) =>
  Errors.badRequest('SUITE__EVENT_PARTICIPANT_ALREADY_REGISTERED', `${email} is registered for this event or on its waiting list already.`);

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Whether someone with this e-mail holds a registration or a waiting place at the event (other than `exceptId`). */
export async function hasActiveRegistration(executor: Executor, eventId: string, email: string, exceptId?: string): Promise<boolean> {
  const query = executor(PARTICIPANTS).where({ event_id: eventId, email: normaliseEmail(email) }).whereIn('status', [...ACTIVE_PARTICIPANT_STATUSES]);
  if (exceptId) query.whereNot({ id: exceptId });
  return !!(await query.first('id'));
}

export async function nextWaitingPosition(executor: Executor, eventId: string): Promise<number> {
  const [row] = await executor(PARTICIPANTS).where({ event_id: eventId }).max({ m: 'waiting_position' });
  return readInt((row as { m: unknown } | undefined)?.m) + 1;
}

/** Event times between 1970 and 9999, which both databases store. */
function storedTime(iso: string, pointer: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1970 || date.getUTCFullYear() > 9999)
    throw Errors.badRequest('SUITE__EVENT_INVALID_DATES', 'Times must lie between the years 1970 and 9999.', { pointer });
  return toDbTime(date);
}

export class EventService {
  constructor(
    private readonly host: HostRuntime,
    private readonly settings: EventSettingsCache,
  ) {}

  private get db() {
    return this.host.db;
  }

  eventStatuses(settings: EventSettings = this.settings.current()): string[] {
    return [...new Set([...BASE_EVENT_STATUSES, ...settings.registrationStatuses])];
  }

  // ---- events (sales staff) ----

  async views(executor: Executor, rows: EventRow[]): Promise<EventView[]> {
    return toEventViews(this.host, executor, rows, this.settings.current().registrationStatuses);
  }

  async view(executor: Executor, id: string): Promise<EventView> {
    const row = await findEvent(executor, id);
    if (!row) throw Errors.notFound('Event', id);
    return (await this.views(executor, [row]))[0]!;
  }

  async searchEvents(criteria: Criteria): Promise<{ total: number; data: EventView[] }> {
    const query = eventsQuery(this.db);
    const list = await narrowByProductFields(this.host, null, query, criteria, EVENT_CRITERIA, eventProductFields);
    const page = await searchByCriteria<EventRow>(query, list.criteria, EVENT_CRITERIA, (q) => list.order(q.select(EVENT_COLUMNS)));
    return { total: page.total, data: await this.views(this.db, page.rows) };
  }

  private async checkSpecifications(executor: Executor, input: EventInput): Promise<void> {
    for (const { field, type } of SPEC_FIELDS) {
      const id = input[field];
      if (!id) continue;
      const row = await executor(SPECIFICATIONS).where({ id, type }).first('id');
      if (!row) throw Errors.badRequest('SUITE__EVENT_SPECIFICATION_INVALID', `There is no ${type.replace('_', ' ')} with id "${id}".`, { pointer: `/${field}` });
    }
    for (const [index, id] of (input.speakerIds ?? []).entries()) {
      const row = await executor(SPECIFICATIONS).where({ id, type: 'speaker' }).first('id');
      if (!row) throw Errors.badRequest('SUITE__EVENT_SPECIFICATION_INVALID', `There is no speaker with id "${id}".`, { pointer: `/speakerIds/${index}` });
    }
  }

  /** Checks an event's fields (input merged over the stored row) and returns the columns to write. */
  private async eventColumns(executor: Executor, input: EventInput, existing: EventRow | null): Promise<Record<string, unknown>> {
    const settings = this.settings.current();
    const columns: Record<string, unknown> = {};
    if (input.productId !== undefined) {
      const [product] = await this.host.catalog.products(executor, [input.productId]);
      if (!product) throw Errors.badRequest('SUITE__EVENT_PRODUCT_NOT_FOUND', `There is no product with id "${input.productId}".`, { pointer: '/productId' });
      columns.product_id = product.id;
    }
    if (input.language !== undefined) {
      if (!settings.languages.includes(input.language))
        throw Errors.badRequest('SUITE__EVENT_LANGUAGE_NOT_AVAILABLE', `The language "${input.language}" is not one of ${settings.languages.join(', ')}.`, { pointer: '/language' });
      columns.language = input.language;
    }
    await this.checkSpecifications(executor, input);
    for (const { field, column } of SPEC_FIELDS) if (input[field] !== undefined) columns[column] = input[field];
    if (input.name !== undefined) columns.name = input.name.trim();
    if (input.description !== undefined) columns.description = input.description;
    if (input.participantLimit !== undefined) columns.participant_limit = input.participantLimit;
    if (input.waitingList !== undefined) columns.waiting_list = input.waitingList;
    if (input.startsAt !== undefined) columns.starts_at = storedTime(input.startsAt, '/startsAt');
    if (input.endsAt !== undefined) columns.ends_at = storedTime(input.endsAt, '/endsAt');
    if (input.registrationDeadline !== undefined) columns.registration_deadline = input.registrationDeadline === null ? null : storedTime(input.registrationDeadline, '/registrationDeadline');

    const startsAt = new Date(fromDbTime((columns.starts_at as string | undefined) ?? existing?.starts_at)!);
    const endsAt = new Date(fromDbTime((columns.ends_at as string | undefined) ?? existing?.ends_at)!);
    if (endsAt <= startsAt) throw Errors.badRequest('SUITE__EVENT_INVALID_DATES', 'An event must end after it starts.', { pointer: '/endsAt' });
    const deadline = columns.registration_deadline !== undefined ? (columns.registration_deadline as string | null) : (existing?.registration_deadline ?? null);
    if (deadline !== null && new Date(fromDbTime(deadline)!) > endsAt)
      throw Errors.badRequest('SUITE__EVENT_INVALID_DATES', 'Registration must close before the event ends.', { pointer: '/registrationDeadline' });
    return columns;
  }

  private async replaceSpeakers(trx: Trx, eventId: string, speakerIds: string[]): Promise<void> {
    await trx(SPEAKERS).where({ event_id: eventId }).delete();
    if (speakerIds.length) await trx(SPEAKERS).insert(speakerIds.map((speakerId, position) => ({ event_id: eventId, speaker_id: speakerId, position })));
  }

  async createEvent(ctx: StoreContext, input: EventInput): Promise<EventView> {
    return inTransaction(this.db, async (trx) => {
      const columns = await this.eventColumns(trx, input, null);
      const id = newId();
      await trx(EVENTS).insert({
        id,
        ...columns,
        waiting_list: input.waitingList ?? false,
        participant_limit: input.participantLimit ?? null,
        status: 'draft',
        created_by_id: ctx.salesRepresentative?.id ?? null,
        created_at: nowDb(),
      });
      await this.replaceSpeakers(trx, id, input.speakerIds ?? []);
      return this.view(trx, id);
    });
  }

  async updateEvent(id: string, input: EventInput): Promise<EventView> {
    return inTransaction(this.db, async (trx) => {
      const existing = await lockEvent(trx, id);
      if (!existing) throw Errors.notFound('Event', id);
      const columns = await this.eventColumns(trx, input, existing);
      if (input.participantLimit !== undefined && input.participantLimit !== null) {
        const taken = await takenSeats(trx, id);
        if (input.participantLimit < taken)
          throw Errors.badRequest('SUITE__EVENT_LIMIT_BELOW_TAKEN', `${taken} participants hold a seat already; the limit cannot be lower.`, { pointer: '/participantLimit' });
      }
      await trx(EVENTS).where({ id }).update({ ...columns, updated_at: nowDb() });
      if (input.speakerIds !== undefined) await this.replaceSpeakers(trx, id, input.speakerIds);
      await this.promoteWaiting(trx, id);
      return this.view(trx, id);
    });
  }

  async deleteEvent(id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      if (!(await lockEvent(trx, id))) throw Errors.notFound('Event', id);
      if (await trx(PARTICIPANTS).where({ event_id: id }).whereIn('status', [...ACTIVE_PARTICIPANT_STATUSES]).first('id'))
        throw Errors.badRequest('SUITE__EVENT_HAS_PARTICIPANTS', 'The event has registered or waiting participants; cancel them or set the event status instead.');
      await trx(EVENTS).where({ id }).delete();
    });
  }

  async setEventStatus(id: string, status: string): Promise<EventView> {
    const allowed = this.eventStatuses();
    if (!allowed.includes(status))
      throw Errors.badRequest('SUITE__EVENT_STATUS_UNKNOWN', `The status "${status}" is not one of ${allowed.join(', ')}.`, { pointer: '/status' });
    return inTransaction(this.db, async (trx) => {
      const existing = await lockEvent(trx, id);
      if (!existing) throw Errors.notFound('Event', id);
      if (existing.status !== status) await trx(EVENTS).where({ id, status: existing.status }).update({ status, updated_at: nowDb() });
      return this.view(trx, id);
    });
  }

  // ---- specifications ----

  async searchSpecifications(criteria: Criteria): Promise<{ total: number; data: SpecificationView[] }> {
    const page = await searchByCriteria<Record<string, any>>(this.db(`${SPECIFICATIONS} as s`), criteria, SPECIFICATION_CRITERIA, (q) => q.select('s.*'));
    return { total: page.total, data: page.rows.map(toSpecificationView) };
  }

  async specificationsOfType(type: SpecificationType): Promise<SpecificationView[]> {
    const rows = await this.db(SPECIFICATIONS).where({ type }).orderBy('position').orderBy('name').orderBy('id').limit(500);
    return rows.map(toSpecificationView);
  }

  async createSpecification(input: { type: SpecificationType; name: string; description?: string | null; position?: number }): Promise<SpecificationView> {
    const id = newId();
    await this.db(SPECIFICATIONS).insert({ id, type: input.type, name: input.name.trim(), description: input.description ?? null, position: input.position ?? 0, created_at: nowDb() });
    return toSpecificationView((await this.db(SPECIFICATIONS).where({ id }).first())!);
  }

  async updateSpecification(id: string, input: { name?: string; description?: string | null; position?: number }): Promise<SpecificationView> {
    const columns: Record<string, unknown> = { updated_at: nowDb() };
    if (input.name !== undefined) columns.name = input.name.trim();
    if (input.description !== undefined) columns.description = input.description;
    if (input.position !== undefined) columns.position = input.position;
    if ((await this.db(SPECIFICATIONS).where({ id }).update(columns)) !== 1) throw Errors.notFound('Event specification', id);
    return toSpecificationView((await this.db(SPECIFICATIONS).where({ id }).first())!);
  }

  async deleteSpecification(id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const row = await trx(SPECIFICATIONS).where({ id }).first('id');
      if (!row) throw Errors.notFound('Event specification', id);
      const used =
        (await trx(EVENTS).where((q) => q.where({ format_id: id }).orWhere({ difficulty_level_id: id }).orWhere({ venue_id: id })).first('id')) ??
        (await trx(SPEAKERS).where({ speaker_id: id }).first('event_id'));
      if (used) throw Errors.badRequest('SUITE__EVENT_SPECIFICATION_IN_USE', 'Events use this specification; change them first.');
      await trx(SPECIFICATIONS).where({ id }).delete();
    });
  }

  // ---- participants (sales staff) ----

  async searchParticipants(eventId: string, criteria: Criteria) {
    if (!(await findEvent(this.db, eventId))) throw Errors.notFound('Event', eventId);
    const base = participantsQuery(this.db).where('pa.event_id', eventId);
    const page = await searchByCriteria<ParticipantRow>(base, criteria, PARTICIPANT_CRITERIA, (q) => q.select(PARTICIPANT_COLUMNS));
    return { total: page.total, data: (await withHostFields(this.host, this.db, page.rows)).map(toStaffParticipantView) };
  }

  async participant(executor: Executor, id: string) {
    const row = await findParticipant(this.host, executor, id);
    if (!row) throw Errors.notFound('Participant', id);
    return toStaffParticipantView(row);
  }

  private async knownStatus(executor: Executor, status: string): Promise<void> {
    if (!(await executor(PARTICIPANT_STATUSES).where({ technical_name: status }).first('technical_name')))
      throw Errors.badRequest('SUITE__EVENT_PARTICIPANT_STATUS_UNKNOWN', `There is no participant status "${status}".`, { pointer: '/status' });
  }

  /** The person a manual registration names: an employee of the customer, a person given by name, or the customer's own contact. */
  private async personFor(executor: Executor, input: ParticipantInput): Promise<Person> {
    const customer = await this.host.customers.get(executor, input.customerId);
    if (!customer) throw Errors.badRequest('SUITE__EVENT_CUSTOMER_NOT_FOUND', `There is no customer with id "${input.customerId}".`, { pointer: '/customerId' });
    if (input.employeeId) {
      const employee = await findEmployeeRow(executor, customer.id, input.employeeId);
      if (!employee || !readBool(employee.link_active) || !readBool(employee.employee_active))
        throw Errors.badRequest('SUITE__EVENT_PARTICIPANT_EMPLOYEE_UNKNOWN', 'The employee is not an active employee of this customer.', { pointer: '/employeeId' });
      return { firstName: employee.first_name, lastName: employee.last_name, email: normaliseEmail(employee.email), employeeId: employee.id };
    }
    const named = [input.firstName, input.lastName, input.email];
    if (named.some((v) => v !== undefined)) {
      if (named.some((v) => v === undefined))
        throw Errors.badRequest('SUITE__EVENT_PARTICIPANT_INCOMPLETE', 'Give firstName, lastName and email of the participant, or an employeeId.', { pointer: input.firstName === undefined ? '/firstName' : input.lastName === undefined ? '/lastName' : '/email' });
      return { firstName: input.firstName!.trim(), lastName: input.lastName!.trim(), email: normaliseEmail(input.email!), employeeId: null };
    }
    return { firstName: customer.firstName, lastName: customer.lastName, email: normaliseEmail(customer.email), employeeId: null };
  }

  async addParticipant(ctx: StoreContext, eventId: string, input: ParticipantInput) {
    return inTransaction(this.db, async (trx) => {
      const event = await lockEvent(trx, eventId);
      if (!event) throw Errors.notFound('Event', eventId);
      const person = await this.personFor(trx, input);
      if (await hasActiveRegistration(trx, eventId, person.email)) throw alreadyRegistered(person.email);
      let status = input.status;
      const seats = await seatStatuses(trx);
      const limit = event.participant_limit === null ? null : readInt(event.participant_limit);
      const full = limit !== null && (await takenSeats(trx, eventId)) >= limit;
      if (status !== undefined) {
        await this.knownStatus(trx, status);
        if (seats.includes(status) && full) throw eventFull();
      } else {
        status = !full ? 'registered' : readBool(event.waiting_list) ? 'waiting' : undefined;
        if (!status) throw eventFull();
      }
      const id = newId();
      await trx(PARTICIPANTS).insert({
        id,
        event_id: eventId,
        customer_id: input.customerId,
        employee_id: person.employeeId,
        first_name: person.firstName,
        last_name: person.lastName,
        email: person.email,
        status,
        waiting_position: status === 'waiting' ? await nextWaitingPosition(trx, eventId) : null,
        notes: input.notes ?? null,
        documents: writeJson([]),
        created_by_type: ctx.actor.type,
        created_by_id: ctx.actor.id,
        created_at: nowDb(),
      });
      return this.participant(trx, id);
    });
  }

  async updateParticipant(id: string, patch: ParticipantPatch) {
    return inTransaction(this.db, async (trx) => {
      const existing = await trx(PARTICIPANTS).where({ id }).first('id', 'event_id', 'status');
      if (!existing) throw Errors.notFound('Participant', id);
      const columns: Record<string, unknown> = { updated_at: nowDb() };
      if (patch.firstName !== undefined) columns.first_name = patch.firstName.trim();
      if (patch.lastName !== undefined) columns.last_name = patch.lastName.trim();
      if (patch.notes !== undefined) columns.notes = patch.notes;
      if (patch.documents !== undefined)
        columns.documents = writeJson(patch.documents.map((d): ParticipantDocument => ({ name: d.name.trim(), url: d.url ?? null, note: d.note ?? null })));
      if (patch.email !== undefined) {
        await lockEvent(trx, existing.event_id);
        if ((ACTIVE_PARTICIPANT_STATUSES as readonly string[]).includes(existing.status) && (await hasActiveRegistration(trx, existing.event_id, patch.email, id)))
          throw alreadyRegistered(patch.email);
        columns.email = normaliseEmail(patch.email);
      }
      await trx(PARTICIPANTS).where({ id }).update(columns);
      return this.participant(trx, id);
    });
  }

  async setParticipantStatus(id: string, status: string) {
    return inTransaction(this.db, async (trx) => {
      const before = await trx(PARTICIPANTS).where({ id }).first('event_id');
      if (!before) throw Errors.notFound('Participant', id);
      const event = await lockEvent(trx, before.event_id);
      const current = (await trx(PARTICIPANTS).where({ id }).first()) as ParticipantRow | undefined;
      if (!event || !current) throw Errors.notFound('Participant', id);
      await this.knownStatus(trx, status);
      if (current.status === status) return this.participant(trx, id);
      const seats = await seatStatuses(trx);
      const limit = event.participant_limit === null ? null : readInt(event.participant_limit);
      if (seats.includes(status) && !seats.includes(current.status) && limit !== null && (await takenSeats(trx, event.id)) >= limit) throw eventFull();
      if ((ACTIVE_PARTICIPANT_STATUSES as readonly string[]).includes(status) && (await hasActiveRegistration(trx, event.id, current.email, id))) throw alreadyRegistered(current.email);
      const changed = await trx(PARTICIPANTS)
        .where({ id, status: current.status })
        .update({ status, waiting_position: status === 'waiting' ? await nextWaitingPosition(trx, event.id) : null, updated_at: nowDb() });
      if (changed !== 1) throw Errors.conflict();
      if (seats.includes(current.status) && !seats.includes(status)) await this.promoteWaiting(trx, event.id);
      return this.participant(trx, id);
    });
  }

  /**
   * Gives free seats to the waiting list in order and mails each promoted participant. Runs with the
   * event row locked; a canceled or finished event promotes nobody.
   */
  async promoteWaiting(trx: Trx, eventId: string): Promise<number> {
    const event = await lockEvent(trx, eventId);
    if (!event || event.status === 'canceled' || new Date(fromDbTime(event.ends_at)!) <= new Date()) return 0;
    const limit = event.participant_limit === null ? null : readInt(event.participant_limit);
    let taken = await takenSeats(trx, eventId);
    let promoted = 0;
    while (limit === null || taken < limit) {
      const next = (await trx(PARTICIPANTS).where({ event_id: eventId, status: 'waiting' }).orderBy('waiting_position').orderBy('created_at').orderBy('id').first()) as ParticipantRow | undefined;
      if (!next) break;
      const moved = await trx(PARTICIPANTS).where({ id: next.id, status: 'waiting' }).update({ status: 'registered', waiting_position: null, updated_at: nowDb() });
      if (moved !== 1) break;
      taken++;
      promoted++;
      const salesChannel = await salesChannelOfCustomer(this.host, trx, next.customer_id);
      if (!salesChannel) continue;
      await this.host.mail.enqueue(trx, {
        template: EVENT_MAIL.waitingListPromoted,
        to: next.email,
        salesChannelId: salesChannel.id,
        data: { event: await eventMailData(this.host, trx, salesChannel, event), participant: { firstName: next.first_name, lastName: next.last_name, email: next.email } },
      });
    }
    return promoted;
  }

  // ---- circular mail ----

  /**
   * One outbox row per participant, keyed by circular and participant. `circularId` (the storefront
   * form's hidden key) makes a resubmitted form answer the first mailing instead of sending again.
   */
  async sendCircularMail(ctx: StoreContext, eventId: string, input: { subject: string; message: string; statuses?: string[] }, circularId?: string) {
    const statuses = input.statuses ?? [...ACTIVE_PARTICIPANT_STATUSES];
    return inTransaction(this.db, async (trx) => {
      const event = await findEvent(trx, eventId);
      if (!event) throw Errors.notFound('Event', eventId);
      if (circularId) {
        const sent = await trx(CIRCULAR_MAILS).where({ id: circularId, event_id: eventId }).first();
        if (sent)
          return { id: sent.id as string, eventId, subject: sent.subject as string, statuses: readJson<string[]>(sent.statuses, []), recipients: readInt(sent.recipient_count), createdAt: fromDbTime(sent.created_at)! };
      }
      for (const status of statuses) await this.knownStatus(trx, status);
      const participants = (await trx(PARTICIPANTS).where({ event_id: eventId }).whereIn('status', statuses).orderBy('created_at').orderBy('id')) as ParticipantRow[];
      const id = circularId ?? newId();
      const createdAt = nowDb();
      await trx(CIRCULAR_MAILS).insert({
        id,
        event_id: eventId,
        subject: input.subject.trim(),
        message: input.message,
        statuses: writeJson(statuses),
        recipient_count: participants.length,
        sent_by_id: ctx.salesRepresentative?.id ?? null,
        created_at: createdAt,
      });
      const eventData = await eventMailData(this.host, trx, ctx.salesChannel, event);
      for (const participant of participants) {
        await this.host.mail.enqueue(trx, {
          template: EVENT_MAIL.circular,
          to: participant.email,
          salesChannelId: ctx.salesChannel.id,
          dedupeKey: `event-circular:${id}:${participant.id}`,
          data: {
            event: eventData,
            subject: input.subject.trim(),
            message: input.message,
            sender: ctx.salesRepresentative?.name ?? ctx.actor.name,
            participant: { firstName: participant.first_name, lastName: participant.last_name, email: participant.email, status: participant.status },
          },
        });
      }
      return { id, eventId, subject: input.subject.trim(), statuses, recipients: participants.length, createdAt: fromDbTime(createdAt)! };
    });
  }

  // ---- customers ----

  /** Events a customer may see: a registration status, not over (the product's visibility is the host's answer, below). */
  private customerEventsQuery(): Knex.QueryBuilder {
    const settings = this.settings.current();
    return eventsQuery(this.db).whereIn('ev.status', settings.registrationStatuses).where('ev.ends_at', '>=', nowDb());
  }

  /** Events of active products the context may see, by criteria. */
  async searchCustomerEvents(ctx: StoreContext, criteria: Criteria): Promise<{ total: number; data: EventView[] }> {
    await ctx.ruleIds();
    const query = this.customerEventsQuery();
    const list = await narrowByProductFields(this.host, ctx, query, criteria, EVENT_CRITERIA, eventProductFields);
    const page = await searchByCriteria<EventRow>(query, list.criteria, EVENT_CRITERIA, (q) => list.order(q.select(EVENT_COLUMNS)));
    return { total: page.total, data: await this.views(this.db, page.rows) };
  }

  async customerEvent(ctx: StoreContext, id: string): Promise<EventView> {
    await ctx.ruleIds();
    const row = (await this.customerEventsQuery().where('ev.id', id).first(EVENT_COLUMNS)) as EventRow | undefined;
    if (!row || (await this.host.catalog.visibleProducts(ctx, [row.product_id])).length === 0) throw Errors.notFound('Event', id);
    return (await this.views(this.db, [row]))[0]!;
  }

  async companyParticipants(customerId: string, criteria: Criteria) {
    const base = participantsQuery(this.db).where('pa.customer_id', customerId);
    const page = await searchByCriteria<ParticipantRow>(base, criteria, PARTICIPANT_CRITERIA, (q) => q.select(PARTICIPANT_COLUMNS));
    return { total: page.total, data: (await withHostFields(this.host, this.db, page.rows)).map(toCustomerParticipantView) };
  }

  async addParticipantStatus(input: { technicalName: string; name: string; occupiesSeat?: boolean; position?: number }) {
    try {
      await this.db(PARTICIPANT_STATUSES).insert({
        technical_name: input.technicalName,
        name: input.name.trim(),
        occupies_seat: input.occupiesSeat ?? false,
        system: false,
        position: input.position ?? 100,
        created_at: nowDb(),
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw Errors.badRequest('SUITE__EVENT_PARTICIPANT_STATUS_EXISTS', `The status "${input.technicalName}" exists already.`, { pointer: '/technicalName' });
      throw error;
    }
    return { technicalName: input.technicalName, name: input.name.trim(), occupiesSeat: input.occupiesSeat ?? false, system: false, position: input.position ?? 100 };
  }
}
