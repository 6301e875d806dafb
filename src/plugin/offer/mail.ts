import type { HostRuntime, SalesChannel } from '../../host/contract.js';
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
} as const;

export function moneyText(minor: number | string, precision: number, currencyIso: string): string {
  return `${fromMinor(minor, precision).toFixed(precision)} ${currencyIso}`;
}

/** What every offer mail can print: number, subject, totals, validity, lines and a link to it. */
export function offerMailData(host: HostRuntime, salesChannel: SalesChannel, offer: OfferRow, lines: OfferLine[], extra: Record<string, unknown> = {}): Record<string, unknown> {
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
    ...extra,
  };
}
