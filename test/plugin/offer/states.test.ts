import { expect } from 'chai';
import { AppError } from '../../../src/lib/errors.js';
import { allStates } from '../../../src/plugin/offer/repository.js';
import { OFFER_STATUSES, OFFER_TRANSITIONS, stateFlags, type OfferStatus } from '../../../src/plugin/offer/states.js';
import { getShop } from '../../helpers/shop.js';
import { startShop } from './helpers.js';

const ALLOWED: Array<[OfferStatus, OfferStatus]> = [
  ['requested', 'draft'],
  ['requested', 'open'],
  ['requested', 'declined'],
  ['draft', 'draft'],
  ['draft', 'open'],
  ['draft', 'declined'],
  ['open', 'draft'],
  ['open', 'open'],
  ['open', 'accepted'],
  ['open', 'declined'],
  ['open', 'expired'],
  ['expired', 'draft'],
  ['expired', 'open'],
  ['expired', 'declined'],
];

function refusal(from: OfferStatus, to: OfferStatus): AppError {
  try {
    OFFER_TRANSITIONS.assert(from, to);
  } catch (error) {
    expect(error).to.be.instanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`${from} → ${to} was allowed`);
}

describe('offers: transition table', () => {
  before(startShop);

  it('allows exactly the declared transitions', () => {
    for (const from of OFFER_STATUSES)
      for (const to of OFFER_STATUSES) {
        const declared = ALLOWED.some(([f, t]) => f === from && t === to);
        expect(OFFER_TRANSITIONS.allows(from, to), `${from} → ${to}`).to.equal(declared);
      }
  });

  it('refuses with the route error codes', () => {
    expect(refusal('requested', 'accepted').code).to.equal('SUITE__OFFER_NOT_ACCEPTABLE');
    expect(refusal('declined', 'accepted').code).to.equal('SUITE__OFFER_NOT_ACCEPTABLE');
    expect(refusal('expired', 'accepted').code).to.equal('SUITE__OFFER_EXPIRED');
    expect(refusal('accepted', 'declined').code).to.equal('SUITE__OFFER_NOT_DECLINABLE');
    expect(refusal('declined', 'declined').code).to.equal('SUITE__OFFER_NOT_DECLINABLE');
    expect(refusal('accepted', 'draft').code).to.equal('SUITE__OFFER_NOT_EDITABLE');
    expect(refusal('declined', 'open').code).to.equal('SUITE__OFFER_NOT_EDITABLE');
  });

  it('the published state records say what the table says', async () => {
    const published = await allStates((await getShop()).db);
    expect([...published.keys()].sort()).to.deep.equal([...OFFER_STATUSES].sort());
    for (const status of OFFER_STATUSES) {
      const { allowsSalesEdit, allowsAccept, allowsDecline, allowsExtensionRequest, isFinal } = published.get(status)!;
      expect({ allowsSalesEdit, allowsAccept, allowsDecline, allowsExtensionRequest, isFinal }, status).to.deep.equal(
        stateFlags(status),
      );
    }
  });
});
