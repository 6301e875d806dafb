import type { HostRuntime, SalesChannel, StoreContext } from '../../../contract/index.js';
import { inTransaction, readInt, type Trx } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { representativeOfCustomer } from '../../sales-representative/index.js';
import { declaredRepresentative } from '../../declared.js';
import { MAIL, offerMailData } from '../mail.js';
import { sideOf, type OfferMessage } from '../messages.js';
import { basisPointsOf, discountedUnitNet } from '../pricing.js';
import {
  effectiveStatus,
  findOffer,
  insertMessage,
  offerLines,
  updateOfferLine,
  writeTotals,
  type NewOfferLine,
  type OfferRow,
} from '../repository.js';
import { OFFER_TRANSITIONS } from '../states.js';
import { sealVersion, versionForChange } from '../versions.js';
import type { OfferView } from '../views.js';
import { lineTotal, minorOf, requireCustomerSide, viewOffer, visibleOffer } from './access.js';
import { appendPositions } from './sales-edit.js';
import { assertAllowedQuantities } from '../../quantity-rule/index.js';

export interface PositionInput {
  kind: 'text' | 'heading';
  label: string;
  quantity?: number;
  unitPrice?: number;
  taxRate?: number;
  discount?: number;
  optional?: boolean;
  comment?: string | null;
}

/** A representative adds free-text positions (a service, freight) or headings. */
export async function addPositions(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  positions: PositionInput[],
): Promise<OfferView> {
  const rep = declaredRepresentative(ctx);
  const precision = ctx.salesChannel.currencyPrecision;
  const lines: NewOfferLine[] = positions.map((position, index) => {
    const pointer = `/positions/${index}`;
    if (position.kind === 'heading') {
      const priced = (['quantity', 'unitPrice', 'taxRate', 'discount', 'optional'] as const).find(
        (field) => position[field] !== undefined,
      );
      if (priced)
        throw Errors.badRequest(
          'SUITE__OFFER_HEADING_NOT_PRICED',
          'A heading has no price, quantity, tax, discount or option.',
          { pointer: `${pointer}/${priced}` },
        );
      return {
        productId: null,
        productNumber: '',
        label: position.label,
        quantity: 0,
        unitNet: 0,
        taxRateBp: 0,
        comment: position.comment ?? null,
        sourceLineItemId: null,
        payload: {},
        type: 'heading',
        kind: 'heading',
      };
    }
    if (position.unitPrice === undefined)
      throw Errors.badRequest('SUITE__OFFER_POSITION_PRICE_REQUIRED', 'A free-text position needs a unit price.', {
        pointer: `${pointer}/unitPrice`,
      });
    if (position.taxRate === undefined)
      throw Errors.badRequest('SUITE__OFFER_POSITION_TAX_REQUIRED', 'A free-text position needs a tax rate.', {
        pointer: `${pointer}/taxRate`,
      });
    const unitNet = minorOf(position.unitPrice, precision, `${pointer}/unitPrice`);
    const quantity = position.quantity ?? 1;
    lineTotal(unitNet, quantity, pointer);
    return {
      productId: null,
      productNumber: '',
      label: position.label,
      quantity,
      unitNet,
      listUnitNet: unitNet,
      baseUnitNet: unitNet,
      discountBp: position.discount === undefined ? 0 : basisPointsOf(position.discount, `${pointer}/discount`),
      taxRateBp: basisPointsOf(position.taxRate, `${pointer}/taxRate`),
      comment: position.comment ?? null,
      sourceLineItemId: null,
      payload: {},
      type: 'custom',
      kind: 'text',
      optional: position.optional ?? false,
    };
  });
  await appendPositions(host, ctx, id, lines, '/positions', rep.id);
  return viewOffer(host, ctx, id);
}

export interface CustomerRevisionInput {
  lineItems: Array<{ id: string; selected?: boolean; quantity?: number }>;
  message?: string | null;
}

/**
 * The customer's changes to the version it was sent: ticking optional positions keeps the offer
 * open (its prices are the representative's), other quantities are a counter-proposal that goes back
 * to the sales side (draft) to be priced and sent again. Either way the changes are the next version,
 * handed over at once.
 */
