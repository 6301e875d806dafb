import type { Knex } from 'knex';
import type { Actor } from '../../contract/index.js';
import { searchByCriteria, type Criteria } from '../../lib/criteria.js';
import {
  forUpdate,
  isDuplicateKeyError,
  readBool,
  readInt,
  readJson,
  selectRow,
  selectRows,
  writeJson,
  type Executor,
} from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { lineItemFromRow, totalsOf, type LineItem, type LineItemDbRow } from '../../lib/line-items.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import { sideOf, type OfferMessage } from './messages.js';
import { offerCriteria, stateCriteria } from './schemas.js';
import type { OfferStatus } from './states.js';
import { isOrdered, type Position, type PositionKind } from './pricing.js';
import type { OfferVersion, Side, VersionSnapshot } from './versions.js';

export const OFFERS = 'b2b_offers';
export const OFFER_LINES = 'b2b_offer_line_items';
export const OFFER_STATES = 'b2b_offer_states';
export const OFFER_DOCUMENTS = 'b2b_offer_documents';

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

interface OfferStateDbRow {
  id: string;
  technical_name: string;
  name: string;
  position: unknown;
  allows_sales_edit: unknown;
  allows_accept: unknown;
  allows_decline: unknown;
  allows_extension_request: unknown;
  is_final: unknown;
}

export function toState(row: OfferStateDbRow): OfferState {
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
  const rows = await selectRows<OfferStateDbRow>(executor(OFFER_STATES).orderBy('position'));
  return new Map(rows.map((row) => [row.technical_name, toState(row)]));
}

export interface OfferRow {
  id: string;
  offer_number: string;
  customer_id: string;
  sales_channel_id: string;
  status: OfferStatus;
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
  version: unknown;
  discount_bp: unknown;
  expiry_reminder_for: string | null;
}

/** An offer's line: the shared line-item shape plus the list price, the sales comment and the cart line it came from. */
export interface OfferLine extends LineItem, Position {
  listUnitNet: number;
  comment: string | null;
  sourceLineItemId: string | null;
  /** The offered unit price before discounts (unitNet is after them). */
  baseUnitNet: number;
  discountBp: number;
}

export interface OfferLineDbRow extends LineItemDbRow {
  offer_id: string;
  list_unit_net: unknown;
  comment: string | null;
  source_line_item_id: string | null;
  kind?: string;
  optional?: unknown;
  selected?: unknown;
  discount_bp?: unknown;
  base_unit_net?: unknown;
}

export function toLine(row: OfferLineDbRow): OfferLine {
  const line = lineItemFromRow(row);
  return {
    ...line,
    listUnitNet: readInt(row.list_unit_net),
    comment: row.comment ?? null,
    sourceLineItemId: row.source_line_item_id ?? null,
    kind: row.kind ?? 'product',
    optional: readBool(row.optional ?? false),
    selected: readBool(row.selected ?? true),
    discountBp: readInt(row.discount_bp ?? 0),
    baseUnitNet:
      row.base_unit_net === null || row.base_unit_net === undefined ? line.unitNet : readInt(row.base_unit_net),
  };
}

/** An open offer past its validity is expired, whether or not the expiry job has run yet. */
export function effectiveStatus(row: Pick<OfferRow, 'status' | 'valid_until'>, now = nowDb()): OfferStatus {
  return row.status === 'open' && row.valid_until !== null && row.valid_until <= now ? 'expired' : row.status;
}

