import type { HostRuntime, PriceLine, SalesChannel, StoreContext } from '../../../contract/index.js';
import { inTransaction, readInt, type Executor, type Trx } from '../../../lib/db.js';
import { isOrdered } from '../pricing.js';
import { Errors } from '../../../lib/errors.js';
import { nowDb } from '../../../lib/time.js';
import { representativeOfCustomer } from '../../sales-representative/index.js';
import { MAIL, offerMailData } from '../mail.js';
import {
  claimAccepted,
  effectiveStatus,
  expireOffer,
  findOffer,
  markDeclined,
  offerLines,
  recordExtensionRequest,
  recordOfferOrder,
  type OfferLine,
  type OfferRow,
} from '../repository.js';
import { type OfferView } from '../views.js';
import { assertExtensionRequestable, EXTENSION_REQUESTABLE, OFFER_TRANSITIONS } from '../states.js';
import { customerOffer, requireCustomerSide, viewOffer } from './access.js';

export const OFFER_ORIGIN = 'offer';

/**
 * Turns the offer into an order at the offered prices. The claim (a conditional update from an
 * acceptable, unexpired state) and the order share one transaction, so concurrent accepts place
 * exactly one order and the losers see the winner's result.
 */
export async function acceptOffer(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  comment: string | null,
  version?: number,
): Promise<OfferView> {
  const customer = requireCustomerSide(ctx);
  if (!ctx.can('orders.create'))
    throw Errors.forbidden(
      'Accepting an offer places an order: you are not allowed to place orders.',
      'SUITE__OFFER_ORDER_NOT_ALLOWED',
    );
  const offer = await customerOffer(host, ctx, id);
  assertCurrentVersion(offer, version);
  if (offer.status === 'accepted') return viewOffer(host, ctx, id);
  await assertDecidable(host.db, offer, 'accepted');
  const addresses = new Set((await host.customers.addresses(host.db, customer.id)).map((a) => a.id));
  const addressOrDefault = (addressId: string | null) => (addressId && addresses.has(addressId) ? addressId : null);

  const claimed = await inTransaction(host.db, async (trx) => {
    if ((await claimAccepted(trx, customer.id, id, OFFER_TRANSITIONS.sourcesOf('accepted'), nowDb(), version)) !== 1)
      return false;
    // Headings and unticked options are not ordered; free-text positions are (without a product).
    const ordered = ((await offerLines(trx, [id])).get(id) ?? []).filter(isOrdered);
    if (ordered.length === 0)
      throw Errors.badRequest('SUITE__OFFER_NOTHING_TO_ORDER', 'The offer has no position to order: tick an option.');
    const lines: PriceLine[] = ordered.map((line: OfferLine) => ({
      lineItemId: line.id,
      productId: line.productId,
      productNumber: line.productNumber,
      label: line.label,
      type: line.type,
      quantity: line.quantity,
      unitNet: line.unitNet,
      totalNet: line.totalNet,
      taxRateBp: line.taxRateBp,
      payload: line.payload,
    }));
    const placed = await host.checkout.placeOrder(trx, ctx, {
      lines,
      billingAddressId: addressOrDefault(offer.billing_address_id),
      shippingAddressId: addressOrDefault(offer.shipping_address_id),
      customerComment: comment ?? offer.customer_comment,
      origin: OFFER_ORIGIN,
      customFields: { offerId: offer.id, offerNumber: offer.offer_number },
    });
    await recordOfferOrder(trx, id, placed);
    const accepted = (await findOffer(trx, id))!;
    await notifyRepresentative(host, trx, accepted, MAIL.accepted, ctx.salesChannel, {
      order: { id: placed.id, number: placed.orderNumber },
      acceptedBy: ctx.actor.name,
    });
    return true;
  });
  if (!claimed) {
    const current = await customerOffer(host, ctx, id);
    assertCurrentVersion(current, version);
    if (current.status !== 'accepted') await refuse(host.db, current, 'accepted');
  }
  return viewOffer(host, ctx, id);
}

/** Accepting names the version the customer saw; any other is stale (409), whatever the status. */
function assertCurrentVersion(offer: OfferRow, version: number | undefined): void {
  const current = readInt(offer.version ?? 1);
  if (version !== undefined && version !== current)
    throw Errors.conflict(
      `Version ${version} of the offer is no longer current: version ${current} is. Read the offer again before accepting.`,
      'SUITE__OFFER_VERSION_STALE',
    );
}

/** The customer declines an undecided offer (or withdraws its request); declining twice answers the declined offer. */
export async function declineOffer(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  comment: string | null,
): Promise<OfferView> {
  const customer = requireCustomerSide(ctx);
  const offer = await customerOffer(host, ctx, id);
  if (offer.status === 'declined') return viewOffer(host, ctx, id);
  await assertDecidable(host.db, offer, 'declined');
  const done = await inTransaction(host.db, async (trx) => {
    if ((await markDeclined(trx, customer.id, id, OFFER_TRANSITIONS.sourcesOf('declined'), comment, nowDb())) !== 1)
      return false;
    await notifyRepresentative(host, trx, (await findOffer(trx, id))!, MAIL.declined, ctx.salesChannel, {
      comment,
      declinedBy: ctx.actor.name,
    });
    return true;
  });
  if (!done) {
    const current = await customerOffer(host, ctx, id);
    if (current.status !== 'declined') await refuse(host.db, current, 'declined');
  }
  return viewOffer(host, ctx, id);
}

/** The customer asks the representative for a longer validity. */
export async function requestExtension(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  comment: string | null,
): Promise<void> {
  const customer = requireCustomerSide(ctx);
  const offer = await customerOffer(host, ctx, id);
  assertExtensionRequestable(effectiveStatus(offer));
  const done = await inTransaction(host.db, async (trx) => {
    if ((await recordExtensionRequest(trx, customer.id, id, EXTENSION_REQUESTABLE, comment, nowDb())) !== 1)
      return false;
    await notifyRepresentative(host, trx, (await findOffer(trx, id))!, MAIL.extensionRequested, ctx.salesChannel, {
      comment,
      requestedBy: ctx.actor.name,
    });
    return true;
  });
  if (!done) assertExtensionRequestable(effectiveStatus(await customerOffer(host, ctx, id)));
}

/**
 * Refuses unless the offer, as the API shows it, may move to `to`. An offer seen as expired before
 * the job wrote it is written expired first, so the refusal and the stored status agree.
 */
async function assertDecidable(executor: Executor, offer: OfferRow, to: 'accepted' | 'declined'): Promise<void> {
  if (!OFFER_TRANSITIONS.allows(effectiveStatus(offer), to)) await refuse(executor, offer, to);
}

/** The refusal, after the conditional write lost (or the table refused). */
async function refuse(executor: Executor, offer: OfferRow, to: 'accepted' | 'declined'): Promise<never> {
  const status = effectiveStatus(offer);
  if (status !== offer.status) await expireOffer(executor, offer.id);
  throw OFFER_TRANSITIONS.refusal(status, to);
}

async function notifyRepresentative(
  host: HostRuntime,
  trx: Trx,
  offer: OfferRow,
  template: string,
  salesChannel: SalesChannel,
  extra: Record<string, unknown>,
): Promise<void> {
  const representative = await representativeOfCustomer(trx, offer.customer_id);
  if (!representative) return;
  const lines = (await offerLines(trx, [offer.id])).get(offer.id) ?? [];
  await host.mail.enqueue(trx, {
    template,
    to: representative.email,
    salesChannelId: salesChannel.id,
    data: offerMailData(host, salesChannel, offer, lines, extra),
  });
}
