import type { HostRuntime, SalesChannel, StoreContext } from '../../../contract/index.js';
import { inTransaction } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { fromDbTime, nowDb } from '../../../lib/time.js';
import { EVENT_MAIL, eventMailData, salesChannelOfCustomer } from '../mail.js';
import {
  ACTIVE_PARTICIPANT_STATUSES,
  findEvent,
  insertCircularMail,
  participantsWithStatuses,
  type CircularMailView,
} from '../repository.js';
import { assertKnownStatus } from './participants.js';

/**
 * Who sends a circular: sales staff in the storefront (their sales channel, their name), or the
 * operator in the console (`salesChannel: null`: each participant's mail goes through the sales
 * channel of the participant's customer).
 */
export interface CircularSender {
  salesChannel: SalesChannel | null;
  name: string;
  salesRepresentativeId: string | null;
}

export const staffSender = (ctx: StoreContext): CircularSender => ({
  salesChannel: ctx.salesChannel,
  name: ctx.salesRepresentative?.name ?? ctx.actor.name,
  salesRepresentativeId: ctx.salesRepresentative?.id ?? null,
});

/**
 * One outbox row per participant, keyed by circular and participant. A resubmitted request sends
 * nothing again through the route's Idempotency-Key (the storefront form passes its hidden token).
 */
export async function sendCircularMail(
  host: HostRuntime,
  sender: CircularSender,
  eventId: string,
  input: { subject: string; message: string; statuses?: string[] },
): Promise<CircularMailView> {
  const statuses = input.statuses ?? [...ACTIVE_PARTICIPANT_STATUSES];
  return inTransaction(host.db, async (trx) => {
    const event = await findEvent(trx, eventId);
    if (!event) throw Errors.notFound('Event', eventId);
    for (const status of statuses) await assertKnownStatus(trx, status);
    const participants = await participantsWithStatuses(trx, eventId, statuses);
    const id = newId();
    const createdAt = nowDb();
    const subject = input.subject.trim();
    await insertCircularMail(trx, {
      id,
      eventId,
      subject,
      message: input.message,
      statuses,
      recipientCount: participants.length,
      sentById: sender.salesRepresentativeId,
      createdAt,
    });
    const channels = new Map<string, SalesChannel | null>();
    const eventDataByChannel = new Map<string, Awaited<ReturnType<typeof eventMailData>>>();
    for (const participant of participants) {
      if (!sender.salesChannel && !channels.has(participant.customer_id))
        channels.set(participant.customer_id, await salesChannelOfCustomer(host, trx, participant.customer_id));
      const salesChannel = sender.salesChannel ?? channels.get(participant.customer_id);
      if (!salesChannel) continue;
      if (!eventDataByChannel.has(salesChannel.id))
        eventDataByChannel.set(salesChannel.id, await eventMailData(host, trx, salesChannel, event));
      const eventData = eventDataByChannel.get(salesChannel.id)!;
      await host.mail.enqueue(trx, {
        template: EVENT_MAIL.circular,
        to: participant.email,
        salesChannelId: salesChannel.id,
        dedupeKey: `event-circular:${id}:${participant.id}`,
        data: {
          event: eventData,
          subject,
          message: input.message,
          sender: sender.name,
          participant: {
            firstName: participant.first_name,
            lastName: participant.last_name,
            email: participant.email,
            status: participant.status,
          },
        },
      });
    }
    return { id, eventId, subject, statuses, recipients: participants.length, createdAt: fromDbTime(createdAt)! };
  });
}
