import type { StoreContext, StorefrontPage } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { isId } from '../../../lib/ids.js';
import { formErrors, type Form, type PageResult } from '../../employee/index.js';
import type { OfferView } from '../views.js';
import { negotiationData, type OfferApi } from './negotiation.js';

/** What the offer pages share: paths, notices, who decides and who prices, and the detail page the forms show again. */

export const LIST_PATH = '/account/offers';
export const detailPath = (id: string) => `/account/offers/${id}`;
const ORDER_PERMISSION = 'orders.create';
/** Asking for an offer and for more time on one: the Store API routes' key. */
export const REQUEST_PERMISSION = 'offer.request';

/** What a redirect after a form may announce; nothing from the query string is echoed. */
export const NOTICES: Record<string, string> = {
  accepted: 'You accepted the offer. The order was placed.',
  declined: 'You declined the offer.',
  'extension-requested': 'We asked your sales representative for more time.',
  priced: 'The offer was saved as a draft. Send it when it is ready.',
  sent: 'The offer was sent to the customer with the PDF attached.',
  requested: 'You asked for an offer. Your sales representative prices it and sends it to you.',
  'message-sent': 'Your message was sent.',
  'options-saved': 'Your choice of options was saved as a new version.',
};

export function comment(form: Form): string | null {
  const value = typeof form.comment === 'string' ? form.comment.trim() : '';
  return value === '' ? null : value;
}

/** Only the customer and its employees decide offers; sales representatives price and send them here. */
export const CUSTOMER_SIDE: StorefrontPage['actors'] = ['customer', 'employee'];
export const SALES_SIDE: StorefrontPage['actors'] = ['salesRepresentative'];
/** For what a page shows (its forms); the forms' pages declare the same actors, so the pipeline refuses the others. */
export const decidesOffers = (ctx: StoreContext) => ctx.actor.type === 'customer' || ctx.actor.type === 'employee';
export const pricesOffers = (ctx: StoreContext) => ctx.actor.type === 'salesRepresentative';

export const roundTo = (value: number, precision: number) => Math.round(value * 10 ** precision) / 10 ** precision;

export const linesOf = (offer: OfferView) => offer.lineItems;

/** The date part (YYYY-MM-DD) of a time in a time zone, for a date input. */
function dateInZone(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone: timeZone || 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date(iso));
  } catch {
    return iso.slice(0, 10);
  }
}

/** What a detail page may show besides the offer: a refusal, a notice, the pricing form as typed. */
export type DetailExtra = { error?: string; notice?: string | null; form?: Form };

/** The offer's detail page, read through the declared route; the forms' pages show it again on a refusal. */
export interface OfferDetail {
  read: (ctx: StoreContext, id: string) => Promise<OfferView>;
  detailPage: (ctx: StoreContext, id: string, extra?: DetailExtra, status?: number) => Promise<PageResult>;
  act: (ctx: StoreContext, id: string, work: () => Promise<unknown>, done: string) => Promise<PageResult>;
}

export function offerDetail(api: OfferApi): OfferDetail {
  const { call, routes } = api;
  const read = (ctx: StoreContext, id: string) => {
    if (!isId(id)) throw Errors.notFound('Offer', id);
    return call(ctx, routes.readOffer, { params: { id } });
  };

  async function detailPage(
    ctx: StoreContext,
    id: string,
    extra: { error?: string; notice?: string | null; form?: Form } = {},
    status = 200,
  ): Promise<PageResult> {
    const offer = await read(ctx, id);
    const customerSide = decidesOffers(ctx);
    const salesSide = pricesOffers(ctx) && offer.state.allowsSalesEdit;
    const precision = ctx.salesChannel.currencyPrecision;
    const typed = extra.form ?? {};
    const typedText = (name: string, fallback: string) => (typeof typed[name] === 'string' ? typed[name] : fallback);
    return {
      template: 'offer-detail',
      status,
      data: {
        title: `Offer ${offer.offerNumber}`,
        offer: {
          ...offer,
          documents: offer.documents.map((d) => ({ ...d, url: `${detailPath(offer.id)}/document/${d.id}` })),
        },
        canAccept: customerSide && offer.state.allowsAccept,
        mayOrder: ctx.can(ORDER_PERMISSION),
        canDecline: customerSide && offer.state.allowsDecline,
        canRequestExtension: customerSide && offer.state.allowsExtensionRequest && ctx.can(REQUEST_PERMISSION),
        salesView: pricesOffers(ctx),
        canPrice: salesSide,
        canSend: salesSide,
        pricing: salesSide
          ? {
              subject: typedText('subject', offer.subject),
              salesComment: typedText('salesComment', offer.salesComment ?? ''),
              validUntil: typedText('validUntil', dateInZone(offer.validUntil, ctx.salesChannel.timeZone)),
              lines: linesOf(offer).map((line, index) => ({
                id: line.id,
                position: index + 1,
                label: line.label,
                productNumber: line.productNumber,
                quantity: typedText(`quantity-${line.id}`, String(line.quantity)),
                listPrice: line.listPrice,
                price: typedText(`price-${line.id}`, Number(line.unitPrice).toFixed(precision)),
                discount: typedText(`discount-${line.id}`, ''),
                currentDiscount:
                  Number(line.listPrice) > 0
                    ? roundTo((1 - Number(line.unitPrice) / Number(line.listPrice)) * 100, 2)
                    : 0,
                comment: typedText(`comment-${line.id}`, line.comment ?? ''),
                remove: typed[`remove-${line.id}`] !== undefined,
              })),
              sendsTo: offer.requestedBy.email,
              wasSent: offer.sentAt !== null,
            }
          : null,
        timeZone: ctx.salesChannel.timeZone,
        error: extra.error ?? null,
        notice: extra.notice ?? null,
        listUrl: LIST_PATH,
        negotiation: await negotiationData(api, ctx, offer, customerSide),
      },
    };
  }

  /** Runs a form's action; a 400 shows the detail page again with the reason, anything else propagates. */
  async function act(ctx: StoreContext, id: string, work: () => Promise<unknown>, done: string): Promise<PageResult> {
    if (!isId(id)) throw Errors.notFound('Offer', id);
    const result = await formErrors(work);
    if ('error' in result) return detailPage(ctx, id, { error: result.error.message }, 400);
    return { redirect: `${detailPath(id)}?done=${done}` };
  }

  return { read, detailPage, act };
}
