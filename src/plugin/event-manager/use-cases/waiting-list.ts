import type { HostRuntime } from '../../../contract/index.js';
import { readInt, type Trx } from '../../../lib/db.js';
import { fromDbTime, now } from '../../../lib/time.js';
import { EVENT_MAIL, eventMailData, salesChannelOfCustomer } from '../mail.js';
import { changeParticipantStatus, firstWaiting, lockEvent, takenSeats } from '../repository.js';
import { PROMOTION } from '../states.js';

/**
 * Gives free seats to the waiting list in order and mails each promoted participant. Runs with the
 * event row locked; a canceled or finished event promotes nobody.
 */
export async function promoteWaiting(host: HostRuntime, trx: Trx, eventId: string): Promise<number> {
  const event = await lockEvent(trx, eventId);
  if (!event || event.status === 'canceled' || new Date(fromDbTime(event.ends_at)!) <= now()) return 0;
  const limit = event.participant_limit === null ? null : readInt(event.participant_limit);
  let taken = await takenSeats(trx, eventId);
  let promoted = 0;
  while (limit === null || taken < limit) {
    const next = await firstWaiting(trx, eventId);
    if (!next) break;
    if ((await changeParticipantStatus(trx, next.id, PROMOTION.from, PROMOTION.to, null)) !== 1) break;
    taken++;
    promoted++;
    const salesChannel = await salesChannelOfCustomer(host, trx, next.customer_id);
    if (!salesChannel) continue;
    await host.mail.enqueue(trx, {
      template: EVENT_MAIL.waitingListPromoted,
      to: next.email,
      salesChannelId: salesChannel.id,
      data: {
        event: await eventMailData(host, trx, salesChannel, event),
        participant: { firstName: next.first_name, lastName: next.last_name, email: next.email },
      },
    });
  }
  return promoted;
}
