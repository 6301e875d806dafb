import type { HostRuntime, StoreContext, StorefrontPage } from '../../../host/contract.js';
import { Errors } from '../../../lib/errors.js';
import { isId } from '../../../lib/ids.js';
import type { Reply } from '../../../lib/route-call.js';
import { formErrors, type Form, type PageResult } from '../../employee/storefront/forms.js';
import type { OfferView } from '../views.js';
import type { OfferUseCases } from '../use-cases/index.js';
import { negotiationData, negotiationPages, offerCaller } from './negotiation.js';

const LIST_LIMIT = 100;
const LIST_PATH = '/account/offers';
/** Asking for an offer for the cart; the cart links it for callers with `offer.request`. */
export const OFFER_REQUEST_PATH = '/account/offers/request';
const detailPath = (id: string) => `/account/offers/${id}`;
const ORDER_PERMISSION = 'orders.create';
/** Asking for an offer and for more time on one: the Store API routes' key. */
const REQUEST_PERMISSION = 'offer.request';

/** What a redirect after a form may announce; nothing from the query string is echoed. */
const NOTICES: Record<string, string> = {
  accepted: 'You accepted the offer. The order was placed.',
  declined: 'You declined the offer.',
  'extension-requested': 'We asked your sales representative for more time.',
  priced: 'The offer was saved as a draft. Send it when it is ready.',
  sent: 'The offer was sent to the customer with the PDF attached.',
  requested: 'You asked for an offer. Your sales representative prices it and sends it to you.',
  'message-sent': 'Your message was sent.',
  'options-saved': 'Your choice of options was saved as a new version.',
};

function comment(form: Form): string | null {
  const value = typeof form.comment === 'string' ? form.comment.trim() : '';
  return value === '' ? null : value;
}

/** Only the customer and its employees decide offers; sales representatives price and send them here. */
const CUSTOMER_SIDE: StorefrontPage['actors'] = ['customer', 'employee'];
const SALES_SIDE: StorefrontPage['actors'] = ['salesRepresentative'];
/** For what a page shows (its forms); the forms' pages declare the same actors, so the pipeline refuses the others. */
const decidesOffers = (ctx: StoreContext) => ctx.actor.type === 'customer' || ctx.actor.type === 'employee';
const pricesOffers = (ctx: StoreContext) => ctx.actor.type === 'salesRepresentative';

/** A decimal the way people type it ("12.5", "12,50", "1 234.00"), at most `precision` decimals, else null. */
export function decimalOf(value: string, precision: number): number | null {
  const plain = value.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!new RegExp(`^\\d{1,9}(\\.\\d{0,${precision}})?$`).test(plain)) return null;
  return Number(plain);
}

const roundTo = (value: number, precision: number) => Math.round(value * 10 ** precision) / 10 ** precision;

const linesOf = (offer: OfferView) => offer.lineItems;

/** A refusal of the pricing form before anything is sent: the page again, 400, with the line it concerns. */
class PricingProblem extends Error {}

/**
 * The representative's pricing form as the Store API's sales update (`PUT /offer/{id}`): per line a
 * unit price, or a discount in percent off the list price (the discount wins when both are given),
 * the quantity, a comment, or removal; the subject, the note for the customer and the validity date.
 */
