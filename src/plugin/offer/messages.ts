import type { Actor } from '../../contract/index.js';
import type { Side } from './versions.js';

export interface OfferMessage {
  id: string;
  sequence: number;
  side: Side;
  author: { type: string; id: string | null; name: string };
  body: string;
  offerVersion: number;
  createdAt: string;
}

/** Which side an actor speaks for in an offer's thread. */
export function sideOf(actor: Actor): Side {
  return actor.type === 'salesRepresentative' ? 'sales' : 'customer';
}
