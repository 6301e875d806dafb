import type { Actor } from '../../host/contract.js';
import { readInt, readJson, selectRow, selectRows, writeJson, type Executor } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { fromMinor } from '../../lib/money.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import { percentOf } from './pricing.js';
import { offerLines, OFFERS, type OfferLine, type OfferRow } from './repository.js';

export const OFFER_VERSIONS = 'b2b_offer_versions';

export type Side = 'customer' | 'sales';

/** What a version froze: the offer's terms and every position, in minor units. */
export interface VersionSnapshot {
  subject: string;
  commission: string;
  salesComment: string | null;
  customerComment: string | null;
  validUntil: string | null;
  discountBp: number;
  netTotal: number;
  taxTotal: number;
  total: number;
  currencyIso: string;
  lines: OfferLine[];
}

export interface OfferVersion {
  id: string;
  version: number;
  side: Side;
  author: { type: string; id: string | null; name: string };
  createdAt: string;
  snapshot: VersionSnapshot;
}

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

export function snapshotOf(offer: OfferRow, lines: OfferLine[]): VersionSnapshot {
  return {
    subject: offer.subject,
    commission: offer.commission,
    salesComment: offer.sales_comment ?? null,
    customerComment: offer.customer_comment ?? null,
    validUntil: fromDbTime(offer.valid_until),
    discountBp: readInt(offer.discount_bp ?? 0),
    netTotal: readInt(offer.net_total),
    taxTotal: readInt(offer.tax_total),
    total: readInt(offer.total),
    currencyIso: offer.currency_iso,
    lines,
  };
}

export async function isSealed(executor: Executor, offerId: string, version: number): Promise<boolean> {
  return !!(await selectRow(executor(OFFER_VERSIONS).where({ offer_id: offerId, version }).first('id')));
}

/**
 * Freezes the offer's current version as `side` hands it over (the representative mails it, the
 * customer sends its changes). A version is frozen once: sending the same version again keeps it.
 */
export async function sealVersion(executor: Executor, offerId: string, side: Side, actor: Actor): Promise<number> {
  const offer = (await selectRow<OfferRow>(executor(OFFERS).where({ id: offerId }).first()))!;
  const version = readInt(offer.version ?? 1);
  if (await isSealed(executor, offerId, version)) return version;
  const lines = (await offerLines(executor, [offerId])).get(offerId) ?? [];
  await executor(OFFER_VERSIONS).insert({
    id: newId(),
    offer_id: offerId,
    version,
    side,
    author_type: actor.type,
    author_id: actor.id,
    author_name: (actor.name || actor.email || actor.type).slice(0, 255),
    snapshot: writeJson(snapshotOf(offer, lines)),
    created_at: nowDb(),
  });
  return version;
}

/**
 * Before a change of the offer (under its row lock): a change to a version the other side has
 * already been handed starts the next version; a change to a version still being worked on stays in it.
 */
export async function versionForChange(executor: Executor, offer: OfferRow): Promise<number> {
  const current = readInt(offer.version ?? 1);
  return (await isSealed(executor, offer.id, current)) ? current + 1 : current;
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

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface LineChange {
  lineItemId: string;
  change: 'added' | 'removed' | 'changed';
  label: string;
  kind: string;
  fields: FieldChange[];
}

/** A position's fields as the diff compares them (amounts in currency units). */
function lineFields(line: OfferLine, precision: number): Record<string, unknown> {
  return {
    label: line.label,
    kind: line.kind,
    quantity: line.quantity,
    basePrice: fromMinor(line.baseUnitNet, precision),
    discount: percentOf(line.discountBp),
    unitPrice: fromMinor(line.unitNet, precision),
    totalPrice: fromMinor(line.totalNet, precision),
    optional: line.optional,
    selected: line.selected,
    comment: line.comment,
  };
}

/** What changed from one version to another: the offer's terms and totals, then position by position (by line id). */
export function diffVersions(
  from: VersionSnapshot,
  to: VersionSnapshot,
  precision: number,
): { offer: FieldChange[]; lineItems: LineChange[] } {
  const money = (minor: number) => fromMinor(minor, precision);
  const terms = (s: VersionSnapshot): Record<string, unknown> => ({
    subject: s.subject,
    commission: s.commission,
    salesComment: s.salesComment,
    validUntil: s.validUntil,
    discount: percentOf(s.discountBp),
    netTotal: money(s.netTotal),
    taxTotal: money(s.taxTotal),
    total: money(s.total),
  });
  const changed = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    Object.keys(b)
      .filter((field) => JSON.stringify(a[field] ?? null) !== JSON.stringify(b[field] ?? null))
      .map((field) => ({ field, before: a[field] ?? null, after: b[field] ?? null }));
  const before = new Map(from.lines.map((line) => [line.id, line]));
  const after = new Map(to.lines.map((line) => [line.id, line]));
  const lineItems: LineChange[] = [];
  for (const line of to.lines) {
    const old = before.get(line.id);
    if (!old)
      lineItems.push({
        lineItemId: line.id,
        change: 'added',
        label: line.label,
        kind: line.kind,
        fields: changed({}, lineFields(line, precision)),
      });
    else {
      const fields = changed(lineFields(old, precision), lineFields(line, precision));
      if (fields.length)
        lineItems.push({ lineItemId: line.id, change: 'changed', label: line.label, kind: line.kind, fields });
    }
  }
  for (const line of from.lines)
    if (!after.has(line.id))
      lineItems.push({
        lineItemId: line.id,
        change: 'removed',
        label: line.label,
        kind: line.kind,
        fields: Object.entries(lineFields(line, precision)).map(([field, value]) => ({
          field,
          before: value,
          after: null,
        })),
      });
  return { offer: changed(terms(from), terms(to)), lineItems };
}
