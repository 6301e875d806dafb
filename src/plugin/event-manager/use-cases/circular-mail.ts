import type { HostRuntime, StoreContext } from '../../../host/contract.js';
import { inTransaction } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { fromDbTime, nowDb } from '../../../lib/time.js';
import { EVENT_MAIL, eventMailData } from '../mail.js';
import { ACTIVE_PARTICIPANT_STATUSES, findCircularMail, findEvent, insertCircularMail, participantsWithStatuses, type CircularMailView } from '../repository.js';
import { assertKnownStatus } from './participants.js';

/**
 * One outbox row per participant, keyed by circular and participant. `circularId` (the storefront
 * form's hidden key) makes a resubmitted form answer the first mailing instead of sending again.
 */
export async function sendCircularMail(
  host: HostRuntime,
  ctx: StoreContext,
  eventId: string,
  input: { subject: string; message: string; statuses?: string[] },
  circularId?: string,
): Promise<CircularMailView> {
  const statuses = input.statuses ?? [...ACTIVE_PARTICIPANT_STATUSES];
  return inTransaction(host.db, async (trx) => {
    const event = await findEvent(trx, eventId);
    if (!event) throw Errors.notFound('Event', eventId);
    if (circularId) {
      const sent = await findCircularMail(trx, circularId, eventId);
      if (sent) return sent;
    }
    for (const status of statuses) await assertKnownStatus(trx, status);
    const participants = await participantsWithStatuses(trx, eventId, statuses);
    const id = circularId ?? newId();
    const createdAt = nowDb();
    const subject = input.subject.trim();
    await insertCircularMail(trx, { id, eventId, subject, message: input.message, statuses, recipientCount: participants.length, sentById: ctx.salesRepresentative?.id ?? null, createdAt });
    const eventData = await eventMailData(host, trx, ctx.salesChannel, event);
    for (const participant of participants) {
      await host.mail.enqueue(trx, {
        template: EVENT_MAIL.circular,
        to: participant.email,
        salesChannelId: ctx.salesChannel.id,
        dedupeKey: `event-circular:${id}:${participant.id}`,
        data: {
          event: eventData,
          subject,
          message: input.message,
          sender: ctx.salesRepresentative?.name ?? ctx.actor.name,
          participant: { firstName: participant.first_name, lastName: participant.last_name, email: participant.email, status: participant.status },
        },
      });
    }
    return { id, eventId, subject, statuses, recipients: participants.length, createdAt: fromDbTime(createdAt)! };
  });
}
