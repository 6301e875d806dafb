import type { Actor } from '../../contract/index.js';
import { readInt, type Executor } from '../../lib/db.js';
import { fromMinor } from '../../lib/money.js';
import { fromDbTime } from '../../lib/time.js';
import { percentOf } from './pricing.js';
import { findOffer, insertVersion, isSealed, offerLines, type OfferLine, type OfferRow } from './repository.js';

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

/**
 * Freezes the offer's current version as `side` hands it over (the representative mails it, the
 * customer sends its changes). A version is frozen once: sending the same version again keeps it.
 */
export async function sealVersion(executor: Executor, offerId: string, side: Side, actor: Actor): Promise<number> {
  const offer = (await findOffer(executor, offerId))!;
  const version = readInt(offer.version ?? 1);
  if (await isSealed(executor, offerId, version)) return version;
  const lines = (await offerLines(executor, [offerId])).get(offerId) ?? [];
  await insertVersion(executor, { offerId, version, side, actor, snapshot: snapshotOf(offer, lines) });
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
