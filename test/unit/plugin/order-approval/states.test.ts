import { expect } from 'chai';
import { AppError } from '../../../../src/lib/errors.js';
import type { ApprovalStatus } from '../../../../src/plugin/order-approval/repository.js';
import { APPROVAL_TRANSITIONS, CHANGEABLE_STATUSES } from '../../../../src/plugin/order-approval/states.js';

const ALL: ApprovalStatus[] = ['pending', 'approved', 'declined', 'ordering', 'ordered'];
const ALLOWED: Array<[ApprovalStatus, ApprovalStatus]> = [
  ['pending', 'approved'],
  ['pending', 'declined'],
  ['approved', 'pending'],
  ['approved', 'ordering'],
  ['ordering', 'ordered'],
];

function refusal(from: ApprovalStatus, to: ApprovalStatus): AppError {
  try {
    APPROVAL_TRANSITIONS.assert(from, to);
  } catch (error) {
    expect(error).to.be.instanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`${from} → ${to} was allowed`);
}

describe('order approval: transition table', () => {
  it('allows exactly the declared transitions', () => {
    for (const from of ALL)
      for (const to of ALL) {
        const declared = ALLOWED.some(([f, t]) => f === from && t === to);
        expect(APPROVAL_TRANSITIONS.allows(from, to), `${from} → ${to}`).to.equal(declared);
        if (declared) expect(() => APPROVAL_TRANSITIONS.assert(from, to)).not.to.throw();
      }
  });

  it('refuses with the route error codes', () => {
    expect(refusal('approved', 'approved').code).to.equal('SUITE__ORDER_APPROVAL_NOT_APPROVABLE');
    expect(refusal('declined', 'declined').code).to.equal('SUITE__ORDER_APPROVAL_NOT_DECLINABLE');
    expect(refusal('ordered', 'approved').code).to.equal('SUITE__ORDER_APPROVAL_NOT_APPROVABLE');
    expect(refusal('pending', 'ordering').code).to.equal('SUITE__ORDER_APPROVAL_NOT_EXECUTABLE');
    expect(refusal('declined', 'ordering').code).to.equal('SUITE__ORDER_APPROVAL_NOT_EXECUTABLE');
    expect(refusal('approved', 'ordered').code).to.equal('SUITE__ORDER_APPROVAL_NOT_EXECUTABLE');
    expect(refusal('ordered', 'pending').code).to.equal('SUITE__ORDER_APPROVAL_NOT_EDITABLE');
    expect(refusal('pending', 'ordering').status).to.equal(400);
  });

  it('the changeable statuses are the ones that can still (re)enter pending', () => {
    for (const status of ALL)
      expect(CHANGEABLE_STATUSES.includes(status), status).to.equal(
        status === 'pending' || APPROVAL_TRANSITIONS.allows(status, 'pending'),
      );
  });

  it('finished approvals go nowhere', () => {
    for (const to of ALL) {
      expect(APPROVAL_TRANSITIONS.allows('declined', to)).to.equal(false);
      expect(APPROVAL_TRANSITIONS.allows('ordered', to)).to.equal(false);
    }
  });
});
