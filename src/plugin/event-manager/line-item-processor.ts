import { createHash } from 'node:crypto';
import type { CartLineItem, LineItemProcessor, StoreContext } from '../../contract/index.js';
import { readBool, readInt, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { isId, newId } from '../../lib/ids.js';
import { findEmployeeRow } from '../employee/index.js';
import {
  employeePerson,
  eventIdsOfProduct,
  findEvent,
  hasActiveRegistration,
  lockEvent,
  normaliseEmail,
  registrationDeadlineOf,
  takenSeats,
  type EventRow,
} from './repository.js';
import { alreadyRegistered, eventFull } from './states.js';
import type { Person } from './use-cases/index.js';
import type { EventSettingsCache } from './settings.js';
import { now } from '../../lib/time.js';

export const EVENT_REGISTER_PERMISSION = 'event.register';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `payload.participant` exactly as the spec lists it. */
export interface ParticipantPayload {
  id: string;
  email: string;
  employee: { id: string; firstName: string; lastName: string; email: string } | null;
  lastName: string;
  firstName: string;
  /** '' when the participant is not an employee: the spec types it as a string (only `employee` may be null). */
  employeeId: string;
  extensions: unknown[];
}

/** A line of an event product whose payload names an event or a participant is an event ticket. */
export function isTicketRequest(payload: Record<string, unknown>): boolean {
  return payload.participant !== undefined || payload.eventId !== undefined;
}

/** A written order line is a ticket when the processor shaped it. */
export function ticketOf(
  payload: Record<string, unknown> | null | undefined,
): { eventId: string; participant: ParticipantPayload } | null {
  if (!payload || typeof payload.eventId !== 'string') return null;
  const participant = payload.participant as ParticipantPayload | undefined;
  if (
    !participant ||
    typeof participant !== 'object' ||
    typeof participant.id !== 'string' ||
    typeof participant.email !== 'string'
  )
    return null;
  return { eventId: payload.eventId, participant };
}

const invalidParticipant = (detail: string) => Errors.badRequest('SUITE__EVENT_PARTICIPANT_INVALID', detail);

function textField(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value.trim() || value.length > 255)
    throw invalidParticipant(`participant.${name} must be a non-empty string of at most 255 characters.`);
  return value.trim();
}

/** Who a ticket is for: an employee of the ordering customer, a person given by name and e-mail, or (nothing given) the orderer. */
async function resolvePerson(ctx: StoreContext, raw: unknown, executor: Executor): Promise<Person> {
  const customer = ctx.customer!;
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw)))
    throw invalidParticipant('participant must be an object.');
  const given = (raw ?? {}) as Record<string, unknown>;
  const employeeId = given.employeeId;
  if (employeeId !== undefined && employeeId !== null && employeeId !== '') {
    const employee = isId(employeeId) ? await findEmployeeRow(executor, customer.id, employeeId) : null;
    if (!employee || !readBool(employee.link_active) || !readBool(employee.employee_active))
      throw Errors.badRequest(
        'SUITE__EVENT_PARTICIPANT_EMPLOYEE_UNKNOWN',
        'participant.employeeId is not an active employee of your company.',
      );
    return employeePerson(employee);
  }
  if (given.firstName !== undefined || given.lastName !== undefined || given.email !== undefined) {
    const email = textField(given.email, 'email');
    if (!EMAIL.test(email)) throw invalidParticipant('participant.email is not an e-mail address.');
    return {
      firstName: textField(given.firstName, 'firstName'),
      lastName: textField(given.lastName, 'lastName'),
      email: normaliseEmail(email),
      employeeId: null,
    };
  }
  if (ctx.employee)
    return {
      firstName: ctx.employee.firstName,
      lastName: ctx.employee.lastName,
      email: normaliseEmail(ctx.employee.email),
      employeeId: ctx.employee.id,
    };
  return {
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: normaliseEmail(customer.email),
    employeeId: null,
  };
}

