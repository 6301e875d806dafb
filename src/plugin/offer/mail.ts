import type { HostRuntime, SalesChannel } from '../../contract/index.js';
import { fromMinor } from '../../lib/money.js';
import { fromDbTime } from '../../lib/time.js';
import type { OfferLine, OfferRow } from './repository.js';

/** The add-on's mail templates (templates/mail/<name>.*.hbs), registered by the host from plugin.json. */
export const MAIL = {
  requested: 'offer-requested',
  sent: 'offer-sent',
  accepted: 'offer-accepted',
  declined: 'offer-declined',
  extensionRequested: 'offer-validity-extension-requested',
  message: 'offer-message',
  expiring: 'offer-expiring',
} as const;

export function moneyText(minor: number | string, precision: number, currencyIso: string): string {
  return `${fromMinor(minor, precision).toFixed(precision)} ${currencyIso}`;
}

/** What every offer mail can print (templates/mail/offer-*); a type alias, so it is a mail's `data` record. */
export type OfferMailData = {
  offer: {
    id: string;
    number: string;
    subject: string;
    commission: string;
    customerComment: string | null;
    salesComment: string | null;
    requesterName: string;
    validUntil: string | null;
    netTotal: string;
    total: string;
    url: string;
  };
  lineItems: Array<{
    label: string;
    productNumber: string | null;
    quantity: number;
    unitPrice: string;
    totalPrice: string;
    comment: string | null;
  }>;
};

/** What every offer mail can print: number, subject, totals, validity, lines and a link to it; `extra` adds what one mail says besides. */
export function offerMailData<E extends Record<string, unknown>>(
  host: HostRuntime,
  salesChannel: SalesChannel,
  offer: OfferRow,
  lines: OfferLine[],
  extra?: E,
): OfferMailData & E {
  const precision = salesChannel.currencyPrecision;
  const money = (minor: number | string) => moneyText(minor, precision, offer.currency_iso);
  return {
    offer: {
      id: offer.id,
      number: offer.offer_number,
      subject: offer.subject,
      commission: offer.commission,
      customerComment: offer.customer_comment,
      salesComment: offer.sales_comment,
      requesterName: offer.requested_by_name,
      validUntil: fromDbTime(offer.valid_until)?.slice(0, 10) ?? null,
      netTotal: money(offer.net_total),
      total: money(offer.total),
      url: host.storefront.url(salesChannel, `/account/offers/${offer.id}`),
    },
    lineItems: lines.map((line) => ({
      label: line.label,
      productNumber: line.productNumber,
      quantity: line.quantity,
      unitPrice: money(line.unitNet),
      totalPrice: money(line.totalNet),
      comment: line.comment,
    })),
    ...(extra as E),
  };
}