export function salesUpdateOf(
  offer: OfferView,
  form: Form,
  precision: number,
  timeZone: string,
): Record<string, unknown> {
  const field = (name: string, max = 2000) => (typeof form[name] === 'string' ? form[name].trim().slice(0, max) : '');
  const lineItems: Array<Record<string, unknown>> = [];
  const removeLineItemIds: string[] = [];
  linesOf(offer).forEach((line, index) => {
    const name = `${index + 1}. ${line.label}`;
    if (field(`remove-${line.id}`) !== '') {
      removeLineItemIds.push(line.id);
      return;
    }
    const change: Record<string, unknown> = { id: line.id };
    const discountText = field(`discount-${line.id}`, 32);
    const priceText = field(`price-${line.id}`, 32);
    if (discountText !== '') {
      const discount = decimalOf(discountText, 2);
      if (discount === null || discount > 100)
        throw new PricingProblem(`Line ${name}: enter the discount as a percentage from 0 to 100.`);
      change.unitPrice = roundTo((Number(line.listPrice) * (100 - discount)) / 100, precision);
    } else if (priceText !== '') {
      const price = decimalOf(priceText, precision);
      if (price === null)
        throw new PricingProblem(
          `Line ${name}: enter the price as a number with at most ${precision} decimals, e.g. 12.50.`,
        );
      change.unitPrice = price;
    }
    const quantityText = field(`quantity-${line.id}`, 16);
    if (quantityText !== '') {
      if (!/^\d{1,6}$/.test(quantityText) || Number(quantityText) < 1 || Number(quantityText) > 100000)
        throw new PricingProblem(`Line ${name}: the quantity must be a whole number from 1 to 100,000.`);
      change.quantity = Number(quantityText);
    }
    if (form[`comment-${line.id}`] !== undefined) change.comment = field(`comment-${line.id}`) || null;
    if (Object.keys(change).length > 1) lineItems.push(change);
  });
  const body: Record<string, unknown> = {};
  if (lineItems.length) body.lineItems = lineItems;
  if (removeLineItemIds.length) body.removeLineItemIds = removeLineItemIds;
  if (form.subject !== undefined) body.subject = field('subject', 255);
  if (form.salesComment !== undefined) body.salesComment = field('salesComment') || null;
  const validUntil = field('validUntil', 10);
  if (validUntil !== '') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(validUntil) || Number.isNaN(Date.parse(`${validUntil}T00:00:00Z`)))
      throw new PricingProblem('Enter the validity as a date (YYYY-MM-DD).');
    body.validUntil = endOfDay(validUntil, timeZone);
  }
  if (Object.keys(body).length === 0)
    throw new PricingProblem('Nothing to save: change a price, a quantity, a comment or the validity.');
  return body;
}

/** The last moment of a calendar day in the sales channel's time zone, as a UTC ISO time. */
export function endOfDay(date: string, timeZone: string): string {
  const nextMidnightUtc = Date.parse(`${date}T00:00:00Z`) + 86_400_000;
  // The zone's offset at that moment: what the wall clock there shows minus UTC.
  let offset = 0;
  try {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: timeZone || 'UTC',
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      })
        .formatToParts(new Date(nextMidnightUtc))
        .map((part) => [part.type, part.value]),
    );
    offset =
      Date.UTC(
        Number(parts.year),
        Number(parts.month) - 1,
        Number(parts.day),
        Number(parts.hour),
        Number(parts.minute),
        Number(parts.second),
      ) - nextMidnightUtc;
  } catch {
    offset = 0;
  }
  return new Date(nextMidnightUtc - offset - 1000).toISOString();
}

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

/**
 * The storefront pages of offers: the list behind the account menu and the detail page the offer
 * mails link to, with accept / decline / validity-extension forms and the PDF documents. Every read
 * and action goes through the declared Store API route (its permission, schemas and handler).
 */
