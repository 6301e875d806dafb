import type { StorefrontPage, StoreContext } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { isId } from '../../../lib/ids.js';
import { formErrors, type Form, type PageResult } from '../../employee/index.js';
import { page } from '../../storefront-kit.js';
import type { OfferView } from '../views.js';
import type { OfferApi } from './negotiation.js';
import { comment, detailPath, linesOf, roundTo, SALES_SIDE, type OfferDetail } from './shared.js';

/** A decimal the way people type it ("12.5", "12,50", "1 234.00"), at most `precision` decimals, else null. */
export function decimalOf(value: string, precision: number): number | null {
  const plain = value.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!new RegExp(`^\\d{1,9}(\\.\\d{0,${precision}})?$`).test(plain)) return null;
  return Number(plain);
}

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

/** The sales representative prices an offer and sends it. */
export function offerSalesPages({ call, routes }: OfferApi, { read, detailPage, act }: OfferDetail): StorefrontPage[] {
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
    const result = await formErrors(() => call(ctx, routes.updateOffer, { params: { id }, body }));
    if ('error' in result) return detailPage(ctx, id, { error: result.error.message, form }, 400);
    return { redirect: `${detailPath(id)}?done=priced` };
  }

  return [
    page({
      path: '/account/offers/:id/price',
      method: 'POST',
      auth: 'login',
      actors: SALES_SIDE,
      handler: ({ ctx, params, form }) => {
        if (!isId(params.id)) throw Errors.notFound('Offer', params.id);
        return price(ctx, params.id, form);
      },
    }),
    page({
      path: '/account/offers/:id/send',
      method: 'POST',
      auth: 'login',
      actors: SALES_SIDE,
      handler: ({ ctx, params, form }) =>
        act(
          ctx,
          params.id,
          () => call(ctx, routes.sendOfferMail, { params: { id: params.id }, body: { message: comment(form) } }),
          'sent',
        ),
    }),
  ];
}