/** The conditional-write form of effectiveStatus: rows whose status, as the API shows it, is one of `allowed`. */
export function whereEffectiveStatusIn(query: Knex.QueryBuilder, allowed: string[], now = nowDb()): Knex.QueryBuilder {
  return query.where((w) => {
    if (allowed.length === 0) w.whereRaw('1 = 0');
    const plain = allowed.filter((status) => status !== 'open');
    if (plain.length) w.orWhereIn('status', plain);
    if (allowed.includes('open'))
      w.orWhere((open) => {
        open.where('status', 'open').where((v) => {
          v.whereNull('valid_until').orWhere('valid_until', '>', now);
        });
      });
    if (allowed.includes('expired'))
      w.orWhere((past) => {
        past.where('status', 'open').whereNotNull('valid_until').where('valid_until', '<=', now);
      });
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
  return (await selectRow<OfferRow>(executor(OFFERS).where({ id }).first())) ?? null;
}

// ---- reads and writes of the use cases ---------------------------------------------------------
// Status-changing writes are conditional (from the statuses the transition table in states.ts allows)
// and answer how many rows they changed: the table decides, the write guarantees it happens once.

/** The offers a caller may see: one sales channel, and their customer (or a representative's assigned ones). */
export interface OfferScope {
  salesChannelId: string;
  customerIds: string[];
}

function inScope(query: Knex.QueryBuilder, prefix: string, scope: OfferScope): Knex.QueryBuilder {
  query.where(`${prefix}sales_channel_id`, scope.salesChannelId);
  return scope.customerIds.length === 1
    ? query.where(`${prefix}customer_id`, scope.customerIds[0]!)
    : query.whereIn(`${prefix}customer_id`, scope.customerIds);
}

/** Offers in scope, aliased `o`. */
export function scopedOffers(executor: Executor, scope: OfferScope): Knex.QueryBuilder {
  return inScope(executor(`${OFFERS} as o`), 'o.', scope);
}

export async function findScopedOffer(
  executor: Executor,
  scope: OfferScope,
  id: string,
  lock = false,
): Promise<OfferRow | null> {
  const query = scopedOffers(executor, scope).where('o.id', id).first('o.*');
  return (await selectRow<OfferRow>(lock ? forUpdate(query, executor) : query)) ?? null;
}

/** Writes `expired` on the scope's overdue offers. Scoped without a subquery on the offers table itself: MySQL refuses those in an UPDATE. */
export async function expireDueInScope(executor: Executor, scope: OfferScope): Promise<number> {
  return expireDue(executor, (q) => {
    inScope(q, '', scope);
  });
}

export async function expireOffer(executor: Executor, id: string): Promise<number> {
  return expireDue(executor, (q) => {
    q.where('id', id);
  });
}

export async function searchOffers(
  executor: Executor,
  scope: OfferScope,
  criteria: Criteria,
): Promise<{ total: number; rows: OfferRow[] }> {
  return searchByCriteria<OfferRow>(scopedOffers(executor, scope), criteria, offerCriteria, (qb) => qb.select('o.*'));
}

export async function searchStates(
  executor: Executor,
  criteria: Criteria,
): Promise<{ total: number; data: OfferState[] }> {
  const page = await searchByCriteria<OfferStateDbRow>(executor(OFFER_STATES), criteria, stateCriteria, (qb) =>
    qb.select('*'),
  );
  return { total: page.total, data: page.rows.map(toState) };
}

export interface NewOffer {
  id: string;
  offerNumber: string;
  customerId: string;
  salesChannelId: string;
  status: OfferStatus;
  source: 'cart' | 'items';
  requestedBy: { type: string; id: string | null; name: string; email: string | null };
  salesRepresentativeId: string | null;
  subject: string;
  commission: string;
  customerComment: string | null;
  billingAddressId: string | null;
  shippingAddressId: string | null;
  currencyIso: string;
  totals: { netTotal: number; taxTotal: number; total: number };
  createdAt: string;
}

export async function insertOffer(executor: Executor, offer: NewOffer): Promise<void> {
  await executor(OFFERS).insert({
    id: offer.id,
    offer_number: offer.offerNumber,
    customer_id: offer.customerId,
    sales_channel_id: offer.salesChannelId,
    status: offer.status,
    source: offer.source,
    requested_by_type: offer.requestedBy.type,
    requested_by_id: offer.requestedBy.id,
    requested_by_name: offer.requestedBy.name.slice(0, 255),
    requested_by_email: offer.requestedBy.email,
    sales_representative_id: offer.salesRepresentativeId,
    subject: offer.subject,
    commission: offer.commission,
    customer_comment: offer.customerComment,
    billing_address_id: offer.billingAddressId,
    shipping_address_id: offer.shippingAddressId,
    currency_iso: offer.currencyIso,
    net_total: offer.totals.netTotal,
    tax_total: offer.totals.taxTotal,
    total: offer.totals.total,
    created_at: offer.createdAt,
  });
}

export interface NewOfferLine {
  productId: string | null;
  productNumber: string;
  label: string;
  quantity: number;
  unitNet: number;
  taxRateBp: number;
  comment: string | null;
  sourceLineItemId: string | null;
  payload: Record<string, unknown>;
  type: string;
  /** The customer's own price, when the offered one differs (a representative set it). */
  listUnitNet?: number;
  kind?: PositionKind;
  optional?: boolean;
  /** The offered price before discounts, when discounts apply (unitNet is after them). */
  baseUnitNet?: number;
  discountBp?: number;
}

export async function insertOfferLines(
  executor: Executor,
  offerId: string,
  firstPosition: number,
  lines: NewOfferLine[],
  now: string,
): Promise<void> {
  for (const [index, line] of lines.entries()) {
    await executor(OFFER_LINES).insert({
      id: newId(),
      offer_id: offerId,
      type: line.type,
      product_id: line.productId,
      product_number: line.productNumber.slice(0, 64) || null,
      label: line.label.slice(0, 255),
      quantity: line.quantity,
      list_unit_net: line.listUnitNet ?? line.unitNet,
      unit_net: line.unitNet,
      total_net: line.unitNet * line.quantity,
      tax_rate_bp: line.taxRateBp,
      comment: line.comment,
      source_line_item_id: line.sourceLineItemId,
      payload: writeJson(line.payload),
      position: firstPosition + index,
      created_at: now,
      kind: line.kind ?? 'product',
      optional: line.optional ?? false,
      selected: !(line.optional ?? false),
      discount_bp: line.discountBp ?? 0,
      base_unit_net: line.baseUnitNet ?? line.unitNet,
    });
  }
}

export async function updateOfferLine(
  executor: Executor,
  offerId: string,
  lineId: string,
  line: {
    unitNet: number;
    quantity: number;
    totalNet: number;
    comment?: string | null;
    baseUnitNet?: number;
    discountBp?: number;
    optional?: boolean;
    selected?: boolean;
    label?: string;
  },
): Promise<void> {
  const changes: Record<string, unknown> = {
    unit_net: line.unitNet,
    quantity: line.quantity,
    total_net: line.totalNet,
  };
  if (line.comment !== undefined) changes.comment = line.comment;
  if (line.baseUnitNet !== undefined) changes.base_unit_net = line.baseUnitNet;
  if (line.discountBp !== undefined) changes.discount_bp = line.discountBp;
  if (line.optional !== undefined) changes.optional = line.optional;
  if (line.selected !== undefined) changes.selected = line.selected;
  if (line.label !== undefined) changes.label = line.label.slice(0, 255);
  await executor(OFFER_LINES).where({ id: lineId, offer_id: offerId }).update(changes);
}

export async function deleteOfferLines(executor: Executor, offerId: string, lineIds: string[]): Promise<void> {
  if (lineIds.length) await executor(OFFER_LINES).where({ offer_id: offerId }).whereIn('id', lineIds).delete();
}

/** (requested | draft | open | expired) → open: the representative mailed it. */
export async function markSent(
  executor: Executor,
  id: string,
  from: string,
  sent: { validUntil: string; sentAt: string; representativeId: string },
): Promise<number> {
  return executor(OFFERS).where({ id, status: from }).update({
    status: 'open',
    valid_until: sent.validUntil,
    sent_at: sent.sentAt,
    sales_representative_id: sent.representativeId,
    updated_at: sent.sentAt,
  });
}

/** Deletes an offer not (yet) turned into an order, still in the status it was read in. */
export async function deleteUnorderedOffer(executor: Executor, id: string, status: string): Promise<number> {
  return executor(OFFERS).where({ id, status }).whereNull('order_id').delete();
}

/** → accepted, from the statuses (as the API shows them) that allow it: the claim of the one accept that places the order. */
export async function claimAccepted(
  executor: Executor,
  customerId: string,
  id: string,
  from: string[],
  now: string,
  version?: number,
): Promise<number> {
  const query = executor(OFFERS).where({ id, customer_id: customerId });
  if (version !== undefined) query.where('version', version);
  return whereEffectiveStatusIn(query, from, now).update({
    status: 'accepted',
    accepted_at: now,
    updated_at: now,
    decline_comment: null,
  });
}

export async function recordOfferOrder(
  executor: Executor,
  id: string,
  order: { id: string; orderNumber: string },
): Promise<void> {
  await executor(OFFERS)
    .where({ id, status: 'accepted' })
    .update({ order_id: order.id, order_number: order.orderNumber });
}

/** → declined, from the statuses (as the API shows them) that allow it. */
export async function markDeclined(
  executor: Executor,
  customerId: string,
  id: string,
  from: string[],
  comment: string | null,
  now: string,
): Promise<number> {
  return whereEffectiveStatusIn(executor(OFFERS).where({ id, customer_id: customerId }), from, now).update({
    status: 'declined',
    declined_at: now,
    decline_comment: comment,
    updated_at: now,
  });
}

/** Records the customer's wish for more time, while the offer is in one of the statuses `from`. */
export async function recordExtensionRequest(
  executor: Executor,
  customerId: string,
  id: string,
  from: readonly string[],
  comment: string | null,
  now: string,
): Promise<number> {
  return whereEffectiveStatusIn(executor(OFFERS).where({ id, customer_id: customerId }), [...from], now).update({
    extension_requested_at: now,
    extension_comment: comment,
    updated_at: now,
  });
}

/** Whether the document belongs to an offer in scope. */
export async function isScopedOfferDocument(
  executor: Executor,
  scope: OfferScope,
  documentId: string,
): Promise<boolean> {
  return !!(await selectRow<{ document_id: string }>(
    scopedOffers(executor, scope)
      .join(`${OFFER_DOCUMENTS} as od`, 'od.offer_id', 'o.id')
      .where('od.document_id', documentId)
      .first('od.document_id'),
  ));
}

/** The customer's latest sent offer in the channel with a line of the product. */
export async function latestSentOfferWithProduct(
  executor: Executor,
  input: { customerId: string; salesChannelId: string; productId: string },
): Promise<OfferRow | null> {
  return (
    (await selectRow<OfferRow>(
      executor(`${OFFERS} as o`)
        .where('o.customer_id', input.customerId)
        .where('o.sales_channel_id', input.salesChannelId)
        .whereNotNull('o.sent_at')
        .whereExists((q) => {
          q.select(1)
            .from(`${OFFER_LINES} as ol`)
            .whereRaw('ol.offer_id = o.id')
            .where('ol.product_id', input.productId);
        })
        .orderBy('o.sent_at', 'desc')
        .orderBy('o.id', 'desc')
        .first('o.*'),
    )) ?? null
  );
}

export async function offerDocumentCount(executor: Executor, offerId: string): Promise<number> {
  const [row] = await selectRows<{ count: unknown }>(
    executor(OFFER_DOCUMENTS).where({ offer_id: offerId }).count({ count: '*' }),
  );
  return Number(row?.count ?? 0);
}

export async function linkOfferDocument(
  executor: Executor,
  offerId: string,
  documentId: string,
  version: number,
): Promise<void> {
  await executor(OFFER_DOCUMENTS).insert({ offer_id: offerId, document_id: documentId, created_at: nowDb(), version });
}

/** The newest document rendered of that version of the offer. */
export async function versionDocumentId(executor: Executor, offerId: string, version: number): Promise<string | null> {
  const row = await selectRow<{ document_id: string }>(
    executor(OFFER_DOCUMENTS).where({ offer_id: offerId, version }).orderBy('created_at', 'desc').first('document_id'),
  );
  return row?.document_id ?? null;
}

export async function offerLines(executor: Executor, offerIds: string[]): Promise<Map<string, OfferLine[]>> {
  const byOffer = new Map<string, OfferLine[]>();
  if (offerIds.length === 0) return byOffer;
  const rows = await selectRows<OfferLineDbRow>(
    executor(OFFER_LINES).whereIn('offer_id', offerIds).orderBy('position').orderBy('id'),
  );
  for (const row of rows) {
    const list = byOffer.get(row.offer_id) ?? [];
    list.push(toLine(row));
    byOffer.set(row.offer_id, list);
  }
  return byOffer;
}

// Line sums are one mechanism for carts, orders, approvals and offers (src/lib/line-items.ts).
export { lineTax, totalsOf } from '../../lib/line-items.js';

/** Re-sums the offer from its lines (after any line change, in the same transaction). */
export async function writeTotals(trx: Executor, offerId: string, extra: Record<string, unknown> = {}): Promise<void> {
  const lines = (await offerLines(trx, [offerId])).get(offerId) ?? [];
  const totals = totalsOf(lines.filter(isOrdered));
  await trx(OFFERS)
    .where({ id: offerId })
    .update({
      net_total: totals.netTotal,
      tax_total: totals.taxTotal,
      total: totals.total,
      updated_at: nowDb(),
      ...extra,
    });
}

/** An offer as the operator's list (across customers) shows it. */
export type AdminOfferListRow = Pick<
  OfferRow,
  'id' | 'offer_number' | 'customer_id' | 'status' | 'valid_until' | 'subject' | 'requested_by_name' | 'currency_iso'
> & { created_at: string };

/** A page of the offers of all customers, oldest first, and how many match (`status` as the API shows it at `now`). */
export async function adminOfferPage(
  executor: Executor,
  status: string | undefined,
  now: string,
  page: number,
  limit: number,
): Promise<{ total: number; rows: AdminOfferListRow[] }> {
  const base = executor(OFFERS);
  if (status) whereEffectiveStatusIn(base, [status], now);
  const [count] = await selectRows<{ n: unknown }>(base.clone().count({ n: '*' }));
  const rows = await selectRows<AdminOfferListRow>(
    base
      .clone()
      .select(
        'id',
        'offer_number',
        'customer_id',
        'status',
        'valid_until',
        'subject',
        'requested_by_name',
        'currency_iso',
        'created_at',
      )
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(limit)
      .offset((page - 1) * limit),
  );
  return { total: readInt(count?.n), rows };
}

/** Whether the customer has an offer with this subject (the demo's seeded offer). */
export async function hasOfferWithSubject(executor: Executor, customerId: string, subject: string): Promise<boolean> {
  return !!(await executor(OFFERS).where({ customer_id: customerId, subject }).first('id'));
}

/** The documents linked to the offers, newest first. */
export async function documentsOfOffers(
  executor: Executor,
  offerIds: string[],
): Promise<Array<{ offer_id: string; document_id: string; created_at: string }>> {
  return selectRows<{ offer_id: string; document_id: string; created_at: string }>(
    executor(OFFER_DOCUMENTS)
      .whereIn('offer_id', offerIds)
      .orderBy('created_at', 'desc')
      .orderBy('document_id', 'desc')
      .select('offer_id', 'document_id', 'created_at'),
  );
}

/** Open offers whose current validity was not reminded of yet. */
function notReminded(query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query.where('status', 'open').where((w) => {
    w.whereNull('expiry_reminder_for').orWhereRaw('expiry_reminder_for <> valid_until');
  });
}

/** Up to `limit` open offers not reminded of whose validity ends after `now` and by `horizon`, soonest first. */
export async function offersToRemindOfExpiry(
  executor: Executor,
  now: string,
  horizon: string,
  limit: number,
): Promise<Array<{ id: string; valid_until: string }>> {
  return selectRows<{ id: string; valid_until: string }>(
    notReminded(executor(OFFERS))
      .where('valid_until', '>', now)
      .where('valid_until', '<=', horizon)
      .orderBy('valid_until')
      .limit(limit)
      .select('id', 'valid_until'),
  );
}

/** Claims the reminder of the offer's validity (a conditional write: 1 for the one claim that wins, else 0). */
export async function claimExpiryReminder(executor: Executor, offerId: string, validUntil: string): Promise<number> {
  return notReminded(executor(OFFERS))
    .where({ id: offerId, valid_until: validUntil })
    .update({ expiry_reminder_for: validUntil });
}

// ---- the negotiation's thread (messages and read marks) and its frozen versions ------------------

export const OFFER_MESSAGES = 'b2b_offer_messages';
export const OFFER_MESSAGE_READS = 'b2b_offer_message_reads';

interface MessageDbRow {
  id: string;
  seq: unknown;
  side: Side;
  author_type: string;
  author_id: string | null;
  author_name: string;
  body: string;
  offer_version: unknown;
  created_at: string;
}

function toMessage(row: MessageDbRow): OfferMessage {
  return {
    id: row.id,
    sequence: readInt(row.seq),
    side: row.side,
    author: { type: row.author_type, id: row.author_id ?? null, name: row.author_name },
    body: row.body,
    offerVersion: readInt(row.offer_version),
    createdAt: fromDbTime(row.created_at)!,
  };
}

/**
 * Appends a message under the offer's row lock (the caller holds it), numbered after the last one;
 * the author has read the thread up to its own message.
 */
export async function insertMessage(
  trx: Executor,
  input: { offerId: string; actor: Actor; body: string; offerVersion: number },
): Promise<OfferMessage> {
  const last = await selectRow<{ seq: unknown }>(
    trx(OFFER_MESSAGES).where({ offer_id: input.offerId }).max({ seq: 'seq' }).first(),
  );
  const seq = readInt(last?.seq ?? 0) + 1;
  const id = newId();
  await trx(OFFER_MESSAGES).insert({
    id,
    offer_id: input.offerId,
    seq,
    side: sideOf(input.actor),
    author_type: input.actor.type,
    author_id: input.actor.id,
    author_name: (input.actor.name || input.actor.email || input.actor.type).slice(0, 255),
    body: input.body,
    offer_version: input.offerVersion,
    created_at: nowDb(),
  });
  await markRead(trx, input.offerId, input.actor, seq);
  return toMessage((await selectRow<MessageDbRow>(trx(OFFER_MESSAGES).where({ id }).first()))!);
}

export async function threadOf(executor: Executor, offerId: string): Promise<OfferMessage[]> {
  return (await selectRows<MessageDbRow>(executor(OFFER_MESSAGES).where({ offer_id: offerId }).orderBy('seq'))).map(
    toMessage,
  );
}

/** Moves the reader's mark forward (never back) to `seq`. */
export async function markRead(executor: Executor, offerId: string, reader: Actor, seq: number): Promise<void> {
  if (!reader.id) return;
  const key = { offer_id: offerId, reader_type: reader.type, reader_id: reader.id };
  const now = nowDb();
  const moved = await executor(OFFER_MESSAGE_READS)
    .where(key)
    .where('last_seq', '<', seq)
    .update({ last_seq: seq, updated_at: now });
  if (moved > 0 || (await selectRow(executor(OFFER_MESSAGE_READS).where(key).first('last_seq')))) return;
  try {
    await executor(OFFER_MESSAGE_READS).insert({ ...key, last_seq: seq, updated_at: now });
  } catch (error) {
    // Another request of the same reader inserted the mark first: move it forward instead.
    if (!isDuplicateKeyError(error)) throw error;
    await executor(OFFER_MESSAGE_READS)
      .where(key)
      .where('last_seq', '<', seq)
      .update({ last_seq: seq, updated_at: now });
  }
}

/** The offers in scope with a message in their thread. */
export async function offersWithMessages(
  executor: Executor,
  scope: OfferScope,
): Promise<Array<{ id: string; offer_number: string }>> {
  return selectRows<{ id: string; offer_number: string }>(
    scopedOffers(executor, scope)
      .whereExists((q) => {
        q.select(1).from(`${OFFER_MESSAGES} as m`).whereRaw('m.offer_id = o.id');
      })
      .select('o.id', 'o.offer_number'),
  );
}

/** Per offer: messages of the other side after the reader's mark. */
export async function unreadCounts(
  executor: Executor,
  offerIds: string[],
  reader: Actor,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (offerIds.length === 0) return counts;
  const rows = await selectRows<{ offer_id: string; n: unknown }>(
    executor(`${OFFER_MESSAGES} as m`)
      .leftJoin(`${OFFER_MESSAGE_READS} as r`, (join: Knex.JoinClause) => {
        join
          .on('r.offer_id', '=', 'm.offer_id')
          .andOn('r.reader_type', '=', executor.raw('?', [reader.type]))
          .andOn('r.reader_id', '=', executor.raw('?', [reader.id ?? '']));
      })
      .whereIn('m.offer_id', offerIds)
      .whereNot('m.side', sideOf(reader))
      .where((w) => {
        w.whereNull('r.last_seq').orWhereRaw('m.seq > r.last_seq');
      })
      .groupBy('m.offer_id')
      .select('m.offer_id', executor.raw('count(*) as n')),
  );
  for (const row of rows) counts.set(row.offer_id, readInt(row.n));
  return counts;
}

export const OFFER_VERSIONS = 'b2b_offer_versions';

interface VersionDbRow {
  id: string;
  version: unknown;
  side: Side;
  author_type: string;
  author_id: string | null;
  author_name: string;
  snapshot: unknown;
  created_at: string;
}

function toVersion(row: VersionDbRow): OfferVersion {
  return {
    id: row.id,
    version: readInt(row.version),
    side: row.side,
    author: { type: row.author_type, id: row.author_id ?? null, name: row.author_name },
    createdAt: fromDbTime(row.created_at)!,
    snapshot: readJson<VersionSnapshot>(row.snapshot, { lines: [] } as unknown as VersionSnapshot),
  };
}

export async function isSealed(executor: Executor, offerId: string, version: number): Promise<boolean> {
  return !!(await selectRow(executor(OFFER_VERSIONS).where({ offer_id: offerId, version }).first('id')));
}

/** A frozen version of the offer (`sealVersion`): who handed it over, and its terms and positions. */
export async function insertVersion(
  executor: Executor,
  input: { offerId: string; version: number; side: Side; actor: Actor; snapshot: VersionSnapshot },
): Promise<void> {
  await executor(OFFER_VERSIONS).insert({
    id: newId(),
    offer_id: input.offerId,
    version: input.version,
    side: input.side,
    author_type: input.actor.type,
    author_id: input.actor.id,
    author_name: (input.actor.name || input.actor.email || input.actor.type).slice(0, 255),
    snapshot: writeJson(input.snapshot),
    created_at: nowDb(),
  });
}

export async function offerVersions(executor: Executor, offerId: string): Promise<OfferVersion[]> {
  return (await selectRows<VersionDbRow>(executor(OFFER_VERSIONS).where({ offer_id: offerId }).orderBy('version'))).map(
    toVersion,
  );
}

export async function offerVersion(executor: Executor, offerId: string, version: number): Promise<OfferVersion | null> {
  const row = await selectRow<VersionDbRow>(executor(OFFER_VERSIONS).where({ offer_id: offerId, version }).first());
  return row ? toVersion(row) : null;
}

/** The customers were deleted by the host (contract event): their offers (lines and document links by foreign key) go with them. */
export async function deleteCustomersOffers(executor: Executor, customerIds: string[]): Promise<void> {
  await executor(OFFERS).whereIn('customer_id', customerIds).delete();
}
