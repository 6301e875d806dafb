import { Errors } from '../../lib/errors.js';
import { defineTransitions } from '../../lib/transitions.js';

export const OFFER_STATUSES = ['requested', 'draft', 'open', 'accepted', 'declined', 'expired'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/**
 * Which status changes an offer allows. Any sales change (prices, lines, validity, added products)
 * makes it the sales side's `draft`; mailing it `open`s it (again); the customer accepts an open one
 * or declines any undecided one; an open one past its validity is `expired`.
 * The records of `b2b_offer_states` (listed by `POST /offer-states`) publish the same rules as flags;
 * a test keeps them equal to this table.
 */
export const OFFER_TRANSITIONS = defineTransitions<OfferStatus>(
  {
    requested: ['draft', 'open', 'declined'],
    draft: ['draft', 'open', 'declined'],
    open: ['draft', 'open', 'accepted', 'declined', 'expired'],
    expired: ['draft', 'open', 'declined'],
    accepted: [],
    declined: [],
  },
  (from, to) => {
    switch (to) {
      case 'accepted':
        if (from === 'expired')
          return Errors.badRequest('SUITE__OFFER_EXPIRED', 'The offer has expired; ask for a validity extension.');
        return Errors.badRequest('SUITE__OFFER_NOT_ACCEPTABLE', `The offer is ${from}; it cannot be accepted.`);
      case 'declined':
        return Errors.badRequest('SUITE__OFFER_NOT_DECLINABLE', `The offer is ${from}; it cannot be declined.`);
      default:
        return Errors.badRequest('SUITE__OFFER_NOT_EDITABLE', `The offer is ${from}; it can no longer be changed.`);
    }
  },
);

/** Statuses in which the customer may ask for more time (no status change: the representative decides). */
export const EXTENSION_REQUESTABLE: readonly OfferStatus[] = ['open', 'expired'];

export function assertExtensionRequestable(status: OfferStatus): void {
  if (!EXTENSION_REQUESTABLE.includes(status))
    throw Errors.badRequest(
      'SUITE__OFFER_EXTENSION_NOT_POSSIBLE',
      `The offer is ${status}; its validity cannot be extended.`,
    );
}

/** The flags of a `b2b_offer_states` record, derived from the table (what the published list must say). */
export function stateFlags(status: OfferStatus) {
  return {
    allowsSalesEdit: OFFER_TRANSITIONS.allows(status, 'draft'),
    allowsAccept: OFFER_TRANSITIONS.allows(status, 'accepted'),
    allowsDecline: OFFER_TRANSITIONS.allows(status, 'declined'),
    allowsExtensionRequest: EXTENSION_REQUESTABLE.includes(status),
    isFinal: OFFER_TRANSITIONS.table[status].length === 0,
  };
}