export async function reviseAsCustomer(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  input: CustomerRevisionInput,
): Promise<OfferView> {
  requireCustomerSide(ctx);
  if (new Set(input.lineItems.map((l) => l.id)).size !== input.lineItems.length)
    throw Errors.badRequest('SUITE__OFFER_LINE_ITEM_CONFLICT', 'Each line item may appear once.', {
      pointer: '/lineItems',
    });
  const changesQuantities = input.lineItems.some((l) => l.quantity !== undefined);
  if (changesQuantities && !ctx.can('offer.request'))
    throw Errors.forbidden(
      'Proposing other quantities asks for a new offer: you are not allowed to ask for offers.',
      'SUITE__OFFER_REQUEST_NOT_ALLOWED',
    );
  await inTransaction(host.db, async (trx) => {
    const offer = await visibleOffer(host, ctx, id, trx, true);
    const status = effectiveStatus(offer);
    if (status !== 'open')
      throw Errors.badRequest(
        'SUITE__OFFER_NOT_REVISABLE',
        `The offer is ${status}; only an open offer can be changed by the customer.`,
      );
    const lines = new Map(((await offerLines(trx, [id])).get(id) ?? []).map((line) => [line.id, line]));
    const discountBp = readInt(offer.discount_bp ?? 0);
    let changed = false;
    for (const [index, change] of input.lineItems.entries()) {
      const pointer = `/lineItems/${index}`;
      const line = lines.get(change.id);
      if (!line)
        throw Errors.badRequest('SUITE__OFFER_LINE_ITEM_NOT_FOUND', `The offer has no line item "${change.id}".`, {
          pointer: `${pointer}/id`,
        });
      if (change.selected !== undefined && !line.optional)
        throw Errors.badRequest(
          'SUITE__OFFER_POSITION_NOT_OPTIONAL',
          'Only optional positions can be ticked or left out.',
          { pointer: `${pointer}/selected` },
        );
      if (change.quantity !== undefined && line.kind === 'heading')
        throw Errors.badRequest('SUITE__OFFER_HEADING_NOT_PRICED', 'A heading has no quantity.', {
          pointer: `${pointer}/quantity`,
        });
      const quantity = change.quantity ?? line.quantity;
      if (change.quantity !== undefined && line.productId)
        await assertAllowedQuantities(trx, [
          { productId: line.productId, quantity, label: line.label, pointer: `${pointer}/quantity` },
        ]);
      const selected = change.selected ?? line.selected;
      if (quantity === line.quantity && selected === line.selected) continue;
      changed = true;
      const unitNet = discountedUnitNet(line.baseUnitNet, line.discountBp, discountBp);
      await updateOfferLine(trx, id, line.id, {
        unitNet,
        quantity,
        totalNet: lineTotal(unitNet, quantity, pointer),
        selected,
      });
    }
    if (!changed)
      throw Errors.badRequest(
        'SUITE__OFFER_NOTHING_CHANGED',
        'Nothing to change: tick an option or propose another quantity.',
        { pointer: '/lineItems' },
      );
    const version = await versionForChange(trx, offer);
    if (changesQuantities) OFFER_TRANSITIONS.assert(status, 'draft');
    await writeTotals(trx, id, { version, ...(changesQuantities ? { status: 'draft' } : {}) });
    await sealVersion(trx, id, 'customer', ctx.actor);
    if (input.message) await postAndNotify(host, trx, (await findOffer(trx, id))!, ctx, input.message);
    else if (changesQuantities) await notifyOtherSide(host, trx, (await findOffer(trx, id))!, ctx, null);
  });
  return viewOffer(host, ctx, id);
}

/** A message in the offer's thread, mailed to the other side. */
export async function postMessage(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  body: string,
): Promise<OfferMessage> {
  const text = body.trim();
  if (!text) throw Errors.badRequest('SUITE__OFFER_MESSAGE_EMPTY', 'Write a message.', { pointer: '/body' });
  return inTransaction(host.db, async (trx) => {
    const offer = await visibleOffer(host, ctx, id, trx, true);
    return postAndNotify(host, trx, offer, ctx, text);
  });
}

async function postAndNotify(
  host: HostRuntime,
  trx: Trx,
  offer: OfferRow,
  ctx: StoreContext,
  body: string,
): Promise<OfferMessage> {
  const message = await insertMessage(trx, {
    offerId: offer.id,
    actor: ctx.actor,
    body,
    offerVersion: readInt(offer.version ?? 1),
  });
  await notifyOtherSide(host, trx, offer, ctx, message);
  return message;
}

/**
 * Mails the other side: a customer's message (or counter-proposal) goes to the customer's
 * representative; the representative's to whoever asked for the offer, the company in copy.
 */
async function notifyOtherSide(
  host: HostRuntime,
  trx: Trx,
  offer: OfferRow,
  ctx: StoreContext,
  message: OfferMessage | null,
): Promise<void> {
  const salesChannel: SalesChannel =
    (await host.customers.salesChannel(trx, offer.sales_channel_id)) ?? ctx.salesChannel;
  const lines = (await offerLines(trx, [offer.id])).get(offer.id) ?? [];
  const data = offerMailData(host, salesChannel, offer, lines, {
    message: message ? { body: message.body, authorName: message.author.name } : null,
    version: readInt(offer.version ?? 1),
    counterProposal: message === null,
  });
  const dedupeKey = message
    ? `offer-message:${message.id}`
    : `offer-revision:${offer.id}:${readInt(offer.version ?? 1)}`;
  if (sideOf(ctx.actor) === 'customer') {
    const representative = await representativeOfCustomer(trx, offer.customer_id);
    if (representative)
      await host.mail.enqueue(trx, {
        template: MAIL.message,
        to: representative.email,
        salesChannelId: salesChannel.id,
        data,
        dedupeKey,
      });
    return;
  }
  const customer = await host.customers.get(trx, offer.customer_id);
  if (!customer) return;
  const onCustomerSide = offer.requested_by_type === 'customer' || offer.requested_by_type === 'employee';
  const to = (onCustomerSide && offer.requested_by_email) || customer.email;
  await host.mail.enqueue(trx, {
    template: MAIL.message,
    to,
    cc: to === customer.email ? [] : [customer.email],
    salesChannelId: salesChannel.id,
    data,
    dedupeKey,
  });
}
