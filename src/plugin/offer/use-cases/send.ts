import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { inTransaction } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { addSeconds, now as currentTime, toDbTime } from '../../../lib/time.js';
import { createOfferDocument } from '../documents.js';
import { MAIL, offerMailData } from '../mail.js';
import { effectiveStatus, findOffer, markSent, offerLines } from '../repository.js';
import { OFFER_TRANSITIONS } from '../states.js';
import { editableOffer } from './sales-edit.js';
import { sealVersion } from '../versions.js';
import { declaredRepresentative } from '../../declared.js';

/** Renders the PDF, queues the mail with it attached and opens the offer for the customer's decision. */
export async function sendOffer(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  message: string | null,
): Promise<{ documentId: string; recipient: string }> {
  const rep = declaredRepresentative(ctx);
  const defaultDays = Number(await host.config.get<number>('offerDefaultValidityDays')) || 30;
  return inTransaction(host.db, async (trx) => {
    const before = await editableOffer(host, ctx, id, trx);
    OFFER_TRANSITIONS.assert(effectiveStatus(before), 'open');
    const now = currentTime();
    let validUntil = before.valid_until;
    if (validUntil === null) validUntil = toDbTime(addSeconds(now, defaultDays * 86400));
    else if (validUntil <= toDbTime(now))
      throw Errors.badRequest(
        'SUITE__OFFER_VALIDITY_PAST',
        'The offer’s validity has ended: set a new validUntil before sending it again.',
      );
    if ((await markSent(trx, id, before.status, { validUntil, sentAt: toDbTime(now), representativeId: rep.id })) !== 1)
      throw Errors.conflict();
    const offer = (await findOffer(trx, id))!;
    const lines = (await offerLines(trx, [id])).get(id) ?? [];
    const customer = await host.customers.get(trx, offer.customer_id);
    if (!customer) throw Errors.notFound('Offer', id);
    const salesChannel = (await host.customers.salesChannel(trx, offer.sales_channel_id)) ?? ctx.salesChannel;
    const version = await sealVersion(trx, id, 'sales', ctx.actor);
    const document = await createOfferDocument(host, trx, {
      offer,
      lines,
      customer,
      salesChannel,
      representativeName: rep.name,
      version,
    });
    const onCustomerSide = offer.requested_by_type === 'customer' || offer.requested_by_type === 'employee';
    const to = (onCustomerSide && offer.requested_by_email) || customer.email;
    await host.mail.enqueue(trx, {
      template: MAIL.sent,
      to,
      cc: to === customer.email ? [] : [customer.email],
      salesChannelId: salesChannel.id,
      data: offerMailData(host, salesChannel, offer, lines, {
        message,
        representative: { name: rep.name, email: rep.email },
        version,
        recipientName: onCustomerSide ? offer.requested_by_name : `${customer.firstName} ${customer.lastName}`.trim(),
      }),
      attachments: [{ filename: document.fileName, documentId: document.id }],
    });
    return { documentId: document.id, recipient: to };
  });
}
