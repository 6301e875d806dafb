import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { inTransaction, readInt, type Trx } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { nowDb, nowMs, toDbTime } from '../../../lib/time.js';
import { requireRepresentative } from '../../sales-representative/index.js';
import {
  deleteOfferLines,
  effectiveStatus,
  insertOfferLines,
  offerLines,
  updateOfferLine,
  writeTotals,
  type NewOfferLine,
  type OfferRow,
} from '../repository.js';
import { type OfferView } from '../views.js';
import { MAX_OFFER_LINES } from '../schemas.js';
import { OFFER_TRANSITIONS } from '../states.js';
import { lineTotal, minorOf, viewOffer, visibleOffer, visibleProducts } from './access.js';
import { declaredRepresentative } from '../../declared.js';
import { assertAllowedQuantities } from '../../quantity-rule/index.js';
import { basisPointsOf, discountedUnitNet } from '../pricing.js';
import { versionForChange } from '../versions.js';

export interface SalesUpdateInput {
  subject?: string;
  commission?: string;
  salesComment?: string | null;
  validUntil?: string;
  lineItems?: Array<{
    id: string;
    unitPrice?: number;
    quantity?: number;
    comment?: string | null;
    discount?: number;
    optional?: boolean;
    label?: string;
  }>;
  removeLineItemIds?: string[];
  /** Whole-offer discount in percent. */
  discount?: number;
}

/**
 * Loads an offer the sales side may change, locked; any sales change makes it a `draft`, so the
 * transition table decides (the customer only decides on what was mailed).
 */
export async function editableOffer(host: HostRuntime, ctx: StoreContext, id: string, trx: Trx): Promise<OfferRow> {
  declaredRepresentative(ctx);
  const row = await visibleOffer(host, ctx, id, trx, true);
  OFFER_TRANSITIONS.assert(effectiveStatus(row), 'draft');
  return row;
}

/** A representative changes prices, quantities, comments, validity or removes lines. */
export async function salesUpdate(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  input: SalesUpdateInput,
): Promise<OfferView> {
  const rep = requireRepresentative(ctx);
  const precision = ctx.salesChannel.currencyPrecision;
  const removed = new Set(input.removeLineItemIds ?? []);
  const changes = (input.lineItems ?? []).map((change, index) => {
    const pointer = `/lineItems/${index}`;
    if (removed.has(change.id))
      throw Errors.badRequest('SUITE__OFFER_LINE_ITEM_CONFLICT', 'A line item cannot be changed and removed at once.', {
        pointer: `${pointer}/id`,
      });
    return {
      ...change,
      pointer,
      unitNet:
        change.unitPrice === undefined ? undefined : minorOf(change.unitPrice, precision, `${pointer}/unitPrice`),
      discountBp: change.discount === undefined ? undefined : basisPointsOf(change.discount, `${pointer}/discount`),
    };
  });
  if (new Set(changes.map((c) => c.id)).size !== changes.length)
    throw Errors.badRequest('SUITE__OFFER_LINE_ITEM_CONFLICT', 'Each line item may appear once.', {
      pointer: '/lineItems',
    });
  let validUntil: string | undefined;
  if (input.validUntil !== undefined) {
    const at = new Date(input.validUntil);
    if (at.getTime() <= nowMs())
      throw Errors.badRequest('SUITE__OFFER_VALIDITY_PAST', 'The validity must end in the future.', {
        pointer: '/validUntil',
      });
    validUntil = toDbTime(at);
  }

  const offerDiscountBp = input.discount === undefined ? undefined : basisPointsOf(input.discount, '/discount');

  await inTransaction(host.db, async (trx) => {
    const offer = await editableOffer(host, ctx, id, trx);
    const version = await versionForChange(trx, offer);
    const discountBp = offerDiscountBp ?? readInt(offer.discount_bp ?? 0);
    const lines = (await offerLines(trx, [id])).get(id) ?? [];
    const byId = new Map(lines.map((line) => [line.id, line]));
    for (const lineId of removed)
      if (!byId.has(lineId))
        throw Errors.badRequest('SUITE__OFFER_LINE_ITEM_NOT_FOUND', `The offer has no line item "${lineId}".`, {
          pointer: '/removeLineItemIds',
        });
    if (removed.size >= lines.length)
      throw Errors.badRequest('SUITE__OFFER_EMPTY', 'An offer keeps at least one line item.', {
        pointer: '/removeLineItemIds',
      });
    const changeById = new Map(changes.map((change) => [change.id, change]));
    for (const change of changes)
      if (!byId.has(change.id))
        throw Errors.badRequest('SUITE__OFFER_LINE_ITEM_NOT_FOUND', `The offer has no line item "${change.id}".`, {
          pointer: `${change.pointer}/id`,
        });
    // Every remaining line is re-priced: a whole-offer discount applies to all of them.
    for (const line of lines) {
      if (removed.has(line.id)) continue;
      const change = changeById.get(line.id);
      if (!change && offerDiscountBp === undefined) continue;
      const pointer = change?.pointer ?? '/discount';
      if (
        line.kind === 'heading' &&
        change &&
        (change.unitNet !== undefined ||
          change.quantity !== undefined ||
          change.discountBp !== undefined ||
          change.optional !== undefined)
      )
        throw Errors.badRequest(
          'SUITE__OFFER_HEADING_NOT_PRICED',
          'A heading has no price, quantity, discount or option.',
          { pointer },
        );
      const baseUnitNet = change?.unitNet ?? line.baseUnitNet;
      const lineDiscountBp = change?.discountBp ?? line.discountBp;
      const quantity = change?.quantity ?? line.quantity;
      const unitNet = line.kind === 'heading' ? 0 : discountedUnitNet(baseUnitNet, lineDiscountBp, discountBp);
      const optional = change?.optional;
      if (change?.quantity !== undefined && line.productId)
        await assertAllowedQuantities(trx, [
          { productId: line.productId, quantity, label: line.label, pointer: `${pointer}/quantity` },
        ]);
      await updateOfferLine(trx, id, line.id, {
        unitNet,
        quantity,
        totalNet: lineTotal(unitNet, quantity, pointer),
        comment: change?.comment,
        baseUnitNet,
        discountBp: lineDiscountBp,
        label: change?.label,
        // A position made optional starts unticked: the customer decides.
        ...(optional !== undefined && optional !== line.optional ? { optional, selected: !optional } : {}),
      });
    }
    await deleteOfferLines(trx, id, [...removed]);
    const extra: Record<string, unknown> = {
      status: 'draft',
      sales_representative_id: rep.id,
      version,
      discount_bp: discountBp,
    };
    if (input.subject !== undefined) extra.subject = input.subject;
    if (input.commission !== undefined) extra.commission = input.commission;
    if (input.salesComment !== undefined) extra.sales_comment = input.salesComment;
    if (validUntil !== undefined) Object.assign(extra, { valid_until: validUntil, extension_requested_at: null });
    await writeTotals(trx, offer.id, extra);
  });
  return viewOffer(host, ctx, id);
}

