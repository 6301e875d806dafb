import type { CustomerRef, HostRuntime, SalesChannel } from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import { moneyText } from './mail.js';
import { isOrdered } from './pricing.js';
import { lineTax, linkOfferDocument, offerDocumentCount, type OfferLine, type OfferRow } from './repository.js';

/** A field of the host's address record as text ('' when absent or not a string). */
const part = (address: Record<string, unknown>, name: string) =>
  typeof address[name] === 'string' ? address[name] : '';

function addressLines(address: Record<string, unknown> | undefined): Array<{ text: string }> {
  if (!address) return [];
  return [
    address.company,
    `${part(address, 'firstName')} ${part(address, 'lastName')}`.trim(),
    address.street,
    `${part(address, 'zipcode')} ${part(address, 'city')}`.trim(),
    address.countryCode,
  ]
    .filter((part): part is string => typeof part === 'string' && part.length > 0)
    .map((text) => ({ text }));
}

/**
 * Renders the offer as it stands into a PDF (host documents, type 'offer') and links it to the
 * offer. Each send makes a new document: '<offer number>', then '<offer number>-2' and so on.
 */
export async function createOfferDocument(
  host: HostRuntime,
  trx: Executor,
  input: {
    offer: OfferRow;
    lines: OfferLine[];
    customer: CustomerRef;
    salesChannel: SalesChannel;
    representativeName: string | null;
    version: number;
  },
): Promise<{ id: string; fileName: string }> {
  const { offer, lines, customer, salesChannel } = input;
  const precision = salesChannel.currencyPrecision;
  const money = (minor: number | string) => moneyText(minor, precision, offer.currency_iso);
  const version = (await offerDocumentCount(trx, offer.id)) + 1;
  const number = version === 1 ? offer.offer_number : `${offer.offer_number}-${version}`;
  const addresses = await host.customers.addresses(trx, customer.id);
  const billingId = offer.billing_address_id ?? (await host.customers.defaultAddressIds(trx, customer.id)).billing;
  const taxByRate = new Map<number, number>();
  for (const line of lines.filter(isOrdered))
    taxByRate.set(line.taxRateBp, (taxByRate.get(line.taxRateBp) ?? 0) + lineTax(line));
  const discountBp = Number(offer.discount_bp ?? 0);

  const document = await host.documents.createPdf(trx, {
    type: 'offer',
    number,
    customerId: customer.id,
    orderId: null,
    title: `Offer ${offer.offer_number}`,
    lines: [
      ...addressLines(addresses.find((a) => a.id === billingId)),
      { text: '' },
      { text: `Offer number: ${offer.offer_number}, version ${input.version}` },
      { text: `Date: ${nowDb().slice(0, 10)}` },
      { text: `Valid until: ${fromDbTime(offer.valid_until)?.slice(0, 10) ?? '-'}` },
      { text: `Customer number: ${customer.customerNumber}` },
      ...(offer.subject ? [{ text: `Subject: ${offer.subject}` }] : []),
      ...(offer.commission ? [{ text: `Commission: ${offer.commission}` }] : []),
      { text: '' },
      {
        table: [
          ['Pos.', 'Product number', 'Item', 'Quantity', 'Unit price (net)', 'Tax', 'Total (net)'],
          ...lines.map((line, index) =>
            line.kind === 'heading'
              ? [String(index + 1), '', line.label.toUpperCase(), '', '', '', '']
              : [
                  String(index + 1),
                  line.productNumber ?? '',
                  positionText(line),
                  String(line.quantity),
                  money(line.unitNet),
                  `${line.taxRateBp / 100} %`,
                  isOrdered(line) ? money(line.totalNet) : `(${money(line.totalNet)})`,
                ],
          ),
        ],
      },
      {
        table: [
          ['Totals', ''],
          ...(discountBp ? [['Offer discount (included)', `${discountBp / 100} %`]] : []),
          ['Net total', money(offer.net_total)],
          ...[...taxByRate.entries()]
            .sort(([a], [b]) => a - b)
            .map(([rate, tax]) => [`Tax ${rate / 100} %`, money(tax)]),
          ['Total', money(offer.total)],
        ],
      },
      ...(offer.sales_comment ? [{ text: offer.sales_comment }] : []),
      {
        text: `Accept this offer in your account before it expires; it is then ordered at these prices.${input.representativeName ? ` Your contact: ${input.representativeName}.` : ''}`,
      },
    ],
  });
  await linkOfferDocument(trx, offer.id, document.id, input.version);
  return document;
}

/** The item text of a priced position: its comment, its discount, and whether it is an option (not in the total unless ticked). */
function positionText(line: OfferLine): string {
  const notes = [
    line.comment,
    line.discountBp ? `${line.discountBp / 100} % off` : null,
    line.optional ? (line.selected ? 'option, chosen' : 'option, not in the total') : null,
  ].filter(Boolean);
  return notes.length ? `${line.label} (${notes.join('; ')})` : line.label;
}
