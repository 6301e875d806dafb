import type { Knex } from 'knex';
import { readBool, readInt, type Executor } from '../../lib/db.js';
import { lineItemFromRow, lineItemView, totalsOf, type LineItem } from '../../lib/line-items.js';
import { fromMinor } from '../../lib/money.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import type { HostRuntime } from '../../host/contract.js';

export const OFFERS = 'b2b_offers';
export const OFFER_LINES = 'b2b_offer_line_items';
export const OFFER_STATES = 'b2b_offer_states';
export const OFFER_DOCUMENTS = 'b2b_offer_documents';

export type StateFlag = 'allows_sales_edit' | 'allows_accept' | 'allows_decline' | 'allows_extension_request' | 'is_final';

export interface OfferState {
  id: string;
  technicalName: string;
  name: string;
  position: number;
  allowsSalesEdit: boolean;
  allowsAccept: boolean;
  allowsDecline: boolean;
  allowsExtensionRequest: boolean;
  isFinal: boolean;
}

export function toState(row: Record<string, any>): OfferState {
  return {
    id: row.id,
    technicalName: row.technical_name,
    name: row.name,
    position: Number(row.position),
    allowsSalesEdit: readBool(row.allows_sales_edit),
    allowsAccept: readBool(row.allows_accept),
    allowsDecline: readBool(row.allows_decline),
    allowsExtensionRequest: readBool(row.allows_extension_request),
    isFinal: readBool(row.is_final),
  };
}

export async function allStates(executor: Executor): Promise<Map<string, OfferState>> {
  const rows = await executor(OFFER_STATES).orderBy('position');
  return new Map(rows.map((row) => [row.technical_name as string, toState(row)]));
}

/** Technical names of the states whose flag is set: the statuses a conditional write may start from. */
export async function statesWith(executor: Executor, flag: StateFlag): Promise<string[]> {
  return (await executor(OFFER_STATES).where(flag, true).select('technical_name')).map((row) => row.technical_name as string);
}

export interface OfferRow {
  id: string;
  offer_number: string;
  customer_id: string;
  sales_channel_id: string;
  status: string;
  source: string;
  requested_by_type: string;
  requested_by_id: string | null;
  requested_by_name: string;
  requested_by_email: string | null;
  sales_representative_id: string | null;
  subject: string;
  commission: string;
  customer_comment: string | null;
  sales_comment: string | null;
  billing_address_id: string | null;
  shipping_address_id: string | null;
  currency_iso: string;
  net_total: number | string;
  tax_total: number | string;
  total: number | string;
  valid_until: string | null;
  sent_at: string | null;
  accepted_at: string | null;
  declined_at: string | null;
  decline_comment: string | null;
  extension_requested_at: string | null;
  extension_comment: string | null;
  order_id: string | null;
  order_number: string | null;
  created_at: string;
  updated_at: string | null;
}

/** An offer's line: the shared line-item shape plus the list price, the sales comment and the cart line it came from. */
export interface OfferLine extends LineItem {
  listUnitNet: number;
  comment: string | null;
  sourceLineItemId: string | null;
}

export function toLine(row: Record<string, any>): OfferLine {
  return {
    ...lineItemFromRow(row),
    listUnitNet: readInt(row.list_unit_net),
    comment: row.comment ?? null,
    sourceLineItemId: row.source_line_item_id ?? null,
  };
}

/** An open offer past its validity is expired, whether or not the expiry job has run yet. */
export function effectiveStatus(row: Pick<OfferRow, 'status' | 'valid_until'>, now = nowDb()): string {
  return row.status === 'open' && row.valid_until !== null && row.valid_until <= now ? 'expired' : row.status;
}

/** The conditional-write form of effectiveStatus: rows whose status, as the API shows it, is one of `allowed`. */
export function whereEffectiveStatusIn(query: Knex.QueryBuilder, allowed: string[], now = nowDb()): Knex.QueryBuilder {
  return query.where((w) => {
    if (allowed.length === 0) w.whereRaw('1 = 0');
    const plain = allowed.filter((status) => status !== 'open');
    if (plain.length) w.orWhereIn('status', plain);
    if (allowed.includes('open')) w.orWhere((open) => open.where('status', 'open').where((v) => v.whereNull('valid_until').orWhere('valid_until', '>', now)));
    if (allowed.includes('expired')) w.orWhere((past) => past.where('status', 'open').whereNotNull('valid_until').where('valid_until', '<=', now));
  });
}