/** A representative adds products, priced for the offer's customer (or at a price it sets). */
export async function addProducts(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  items: Array<{ productId: string; quantity: number; price?: number; comment?: string | null }>,
): Promise<void> {
  const rep = declaredRepresentative(ctx);
  const target = await visibleOffer(host, ctx, id);
  const pricing = await pricingContext(host, ctx, target.customer_id);
  const products = await visibleProducts(
    host,
    pricing,
    items.map((item) => item.productId),
  );
  const lines: NewOfferLine[] = [];
  for (const [index, item] of items.entries()) {
    const pointer = `/object/${index}`;
    const product = products.get(item.productId);
    if (!product)
      throw Errors.badRequest(
        'SUITE__OFFER_PRODUCT_NOT_AVAILABLE',
        `The product "${item.productId}" is not available to this customer.`,
        { pointer: `${pointer}/productId` },
      );
    const calculated = await host.prices.calculate(host.db, pricing, product, item.quantity);
    const unitNet =
      item.price === undefined
        ? calculated.unitNet
        : minorOf(item.price, ctx.salesChannel.currencyPrecision, `${pointer}/price`);
    lineTotal(unitNet, item.quantity, pointer);
    lines.push({
      productId: product.id,
      productNumber: product.productNumber,
      label: product.name,
      quantity: item.quantity,
      unitNet,
      taxRateBp: calculated.taxRateBp,
      comment: item.comment ?? null,
      sourceLineItemId: null,
      payload: {},
      type: 'product',
      listUnitNet: calculated.unitNet,
    });
  }
  await assertAllowedQuantities(
    host.db,
    lines.map((line, index) => ({
      productId: line.productId,
      quantity: line.quantity,
      label: line.label,
      pointer: `/object/${index}/quantity`,
    })),
  );
  await appendPositions(host, ctx, id, lines, '/object', rep.id);
}

/**
 * Appends positions under the offer's lock: priced with the whole-offer discount, in the version
 * this change belongs to (versionForChange), and the offer back to the sales side's draft.
 */
export async function appendPositions(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  lines: NewOfferLine[],
  pointer: string,
  representativeId: string,
): Promise<void> {
  await inTransaction(host.db, async (trx) => {
    const offer = await editableOffer(host, ctx, id, trx);
    const version = await versionForChange(trx, offer);
    const discountBp = readInt(offer.discount_bp ?? 0);
    const existing = (await offerLines(trx, [id])).get(id) ?? [];
    if (existing.length + lines.length > MAX_OFFER_LINES)
      throw Errors.badRequest('SUITE__OFFER_TOO_MANY_LINES', `An offer holds at most ${MAX_OFFER_LINES} lines.`, {
        pointer,
      });
    const priced = lines.map((line) => {
      const baseUnitNet = line.baseUnitNet ?? line.unitNet;
      const unitNet = line.kind === 'heading' ? 0 : discountedUnitNet(baseUnitNet, line.discountBp ?? 0, discountBp);
      return { ...line, baseUnitNet, unitNet };
    });
    await insertOfferLines(
      trx,
      id,
      existing.reduce((max, line) => Math.max(max, line.position + 1), 0),
      priced,
      nowDb(),
    );
    await writeTotals(trx, offer.id, { status: 'draft', sales_representative_id: representativeId, version });
  });
}

/** A representative acting for another assigned customer prices for that customer (its rules, its prices). */
async function pricingContext(host: HostRuntime, ctx: StoreContext, customerId: string): Promise<StoreContext> {
  if (ctx.customer?.id === customerId) return ctx;
  const customer = await host.customers.get(host.db, customerId);
  if (!customer) throw Errors.notFound('Customer', customerId);
  let ruleIds: Promise<string[]> | null = null;
  const derived: StoreContext = {
    ...ctx,
    customer,
    actor: {
      type: 'customer',
      id: customer.id,
      name: `${customer.firstName} ${customer.lastName}`.trim(),
      email: customer.email,
    },
    employee: null,
    salesRepresentative: null,
    permissions: 'all',
    can: () => true,
    ruleIds: () => (ruleIds ??= host.rules.matchingRuleIds(host.db, derived)),
  };
  await derived.ruleIds();
  return derived;
}
