import { expect } from 'chai';
import { AppError } from '../../../../src/lib/errors.js';
import {
  initialParticipantStatus,
  participantTransition,
  PROMOTION,
} from '../../../../src/plugin/event-manager/states.js';

// The seeded seat statuses, plus an operator's own status flagged as holding a seat.
const SEATS = ['registered', 'participated', 'not_participated', 'vip'];

describe('event manager: participant transition table', () => {
  it('entering a seat from no seat needs a free seat; moving between seats or out of one does not', () => {
    expect(participantTransition(null, 'registered', SEATS).needsFreeSeat).to.equal(true);
    expect(participantTransition('waiting', 'registered', SEATS).needsFreeSeat).to.equal(true);
    expect(participantTransition('canceled', 'vip', SEATS).needsFreeSeat).to.equal(true);
    expect(participantTransition('registered', 'participated', SEATS).needsFreeSeat).to.equal(false);
    expect(participantTransition('registered', 'canceled', SEATS).needsFreeSeat).to.equal(false);
    expect(participantTransition('excluded', 'waiting', SEATS).needsFreeSeat).to.equal(false);
  });

  it('entering registered or waiting needs a unique e-mail at the event; other statuses do not', () => {
    expect(participantTransition('canceled', 'registered', SEATS).needsUniqueEmail).to.equal(true);
    expect(participantTransition('excluded', 'waiting', SEATS).needsUniqueEmail).to.equal(true);
    expect(participantTransition('registered', 'participated', SEATS).needsUniqueEmail).to.equal(false);
    expect(participantTransition('waiting', 'canceled', SEATS).needsUniqueEmail).to.equal(false);
  });

  it('leaving a seat frees it for the waiting list; entering or keeping one does not', () => {
    expect(participantTransition('registered', 'canceled', SEATS).freesSeat).to.equal(true);
    expect(participantTransition('vip', 'waiting', SEATS).freesSeat).to.equal(true);
    expect(participantTransition('registered', 'participated', SEATS).freesSeat).to.equal(false);
    expect(participantTransition('waiting', 'canceled', SEATS).freesSeat).to.equal(false);
    expect(participantTransition(null, 'registered', SEATS).freesSeat).to.equal(false);
  });

  it('the system only promotes waiting → registered', () => {
    expect(PROMOTION).to.deep.equal({ from: 'waiting', to: 'registered' });
  });

  it('a registration without a status: a seat, else the waiting list, else SUITE__EVENT_FULL', () => {
    expect(initialParticipantStatus(false, false)).to.equal('registered');
    expect(initialParticipantStatus(true, true)).to.equal('waiting');
    let refused: unknown = null;
    try {
      initialParticipantStatus(true, false);
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(AppError);
    expect((refused as AppError).code).to.equal('SUITE__EVENT_FULL');
  });
});
