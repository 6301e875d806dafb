import type { HostRuntime } from '../../contract/index.js';
import { inTransaction } from '../../lib/db.js';
import { addSeconds, now as currentTime, toDbTime } from '../../lib/time.js';
import { EVENT_MAIL, eventMailData, salesChannelOfCustomer } from './mail.js';
import { claimParticipantReminder, findEvent, participantsDueForReminder } from './repository.js';
import type { EventSettingsCache } from './settings.js';

export const EVENT_REMINDER_JOB = 'event-manager.reminders';
export const EVENT_REMINDER_INTERVAL_SECONDS = 300;
const BATCH = 200;

/**
 * Mails every registered participant once, `eventReminderHoursBefore` hours before the event starts.
 * Each participant is claimed by a conditional write of reminder_sent_at in the same transaction as
 * its mail, so two workers (or two processes) never send the same reminder twice.
 */
export async function sendEventReminders(host: HostRuntime, settings: EventSettingsCache): Promise<number> {
  const { reminderHoursBefore } = await settings.load();
  if (reminderHoursBefore <= 0) return 0;
  let sent = 0;
  for (let round = 0; round < 50; round++) {
    const now = currentTime();
    const due = await participantsDueForReminder(
      host.db,
      { after: toDbTime(now), until: toDbTime(addSeconds(now, reminderHoursBefore * 3600)) },
      BATCH,
    );
    if (due.length === 0) break;
    for (const participant of due) {
      const claimed = await inTransaction(host.db, async (trx) => {
        if (!(await claimParticipantReminder(trx, participant.id))) return false;
        const event = (await findEvent(trx, participant.event_id))!;
        const salesChannel = await salesChannelOfCustomer(host, trx, participant.customer_id);
        if (!salesChannel) return false;
        await host.mail.enqueue(trx, {
          template: EVENT_MAIL.reminder,
          to: participant.email,
          salesChannelId: salesChannel.id,
          dedupeKey: `event-reminder:${participant.id}`,
          data: {
            event: await eventMailData(host, trx, salesChannel, event),
            participant: {
              firstName: participant.first_name,
              lastName: participant.last_name,
              email: participant.email,
            },
            hoursBefore: reminderHoursBefore,
          },
        });
        return true;
      });
      if (claimed) sent++;
    }
    if (due.length < BATCH) break;
  }
  return sent;
}

export function registerEventJobs(host: HostRuntime, settings: EventSettingsCache): void {
  host.jobs.register(EVENT_REMINDER_JOB, async () => {
    await sendEventReminders(host, settings);
  });
  host.jobs.schedule(EVENT_REMINDER_JOB, EVENT_REMINDER_INTERVAL_SECONDS);
}