export function offerStorefrontPages(service: OfferUseCases): StorefrontPage[] {
  const call = offerCaller(service);
  const read = (ctx: StoreContext, id: string) => {
    if (!isId(id)) throw Errors.notFound('Offer', id);
    return call<OfferView>(ctx, 'readOffer', { params: { id } });
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
        negotiation: await negotiationData(call, ctx, offer, customerSide),
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

  /** The representative's pricing form: a refusal shows the form again as typed, with the reason. */
  async function price(ctx: StoreContext, id: string, form: Form): Promise<PageResult> {
    // Only representatives reach this (the page declares its actors); another representative's customer: 404 here.
    const offer = await read(ctx, id);
    let body: Record<string, unknown>;
    try {
      body = salesUpdateOf(offer, form, ctx.salesChannel.currencyPrecision, ctx.salesChannel.timeZone);
    } catch (error) {
      if (error instanceof PricingProblem) return detailPage(ctx, id, { error: error.message, form }, 400);
      throw error;
    }
    const result = await formErrors(() => call(ctx, 'updateOffer', { params: { id }, body }));
    if ('error' in result) return detailPage(ctx, id, { error: result.error.message, form }, 400);
    return { redirect: `${detailPath(id)}?done=priced` };
  }

  function requestPage(form: Form = {}, error: string | null = null): PageResult {
    const field = (name: string) => (typeof form[name] === 'string' ? form[name] : '');
    return {
      template: 'offer-request',
      status: error ? 400 : 200,
      data: {
        title: 'Ask for an offer',
        subject: field('subject'),
        commission: field('commission'),
        customerComment: field('customerComment'),
        error,
      },
    };
  }

  return [
    // Before `/account/offers/:id`, which would take "request" for an id.
    {
      path: OFFER_REQUEST_PATH,
      auth: 'login',
      needsCustomer: true,
      anyPermission: [REQUEST_PERMISSION],
      handler: () => Promise.resolve(requestPage()),
    },
    {
      path: OFFER_REQUEST_PATH,
      method: 'POST',
      auth: 'login',
      needsCustomer: true,
      anyPermission: [REQUEST_PERMISSION],
      async handler({ ctx, form }) {
        const field = (name: string, max: number) =>
          typeof form[name] === 'string' ? form[name].trim().slice(0, max) : '';
        const body: Record<string, unknown> = { customerComment: field('customerComment', 2000) || null };
        if (field('subject', 255)) body.subject = field('subject', 255);
        if (field('commission', 255)) body.commission = field('commission', 255);
        const result = await formErrors(() => call<OfferView>(ctx, 'requestOffer', { body }));
        if ('error' in result) return requestPage(form, result.error.message);
        return { redirect: `${detailPath(result.ok.id)}?done=requested` };
      },
    },
    {
      path: LIST_PATH,
      auth: 'login',
      async handler({ ctx }) {
        const { total, elements: data } = await call<{ total: number; elements: OfferView[] }>(ctx, 'listOffers', {
          body: { limit: LIST_LIMIT },
        });
        return {
          template: 'offer-list',
          data: {
            title: 'Offers',
            total,
            more: total > data.length,
            offers: data.map((o) => ({ ...o, url: detailPath(o.id) })),
            timeZone: ctx.salesChannel.timeZone,
            canRequest: decidesOffers(ctx) && ctx.can(REQUEST_PERMISSION),
          },
        };
      },
    },
    {
      path: '/account/offers/:id',
      auth: 'login',
      handler: ({ ctx, params, query }) =>
        detailPage(ctx, params.id!, { notice: typeof query.done === 'string' ? (NOTICES[query.done] ?? null) : null }),
    },
    {
      path: '/account/offers/:id/document/:documentId',
      auth: 'login',
      async handler({ ctx, params }) {
        const offer = await read(ctx, params.id!);
        const summary = offer.documents.find((d) => d.id === params.documentId);
        if (!summary) throw Errors.notFound('Offer document', params.documentId);
        const document = await call<Reply>(ctx, 'downloadOfferDocument', { params: { id: summary.id } });
        return {
          file: {
            fileName: summary.fileName,
            contentType: document.contentType ?? 'application/pdf',
            content: document.body as Buffer,
          },
        };
      },
    },
    {
      path: '/account/offers/:id/accept',
      method: 'POST',
      auth: 'login',
      actors: CUSTOMER_SIDE,
      handler: ({ ctx, params, form }) =>
        act(
          ctx,
          params.id!,
          () =>
            call(ctx, 'updateOffer', {
              params: { id: params.id },
              body: { action: 'accept', comment: comment(form), ...versionOf(form) },
            }),
          'accepted',
        ),
    },
    {
      path: '/account/offers/:id/decline',
      method: 'POST',
      auth: 'login',
      actors: CUSTOMER_SIDE,
      handler: ({ ctx, params, form }) =>
        act(
          ctx,
          params.id!,
          () =>
            call(ctx, 'updateOffer', {
              params: { id: params.id },
              body: { action: 'decline', comment: comment(form) },
            }),
          'declined',
        ),
    },
    {
      path: '/account/offers/:id/extension',
      method: 'POST',
      auth: 'login',
      actors: CUSTOMER_SIDE,
      handler: ({ ctx, params, form }) =>
        act(
          ctx,
          params.id!,
          () =>
            call(ctx, 'requestOfferValidityExtension', { params: { id: params.id }, body: { comment: comment(form) } }),
          'extension-requested',
        ),
    },
    {
      path: '/account/offers/:id/price',
      method: 'POST',
      auth: 'login',
      actors: SALES_SIDE,
      handler: ({ ctx, params, form }) => {
        if (!isId(params.id)) throw Errors.notFound('Offer', params.id);
        return price(ctx, params.id, form);
      },
    },
    {
      path: '/account/offers/:id/send',
      method: 'POST',
      auth: 'login',
      actors: SALES_SIDE,
      handler: ({ ctx, params, form }) =>
        act(
          ctx,
          params.id!,
          () => call(ctx, 'sendOfferMail', { params: { id: params.id }, body: { message: comment(form) } }),
          'sent',
        ),
    },
    ...negotiationPages(call, (ctx, id, extra, status) => detailPage(ctx, id, extra, status)),
  ];
}

/** The version the accept form showed (a stale one is refused by the route with 409). */
function versionOf(form: Form): { version?: number } {
  const value = typeof form.version === 'string' ? form.version : '';
  return /^[1-9][0-9]{0,5}$/.test(value) ? { version: Number(value) } : {};
}

export function registerOfferStorefront(host: HostRuntime, service: OfferUseCases): void {
  for (const page of offerStorefrontPages(service)) host.storefront.page(page);
}