async function resolveEvent(item: CartLineItem, executor: Executor, lock: boolean): Promise<EventRow> {
  const requested = item.payload.eventId;
  let eventId: string;
  if (requested === undefined || requested === null) {
    const events = await eventIdsOfProduct(executor, item.productId, 2);
    if (events.length !== 1)
      throw Errors.badRequest(
        events.length ? 'SUITE__EVENT_REQUIRED' : 'SUITE__EVENT_NOT_FOUND',
        events.length ? 'Several events use this product; name one in payload.eventId.' : 'No event uses this product.',
      );
    eventId = events[0]!;
  } else if (isId(requested)) eventId = requested;
  else throw Errors.badRequest('SUITE__EVENT_NOT_FOUND', 'payload.eventId is not an event id.');
  const event = lock ? await lockEvent(executor, eventId) : await findEvent(executor, eventId);
  if (!event || event.product_id !== item.productId)
    throw Errors.badRequest('SUITE__EVENT_NOT_FOUND', `The event "${eventId}" is not an event of this product.`);
  return event;
}

/** Tickets already checked in this order transaction, per event: later lines count them as taken seats. */
const orderState = new WeakMap<object, Map<string, { pending: number; emails: Set<string> }>>();

/**
 * Event tickets: one line per participant. On 'add' the event must take registrations (status,
 * deadline) and have a seat or a waiting list; on 'order' the same is checked again with the event
 * row locked, counting the tickets of earlier lines of the same order, so an order that cannot
 * get its seats is refused before it is written. Shapes `payload.participant` and `payload.eventId`.
 */
export function eventTicketProcessor(settings: EventSettingsCache): LineItemProcessor {
  return {
    name: 'event-ticket',
    async process(executor, ctx, item, phase) {
      if (!item.productId || !isTicketRequest(item.payload)) return item;
      if (!ctx.customer) throw Errors.badRequest('SUITE__CUSTOMER_REQUIRED', 'Choose the customer you act for first.');
      if (!ctx.can(EVENT_REGISTER_PERMISSION))
        throw Errors.forbidden(
          `The permission "${EVENT_REGISTER_PERMISSION}" is required to register for events.`,
          'SUITE__PERMISSION_DENIED',
        );
      if (item.quantity !== 1)
        throw Errors.badRequest(
          'SUITE__EVENT_TICKET_QUANTITY',
          'An event ticket is for one participant: add one line per participant (the same participant twice is refused).',
        );
      const event = await resolveEvent(item, executor, phase === 'order');
      if (!settings.current().registrationStatuses.includes(event.status))
        throw Errors.badRequest(
          'SUITE__EVENT_REGISTRATION_CLOSED',
          `The event "${event.name}" does not take registrations.`,
        );
      if (new Date(registrationDeadlineOf(event)) <= now())
        throw Errors.badRequest(
          'SUITE__EVENT_REGISTRATION_DEADLINE_PASSED',
          `Registration for "${event.name}" has closed.`,
        );

      const person = await resolvePerson(ctx, item.payload.participant, executor);
      if (await hasActiveRegistration(executor, event.id, person.email)) throw alreadyRegistered(person.email);

      let pending = 0;
      if (phase === 'order') {
        let perEvent = orderState.get(executor);
        if (!perEvent)
          orderState.set(executor, (perEvent = new Map<string, { pending: number; emails: Set<string> }>()));
        const state = perEvent.get(event.id) ?? { pending: 0, emails: new Set<string>() };
        perEvent.set(event.id, state);
        if (state.emails.has(person.email))
          throw Errors.badRequest(
            'SUITE__EVENT_PARTICIPANT_DUPLICATE',
            `${person.email} has two tickets for "${event.name}" in this order.`,
          );
        pending = state.pending;
        state.pending++;
        state.emails.add(person.email);
      }
      const limit = event.participant_limit === null ? null : readInt(event.participant_limit);
      if (limit !== null && !readBool(event.waiting_list) && (await takenSeats(executor, event.id)) + pending >= limit)
        throw eventFull();

      // In the cart the id is derived from event and e-mail, so the same person twice becomes one line of quantity 2 (refused);
      // the order gives the participant record its own id.
      const id =
        phase === 'add'
          ? createHash('sha256').update(`${event.id}:${person.email}`).digest('hex').slice(0, 32)
          : newId();
      const employee = person.employeeId
        ? { id: person.employeeId, firstName: person.firstName, lastName: person.lastName, email: person.email }
        : null;
      const participant: ParticipantPayload = {
        id,
        email: person.email,
        employee,
        lastName: person.lastName,
        firstName: person.firstName,
        employeeId: person.employeeId ?? '',
        extensions: [],
      };
      return {
        ...item,
        label: `${event.name} – ${person.firstName} ${person.lastName}`,
        payload: { ...item.payload, eventId: event.id, participant },
      };
    },
  };
}
