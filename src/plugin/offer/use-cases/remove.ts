import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { inTransaction } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { deleteUnorderedOffer } from '../repository.js';
import { visibleOffer } from './access.js';

/** The sales side deletes an offer; an accepted one belongs to its order. */
export async function removeOffer(host: HostRuntime, ctx: StoreContext, id: string): Promise<void> {
  await inTransaction(host.db, async (trx) => {
    const offer = await visibleOffer(host, ctx, id, trx, true);
    if (offer.status === 'accepted' || offer.order_id)
      throw Errors.badRequest('SUITE__OFFER_ACCEPTED', 'An accepted offer belongs to its order and cannot be deleted.');
    if ((await deleteUnorderedOffer(trx, id, offer.status)) !== 1) throw Errors.conflict();
  });
}
