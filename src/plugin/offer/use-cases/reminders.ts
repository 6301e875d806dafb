import type { HostRuntime } from '../../../contract/index.js';
import { inTransaction, readInt } from '../../../lib/db.js';
import { addSeconds, now as currentTime, nowDb, toDbTime } from '../../../lib/time.js';
import { MAIL, offerMailData } from '../mail.js';
import { claimExpiryReminder, findOffer, offerLines, offersToRemindOfExpiry, type OfferRow } from '../repository.js';

/**
 * The scheduled job: mails the customer once per validity of an open offer, `offerExpiryReminderDays`
 * before it ends. The claim is a conditional write of the validity reminded of, in the transaction
 * that queues the mail, so two workers (or two processes) send it once; a new validity (an extension)
 * is reminded of again.
 */
export async function remindExpiring(host: HostRuntime, limit = 200): Promise<number> {
  const days = Number(await host.config.get<number>('offerExpiryReminderDays'));
  if (!days) return 0;
  const now = nowDb();
  const horizon = toDbTime(addSeconds(currentTime(), days * 86400));
  const due = await offersToRemindOfExpiry(host.db, now, horizon, limit);
  let sent = 0;
  for (const row of due) {
    sent += await inTransaction(host.db, async (trx) => {
      const claimed = await claimExpiryReminder(trx, row.id, row.valid_until);
      if (claimed !== 1) return 0;
      await mailReminder(host, trx, (await findOffer(trx, row.id))!);
      return 1;
    });
  }
  return sent;
}

async function mailReminder(host: HostRuntime, trx: Parameters<typeof findOffer>[0], offer: OfferRow): Promise<void> {
  const customer = await host.customers.get(trx, offer.customer_id);
  const salesChannel = await host.customers.salesChannel(trx, offer.sales_channel_id);
  if (!customer || !salesChannel) return;
  const onCustomerSide = offer.requested_by_type === 'customer' || offer.requested_by_type === 'employee';
  const to = (onCustomerSide && offer.requested_by_email) || customer.email;
  const lines = (await offerLines(trx, [offer.id])).get(offer.id) ?? [];
  await host.mail.enqueue(trx, {
    template: MAIL.expiring,
    to,
    cc: to === customer.email ? [] : [customer.email],
    salesChannelId: salesChannel.id,
    data: offerMailData(host, salesChannel, offer, lines, {
      version: readInt(offer.version ?? 1),
      recipientName: onCustomerSide ? offer.requested_by_name : `${customer.firstName} ${customer.lastName}`.trim(),
    }),
    dedupeKey: `offer-expiring:${offer.id}:${offer.valid_until}`,
  });
}
