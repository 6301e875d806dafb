import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { inTransaction, readInt } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { fromMinor } from '../../../lib/money.js';
import { createOfferDocument } from '../documents.js';
import type { OfferMessage } from '../messages.js';
import { percentOf } from '../pricing.js';
import {
  markRead,
  offersWithMessages,
  offerVersion,
  offerVersions,
  threadOf,
  unreadCounts,
  versionDocumentId,
  type OfferRow,
} from '../repository.js';
import { diffVersions, type OfferVersion } from '../versions.js';
import { scopeOf, visibleOffer } from './access.js';

/** The thread, oldest first; reading it marks it read for the caller. */
export async function readThread(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
): Promise<{ unreadBefore: number; elements: OfferMessage[] }> {
  await visibleOffer(host, ctx, id);
  const unreadBefore = (await unreadCounts(host.db, [id], ctx.actor)).get(id) ?? 0;
  const elements = await threadOf(host.db, id);
  const last = elements.at(-1);
  if (last) await markRead(host.db, id, ctx.actor, last.sequence);
  return { unreadBefore, elements };
}

/** Unread messages of the other side, per offer the caller sees (only offers with some). */
export async function unreadSummary(
  host: HostRuntime,
  ctx: StoreContext,
): Promise<{ total: number; offers: Array<{ offerId: string; offerNumber: string; unread: number }> }> {
  const offers = await offersWithMessages(host.db, await scopeOf(host, ctx, host.db));
  const counts = await unreadCounts(
    host.db,
    offers.map((o) => o.id),
    ctx.actor,
  );
  const list = offers
    .filter((o) => (counts.get(o.id) ?? 0) > 0)
    .map((o) => ({ offerId: o.id, offerNumber: o.offer_number, unread: counts.get(o.id)! }));
  return { total: list.reduce((sum, o) => sum + o.unread, 0), offers: list };
}

/** A frozen version at the edge: terms and totals in currency units, positions as the offer shows them. */
function versionView(version: OfferVersion, precision: number, documentId: string | null) {
  const s = version.snapshot;
  const money = (minor: number) => fromMinor(minor, precision);
  return {
    id: version.id,
    version: version.version,
    side: version.side,
    author: version.author,
    createdAt: version.createdAt,
    documentId,
    subject: s.subject,
    commission: s.commission,
    salesComment: s.salesComment,
    validUntil: s.validUntil,
    discount: percentOf(s.discountBp),
    netTotal: money(s.netTotal),
    taxTotal: money(s.taxTotal),
    total: money(s.total),
    currencyIso: s.currencyIso,
    lineItems: s.lines.map((line) => ({
      id: line.id,
      kind: line.kind,
      productId: line.productId,
      productNumber: line.productNumber,
      label: line.label,
      quantity: line.quantity,
      listPrice: money(line.listUnitNet),
      basePrice: money(line.baseUnitNet),
      discount: percentOf(line.discountBp),
      unitPrice: money(line.unitNet),
      totalPrice: money(line.totalNet),
      taxRate: line.taxRateBp / 100,
      optional: line.optional,
      selected: line.selected,
      comment: line.comment,
    })),
  };
}

export type OfferVersionView = ReturnType<typeof versionView>;

/** The versions handed over so far (a version still being worked on by the representative is not among them). */
export async function listVersions(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
): Promise<{ current: number; elements: OfferVersionView[] }> {
  const offer = await visibleOffer(host, ctx, id);
  const versions = await offerVersions(host.db, id);
  const elements: OfferVersionView[] = [];
  for (const version of versions)
    elements.push(
      versionView(version, ctx.salesChannel.currencyPrecision, await versionDocumentId(host.db, id, version.version)),
    );
  return { current: readInt(offer.version ?? 1), elements };
}

async function sealedVersion(host: HostRuntime, offer: OfferRow, version: number): Promise<OfferVersion> {
  const found = await offerVersion(host.db, offer.id, version);
  if (!found) throw Errors.notFound('Offer version', String(version));
  return found;
}

export async function readVersion(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  version: number,
): Promise<OfferVersionView> {
  const offer = await visibleOffer(host, ctx, id);
  return versionView(
    await sealedVersion(host, offer, version),
    ctx.salesChannel.currencyPrecision,
    await versionDocumentId(host.db, id, version),
  );
}

/** What changed from `against` (default: the version before) to `version`. */
export async function diffOfVersions(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  version: number,
  against?: number,
) {
  const offer = await visibleOffer(host, ctx, id);
  const base = against ?? version - 1;
  if (base < 1)
    throw Errors.badRequest(
      'SUITE__OFFER_NO_EARLIER_VERSION',
      'Version 1 has no version before it; name another with `against`.',
      { pointer: '/against' },
    );
  const [from, to] = [await sealedVersion(host, offer, base), await sealedVersion(host, offer, version)];
  return { from: base, to: version, ...diffVersions(from.snapshot, to.snapshot, ctx.salesChannel.currencyPrecision) };
}

/** The PDF of a version: the one mailed with it, else rendered from the version once and kept. */
export async function versionDocument(host: HostRuntime, ctx: StoreContext, id: string, version: number) {
  const offer = await visibleOffer(host, ctx, id);
  const frozen = await sealedVersion(host, offer, version);
  let documentId = await versionDocumentId(host.db, id, version);
  if (!documentId)
    documentId = await inTransaction(host.db, async (trx) => {
      const locked = await visibleOffer(host, ctx, id, trx, true);
      const existing = await versionDocumentId(trx, id, version);
      if (existing) return existing;
      const customer = await host.customers.get(trx, locked.customer_id);
      if (!customer) throw Errors.notFound('Offer', id);
      const salesChannel = (await host.customers.salesChannel(trx, locked.sales_channel_id)) ?? ctx.salesChannel;
      const s = frozen.snapshot;
      const asOffered: OfferRow = {
        ...locked,
        subject: s.subject,
        commission: s.commission,
        sales_comment: s.salesComment,
        valid_until: s.validUntil ? s.validUntil.replace('T', ' ').replace('Z', '') : null,
        discount_bp: s.discountBp,
        net_total: s.netTotal,
        tax_total: s.taxTotal,
        total: s.total,
      };
      return (
        await createOfferDocument(host, trx, {
          offer: asOffered,
          lines: s.lines,
          customer,
          salesChannel,
          representativeName: null,
          version,
        })
      ).id;
    });
  const document = await host.documents.get(host.db, documentId);
  if (!document) throw Errors.notFound('Offer document', documentId);
  return document;
}
