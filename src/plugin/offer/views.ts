import type { Actor, HostRuntime } from '../../contract/index.js';
import { readInt, type Executor } from '../../lib/db.js';
import { lineItemView, type LineItemView } from '../../lib/line-items.js';
import { fromMinor } from '../../lib/money.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import { percentOf } from './pricing.js';
import {
  allStates,
  effectiveStatus,
  documentsOfOffers,
  offerLines,
  unreadCounts,
  type OfferRow,
  type OfferState,
} from './repository.js';

export interface OfferDocumentSummary {
  id: string;
  fileName: string;
  documentNumber: string;
  createdAt: string;
}

/** The documents of many offers, newest first; file name and number come from the host's documents. */
export async function offerDocuments(
  host: HostRuntime,
  executor: Executor,
  offerIds: string[],
): Promise<Map<string, OfferDocumentSummary[]>> {
  const byOffer = new Map<string, OfferDocumentSummary[]>();
  if (offerIds.length === 0) return byOffer;
  const rows = await documentsOfOffers(executor, offerIds);
  const documents = new Map(
    (
      await host.documents.getMeta(
        executor,
        rows.map((row) => row.document_id),
      )
    ).map((d) => [d.id, d]),
  );
  for (const row of rows) {
    const document = documents.get(row.document_id);
    if (!document) continue;
    const list = byOffer.get(row.offer_id) ?? [];
    list.push({
      id: document.id,
      fileName: document.fileName,
      documentNumber: document.documentNumber,
      createdAt: fromDbTime(row.created_at)!,
    });
    byOffer.set(row.offer_id, list);
  }
  return byOffer;
}

/** An offer line at the API edge: the shared line view without the payload, with the list price and the sales comment. */
export type OfferLineView = Omit<LineItemView, 'payload'> & {
  listPrice: number;
  comment: string | null;
  kind: string;
  optional: boolean;
  selected: boolean;
  basePrice: number;
  discount: number;
};

export interface OfferView {
  id: string;
  offerNumber: string;
  customerId: string;
  status: string;
  state: OfferState;
  subject: string;
  commission: string;
  customerComment: string | null;
  salesComment: string | null;
  billigAddressId: string | null;
  deliverAddressId: string | null;
  currencyIso: string;
  netTotal: number;
  taxTotal: number;
  total: number;
  validUntil: string | null;
  requestedBy: { type: string; id: string | null; name: string; email: string | null };
  salesRepresentativeId: string | null;
  lineItems: OfferLineView[];
  documents: OfferDocumentSummary[];
  orderId: string | null;
  orderNumber: string | null;
  sentAt: string | null;
  acceptedAt: string | null;
  declinedAt: string | null;
  declineComment: string | null;
  extensionRequestedAt: string | null;
  extensionComment: string | null;
  createdAt: string;
  updatedAt: string | null;
  version: number;
  discount: number;
  /** Messages of the other side the reader has not read (0 without a reader). */
  unreadMessageCount: number;
}

/** Offers in the API's shape, in the order of `rows`; amounts in currency units with the channel's precision. */
export async function offerViews(
  host: HostRuntime,
  executor: Executor,
  rows: OfferRow[],
  precision: number,
  reader?: Actor,
): Promise<OfferView[]> {
  const ids = rows.map((row) => row.id);
  const [lines, documents, states] = await Promise.all([
    offerLines(executor, ids),
    offerDocuments(host, executor, ids),
    allStates(executor),
  ]);
  const unread = reader ? await unreadCounts(executor, ids, reader) : new Map<string, number>();
  const money = (minor: number | string) => fromMinor(minor, precision);
  const now = nowDb();
  return rows.map((row) => {
    const status = effectiveStatus(row, now);
    return {
      id: row.id,
      offerNumber: row.offer_number,
      customerId: row.customer_id,
      status,
      state: states.get(status)!,
      subject: row.subject,
      commission: row.commission,
      customerComment: row.customer_comment ?? null,
      salesComment: row.sales_comment ?? null,
      billigAddressId: row.billing_address_id ?? null,
      deliverAddressId: row.shipping_address_id ?? null,
      currencyIso: row.currency_iso,
      netTotal: money(row.net_total),
      taxTotal: money(row.tax_total),
      total: money(row.total),
      validUntil: fromDbTime(row.valid_until),
      requestedBy: {
        type: row.requested_by_type,
        id: row.requested_by_id ?? null,
        name: row.requested_by_name,
        email: row.requested_by_email ?? null,
      },
      salesRepresentativeId: row.sales_representative_id ?? null,
      lineItems: (lines.get(row.id) ?? []).map((line) => {
        const { payload: _payload, ...view } = lineItemView(line, precision);
        return {
          ...view,
          listPrice: money(line.listUnitNet),
          comment: line.comment,
          kind: line.kind,
          optional: line.optional,
          selected: line.selected,
          basePrice: money(line.baseUnitNet),
          discount: percentOf(line.discountBp),
        };
      }),
      documents: documents.get(row.id) ?? [],
      orderId: row.order_id ?? null,
      orderNumber: row.order_number ?? null,
      sentAt: fromDbTime(row.sent_at),
      acceptedAt: fromDbTime(row.accepted_at),
      declinedAt: fromDbTime(row.declined_at),
      declineComment: row.decline_comment ?? null,
      extensionRequestedAt: fromDbTime(row.extension_requested_at),
      extensionComment: row.extension_comment ?? null,
      createdAt: fromDbTime(row.created_at)!,
      updatedAt: fromDbTime(row.updated_at),
      version: readInt(row.version ?? 1),
      discount: percentOf(readInt(row.discount_bp ?? 0)),
      unreadMessageCount: unread.get(row.id) ?? 0,
    };
  });
}
