import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { searchByCriteria, type Criteria } from '../../../lib/criteria.js';
import { inTransaction, isDuplicateKeyError, readBool, readInt, writeJson, type Executor } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { nowDb } from '../../../lib/time.js';
import { findEmployeeRow } from '../../employee/index.js';
import {
  PARTICIPANT_COLUMNS,
  PARTICIPANT_CRITERIA,
  changeParticipantStatus,
  employeePerson,
  findEvent,
  findParticipant,
  hasActiveRegistration,
  insertParticipant,
  insertParticipantStatus,
  lockEvent,
  nextWaitingPosition,
  normaliseEmail,
  participantRow,
  participantStatusExists,
  participantsOf,
  seatStatuses,
  takenSeats,
  toStaffParticipantView,
  updateParticipantColumns,
  withHostFields,
  type ParticipantDocument,
  type ParticipantRow,
} from '../repository.js';
import {
  alreadyRegistered,
  eventFull,
  initialParticipantStatus,
  isActiveParticipantStatus,
  participantTransition,
} from '../states.js';
import { promoteWaiting } from './waiting-list.js';

export interface ParticipantInput {
  /** The customer by id, or by its login e-mail address (`customerEmail`, the staff page's form); one of them. */
  customerId?: string;
  customerEmail?: string;
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

export async function searchParticipants(host: HostRuntime, eventId: string, criteria: Criteria) {
  if (!(await findEvent(host.db, eventId))) throw Errors.notFound('Event', eventId);
  const base = participantsOf(host.db, { eventId });
  const page = await searchByCriteria<ParticipantRow>(base, criteria, PARTICIPANT_CRITERIA, (q) =>
    q.select(PARTICIPANT_COLUMNS),
  );
  return {
    total: page.total,
    data: (await withHostFields(host, host.db, page.rows)).map(toStaffParticipantView),
    nextCursor: page.nextCursor,
  };
}

export async function participantView(host: HostRuntime, executor: Executor, id: string) {
  const row = await findParticipant(host, executor, id);
  if (!row) throw Errors.notFound('Participant', id);
  return toStaffParticipantView(row);
}

export async function assertKnownStatus(executor: Executor, status: string): Promise<void> {
  if (!(await participantStatusExists(executor, status)))
    throw Errors.badRequest('SUITE__EVENT_PARTICIPANT_STATUS_UNKNOWN', `There is no participant status "${status}".`, {
      pointer: '/status',
    });
}

/** The person a manual registration names: an employee of the customer, a person given by name, or the customer's own contact. */
async function customerFor(host: HostRuntime, executor: Executor, input: ParticipantInput) {
  if ((input.customerId === undefined) === (input.customerEmail === undefined))
    throw Errors.badRequest('SUITE__INVALID_INPUT', 'Give either customerId or customerEmail.', {
      pointer: input.customerId === undefined ? '/customerId' : '/customerEmail',
    });
  if (input.customerId !== undefined) {
    const customer = await host.customers.get(executor, input.customerId);
    if (!customer)
      throw Errors.badRequest(
        'SUITE__EVENT_CUSTOMER_NOT_FOUND',
        `There is no customer with id "${input.customerId}".`,
        {
          pointer: '/customerId',
        },
      );
    return customer;
  }
  const ref = await host.customers.findByEmail(executor, input.customerEmail!);
  const customer = ref ? await host.customers.get(executor, ref.id) : null;
  if (!customer)
    throw Errors.badRequest('SUITE__EVENT_CUSTOMER_NOT_FOUND', 'There is no customer with this e-mail address.', {
      pointer: '/customerEmail',
    });
  return customer;
}

async function personFor(
  host: HostRuntime,
  executor: Executor,
  input: ParticipantInput,
): Promise<Person & { customerId: string }> {
  const customer = await customerFor(host, executor, input);
  return { customerId: customer.id, ...(await personOf(executor, customer, input)) };
}

async function personOf(
  executor: Executor,
  customer: NonNullable<Awaited<ReturnType<HostRuntime['customers']['get']>>>,
  input: ParticipantInput,
): Promise<Person> {
  if (input.employeeId) {
    const employee = await findEmployeeRow(executor, customer.id, input.employeeId);
    if (!employee || !readBool(employee.link_active) || !readBool(employee.employee_active))
      throw Errors.badRequest(
        'SUITE__EVENT_PARTICIPANT_EMPLOYEE_UNKNOWN',
        'The employee is not an active employee of this customer.',
        { pointer: '/employeeId' },
      );
    return employeePerson(employee);
  }
  const named = [input.firstName, input.lastName, input.email];
  if (named.some((v) => v !== undefined)) {
    if (named.some((v) => v === undefined))
      throw Errors.badRequest(
        'SUITE__EVENT_PARTICIPANT_INCOMPLETE',
        'Give firstName, lastName and email of the participant, or an employeeId.',
        {
          pointer: input.firstName === undefined ? '/firstName' : input.lastName === undefined ? '/lastName' : '/email',
        },
      );
    return {
      firstName: input.firstName!.trim(),
      lastName: input.lastName!.trim(),
      email: normaliseEmail(input.email!),
      employeeId: null,
    };
  }
  return {
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: normaliseEmail(customer.email),
    employeeId: null,
  };
}

/** Staff register someone: deadline and event status do not apply, the limit does. */
export async function addParticipant(host: HostRuntime, ctx: StoreContext, eventId: string, input: ParticipantInput) {
  return inTransaction(host.db, async (trx) => {
    const event = await lockEvent(trx, eventId);
    if (!event) throw Errors.notFound('Event', eventId);
    const person = await personFor(host, trx, input);
    if (await hasActiveRegistration(trx, eventId, person.email)) throw alreadyRegistered(person.email);
    const limit = event.participant_limit === null ? null : readInt(event.participant_limit);
    const full = limit !== null && (await takenSeats(trx, eventId)) >= limit;
    let status: string;
    if (input.status !== undefined) {
      await assertKnownStatus(trx, input.status);
      if (participantTransition(null, input.status, await seatStatuses(trx)).needsFreeSeat && full) throw eventFull();
      status = input.status;
    } else status = initialParticipantStatus(full, readBool(event.waiting_list));
    const id = newId();
    await insertParticipant(trx, {
      id,
      eventId,
      customerId: person.customerId,
      employeeId: person.employeeId,
      firstName: person.firstName,
      lastName: person.lastName,
      email: person.email,
      status,
      waitingPosition: status === 'waiting' ? await nextWaitingPosition(trx, eventId) : null,
      notes: input.notes ?? null,
      createdBy: { type: ctx.actor.type, id: ctx.actor.id },
    });
    return participantView(host, trx, id);
  });
}

export async function updateParticipant(host: HostRuntime, id: string, patch: ParticipantPatch) {
  return inTransaction(host.db, async (trx) => {
    const existing = await participantRow(trx, id);
    if (!existing) throw Errors.notFound('Participant', id);
    const columns: Record<string, unknown> = { updated_at: nowDb() };
    if (patch.firstName !== undefined) columns.first_name = patch.firstName.trim();
    if (patch.lastName !== undefined) columns.last_name = patch.lastName.trim();
    if (patch.notes !== undefined) columns.notes = patch.notes;
    if (patch.documents !== undefined)
      columns.documents = writeJson(
        patch.documents.map((d): ParticipantDocument => ({
          name: d.name.trim(),
          url: d.url ?? null,
          note: d.note ?? null,
        })),
      );
    if (patch.email !== undefined) {
      await lockEvent(trx, existing.event_id);
      if (
        isActiveParticipantStatus(existing.status) &&
        (await hasActiveRegistration(trx, existing.event_id, patch.email, id))
      )
        throw alreadyRegistered(patch.email);
      columns.email = normaliseEmail(patch.email);
    }
    await updateParticipantColumns(trx, id, columns);
    return participantView(host, trx, id);
  });
}

/** Staff set any known status; states.ts says what the change needs (a free seat, a unique e-mail) and frees. */
export async function setParticipantStatus(host: HostRuntime, id: string, status: string) {
  return inTransaction(host.db, async (trx) => {
    const before = await participantRow(trx, id);
    if (!before) throw Errors.notFound('Participant', id);
    const event = await lockEvent(trx, before.event_id);
    const current = await participantRow(trx, id);
    if (!event || !current) throw Errors.notFound('Participant', id);
    await assertKnownStatus(trx, status);
    if (current.status === status) return participantView(host, trx, id);
    const transition = participantTransition(current.status, status, await seatStatuses(trx));
    const limit = event.participant_limit === null ? null : readInt(event.participant_limit);
    if (transition.needsFreeSeat && limit !== null && (await takenSeats(trx, event.id)) >= limit) throw eventFull();
    if (transition.needsUniqueEmail && (await hasActiveRegistration(trx, event.id, current.email, id)))
      throw alreadyRegistered(current.email);
    const waitingPosition = status === 'waiting' ? await nextWaitingPosition(trx, event.id) : null;
    if ((await changeParticipantStatus(trx, id, current.status, status, waitingPosition)) !== 1)
      throw Errors.conflict();
    if (transition.freesSeat) await promoteWaiting(host, trx, event.id);
    return participantView(host, trx, id);
  });
}

/** Operators add participant statuses (Admin API); they never hold a seat unless flagged. */
export async function addParticipantStatus(
  host: HostRuntime,
  input: { technicalName: string; name: string; occupiesSeat?: boolean; position?: number },
) {
  const status = {
    technicalName: input.technicalName,
    name: input.name.trim(),
    occupiesSeat: input.occupiesSeat ?? false,
    position: input.position ?? 100,
  };
  try {
    await insertParticipantStatus(host.db, status);
  } catch (error) {
    if (isDuplicateKeyError(error))
      throw Errors.badRequest(
        'SUITE__EVENT_PARTICIPANT_STATUS_EXISTS',
        `The status "${input.technicalName}" exists already.`,
        { pointer: '/technicalName' },
      );
    throw error;
  }
  return {
    technicalName: status.technicalName,
    name: status.name,
    occupiesSeat: status.occupiesSeat,
    system: false,
    position: status.position,
  };
}
