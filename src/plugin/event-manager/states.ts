import { Errors } from '../../lib/errors.js';
import { ACTIVE_PARTICIPANT_STATUSES } from './repository.js';

export const eventFull = () =>
  Errors.badRequest('SUITE__EVENT_FULL', 'The event has no free seats left and no waiting list.');
export const alreadyRegistered = (email: string) =>
  Errors.badRequest(
    'SUITE__EVENT_PARTICIPANT_ALREADY_REGISTERED',
    `${email} is registered for this event or on its waiting list already.`,
  );

/**
 * Participant statuses are records operators extend (`b2b_event_participant_statuses`, each flagged
 * whether it occupies a seat), so the transition table is declared over what a status means rather
 * than its name: staff may set any known status from any other, under these conditions. This is the
 * one place that says which participant transition is allowed; the use cases check the conditions
 * with the event row locked and write with `UPDATE … WHERE status = <from>`.
 */
export interface ParticipantTransition {
  /** Entering a seat from no seat needs a free seat (else `SUITE__EVENT_FULL`). */
  needsFreeSeat: boolean;
  /** Entering `registered` or `waiting` needs the e-mail not to hold either at the event already (else `…_ALREADY_REGISTERED`). */
  needsUniqueEmail: boolean;
  /** Leaving a seat frees it: the waiting list moves up. */
  freesSeat: boolean;
}

export function participantTransition(
  from: string | null,
  to: string,
  seatStatuses: readonly string[],
): ParticipantTransition {
  const hadSeat = from !== null && seatStatuses.includes(from);
  const getsSeat = seatStatuses.includes(to);
  return {
    needsFreeSeat: getsSeat && !hadSeat,
    needsUniqueEmail: isActiveParticipantStatus(to),
    freesSeat: hadSeat && !getsSeat,
  };
}

/** The only transition the system makes on its own: a freed seat goes to the first of the waiting list. */
export const PROMOTION = { from: 'waiting', to: 'registered' } as const;

/** A registration without a chosen status: a seat while there is one, else the waiting list if the event has one. */
export function initialParticipantStatus(full: boolean, waitingList: boolean): 'registered' | 'waiting' {
  if (!full) return 'registered';
  if (waitingList) return 'waiting';
  throw eventFull();
}

export function isActiveParticipantStatus(status: string): boolean {
  return (ACTIVE_PARTICIPANT_STATUSES as readonly string[]).includes(status);
}