/** Marks open offers past their validity expired (the scheduled job, and before lists so status filters see it). */
export async function expireDue(executor: Executor, scope?: (q: Knex.QueryBuilder) => void): Promise<number> {
  const now = nowDb();
  const query = executor(OFFERS).where('status', 'open').whereNotNull('valid_until').where('valid_until', '<=', now);
  if (scope) scope(query);
  return query.update({ status: 'expired', updated_at: now });
}

export async function findOffer(executor: Executor, id: string): Promise<OfferRow | null> {
  return ((await executor(OFFERS).where({ id }).first()) as OfferRow | undefined) ?? null;
}

export async function offerLines(executor: Executor, offerIds: string[]): Promise<Map<string, OfferLine[]>> {
  const byOffer = new Map<string, OfferLine[]>();
  if (offerIds.length === 0) return byOffer;
  const rows = await executor(OFFER_LINES).whereIn('offer_id', offerIds).orderBy('position').orderBy('id');
  for (const row of rows) {
    const list = byOffer.get(row.offer_id) ?? [];
    list.push(toLine(row));
    byOffer.set(row.offer_id, list);
  }
  return byOffer;
}

export interface OfferDocumentSummary {
  id: string;
  fileName: string;
  documentNumber: string;
  createdAt: string;
}

/** The documents of many offers, newest first; file name and number come from the host's documents. */
export async function offerDocuments(host: HostRuntime, executor: Executor, offerIds: string[]): Promise<Map<string, OfferDocumentSummary[]>> {
  const byOffer = new Map<string, OfferDocumentSummary[]>();
  if (offerIds.length === 0) return byOffer;
  const rows = await executor(OFFER_DOCUMENTS)
    .whereIn('offer_id', offerIds)
    .orderBy('created_at', 'desc')
    .orderBy('document_id', 'desc')
    .select('offer_id', 'document_id', 'created_at');
  const documents = new Map((await host.documents.getMeta(executor, rows.map((row) => row.document_id as string))).map((d) => [d.id, d]));
  for (const row of rows) {
    const document = documents.get(row.document_id);
    if (!document) continue;
    const list = byOffer.get(row.offer_id) ?? [];
    list.push({ id: document.id, fileName: document.fileName, documentNumber: document.documentNumber, createdAt: fromDbTime(row.created_at)! });
    byOffer.set(row.offer_id, list);
  }
  return byOffer;
}

// Line sums are one mechanism for carts, orders, approvals and offers (src/lib/line-items.ts).
export { lineTax, totalsOf } from '../../lib/line-items.js';

/** Re-sums the offer from its lines (after any line change, in the same transaction). */
export async function writeTotals(trx: Executor, offerId: string, extra: Record<string, unknown> = {}): Promise<void> {
  const lines = (await offerLines(trx, [offerId])).get(offerId) ?? [];
  const totals = totalsOf(lines);
  await trx(OFFERS)
    .where({ id: offerId })
    .update({ net_total: totals.netTotal, tax_total: totals.taxTotal, total: totals.total, updated_at: nowDb(), ...extra });
}

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
  lineItems: Array<Record<string, unknown>>;
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
}

/** Offers in the API's shape, in the order of `rows`; amounts in currency units with the channel's precision. */
export async function offerViews(host: HostRuntime, executor: Executor, rows: OfferRow[], precision: number): Promise<OfferView[]> {
  const ids = rows.map((row) => row.id);
  const [lines, documents, states] = await Promise.all([offerLines(executor, ids), offerDocuments(host, executor, ids), allStates(executor)]);
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
      requestedBy: { type: row.requested_by_type, id: row.requested_by_id ?? null, name: row.requested_by_name, email: row.requested_by_email ?? null },
      salesRepresentativeId: row.sales_representative_id ?? null,
      lineItems: (lines.get(row.id) ?? []).map((line) => {
        const { payload: _payload, ...view } = lineItemView(line, precision);
        return { ...view, listPrice: money(line.listUnitNet), comment: line.comment };
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
    };
  });
}

/** The customers were deleted by the host (contract event): their offers (lines and document links by foreign key) go with them. */
export async function deleteCustomersOffers(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(OFFERS).whereIn('customer_id', customerIds).delete();
}
