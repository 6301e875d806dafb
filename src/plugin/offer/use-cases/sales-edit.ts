import type { HostRuntime, StoreContext } from '../../../host/contract.js';
import { inTransaction, type Trx } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { nowDb, toDbTime } from '../../../lib/time.js';
import { requireRepresentative } from '../../sales-representative/index.js';
import { deleteOfferLines, effectiveStatus, insertOfferLines, offerLines, updateOfferLine, writeTotals, type NewOfferLine, type OfferRow } from '../repository.js';
import { type OfferView } from '../views.js';
import { MAX_OFFER_LINES } from '../schemas.js';
import { OFFER_TRANSITIONS } from '../states.js';
import { lineTotal, minorOf, viewOffer, visibleOffer, visibleProducts } from './access.js';
import { declaredRepresentative } from '../../declared.js';

export interface SalesUpdateInput {
  subject?: string;
  commission?: string;
  salesComment?: string | null;
  validUntil?: string;
  lineItems?: Array<{ id: string; unitPrice?: number; quantity?: number; comment?: string | null }>;
  removeLineItemIds?: string[];
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
export async function salesUpdate(host: HostRuntime, ctx: StoreContext, id: string, input: SalesUpdateInput): Promise<OfferView> {
  const rep = requireRepresentative(ctx);
  const precision = ctx.salesChannel.currencyPrecision;
  const removed = new Set(input.removeLineItemIds ?? []);
  const changes = (input.lineItems ?? []).map((change, index) => {
    const pointer = `/lineItems/${index}`;
    if (removed.has(change.id))
      throw Errors.badRequest('SUITE__OFFER_LINE_ITEM_CONFLICT', 'A line item cannot be changed and removed at once.', { pointer: `${pointer}/id` });
    return { ...change, pointer, unitNet: change.unitPrice === undefined ? undefined : minorOf(change.unitPrice, precision, `${pointer}/unitPrice`) };
  });
  if (new Set(changes.map((c) => c.id)).size !== changes.length)
    throw Errors.badRequest('SUITE__OFFER_LINE_ITEM_CONFLICT', 'Each line item may appear once.', { pointer: '/lineItems' });
  let validUntil: string | undefined;
  if (input.validUntil !== undefined) {
    const at = new Date(input.validUntil);
    if (at.getTime() <= Date.now()) throw Errors.badRequest('SUITE__OFFER_VALIDITY_PAST', 'The validity must end in the future.', { pointer: '/validUntil' });
    validUntil = toDbTime(at);
  }

  await inTransaction(host.db, async (trx) => {
    const offer = await editableOffer(host, ctx, id, trx);
    const lines = (await offerLines(trx, [id])).get(id) ?? [];
    const byId = new Map(lines.map((line) => [line.id, line]));
    for (const lineId of removed)
      if (!byId.has(lineId)) throw Errors.badRequest('SUITE__OFFER_LINE_ITEM_NOT_FOUND', `The offer has no line item "${lineId}".`, { pointer: '/removeLineItemIds' });
    if (removed.size >= lines.length) throw Errors.badRequest('SUITE__OFFER_EMPTY', 'An offer keeps at least one line item.', { pointer: '/removeLineItemIds' });
    for (const change of changes) {
      const line = byId.get(change.id);
      if (!line) throw Errors.badRequest('SUITE__OFFER_LINE_ITEM_NOT_FOUND', `The offer has no line item "${change.id}".`, { pointer: `${change.pointer}/id` });
      const unitNet = change.unitNet ?? line.unitNet;
      const quantity = change.quantity ?? line.quantity;
      await updateOfferLine(trx, id, line.id, { unitNet, quantity, totalNet: lineTotal(unitNet, quantity, change.pointer), comment: change.comment });
    }
    await deleteOfferLines(trx, id, [...removed]);
    const extra: Record<string, unknown> = { status: 'draft', sales_representative_id: rep.id };
    if (input.subject !== undefined) extra.subject = input.subject;
    if (input.commission !== undefined) extra.commission = input.commission;
    if (input.salesComment !== undefined) extra.sales_comment = input.salesComment;
    if (validUntil !== undefined) Object.assign(extra, { valid_until: validUntil, extension_requested_at: null });
    await writeTotals(trx, offer.id, extra);
  });
  return viewOffer(host, ctx, id);
}

/** A representative adds products, priced for the offer's customer (or at a price it sets). */
export async function addProducts(host: HostRuntime, ctx: StoreContext, id: string, items: Array<{ productId: string; quantity: number; price?: number; comment?: string | null }>): Promise<void> {
  const rep = declaredRepresentative(ctx);
  const target = await visibleOffer(host, ctx, id);
  const pricing = await pricingContext(host, ctx, target.customer_id);
  const products = await visibleProducts(host, pricing, items.map((item) => item.productId));
  const lines: NewOfferLine[] = [];
  for (const [index, item] of items.entries()) {
    const pointer = `/object/${index}`;
    const product = products.get(item.productId);
    if (!product) throw Errors.badRequest('SUITE__OFFER_PRODUCT_NOT_AVAILABLE', `The product "${item.productId}" is not available to this customer.`, { pointer: `${pointer}/productId` });
    const calculated = await host.prices.calculate(pricing, product, item.quantity);
    const unitNet = item.price === undefined ? calculated.unitNet : minorOf(item.price, ctx.salesChannel.currencyPrecision, `${pointer}/price`);
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
  await inTransaction(host.db, async (trx) => {
    const offer = await editableOffer(host, ctx, id, trx);
    const existing = (await offerLines(trx, [id])).get(id) ?? [];
    if (existing.length + lines.length > MAX_OFFER_LINES)
      throw Errors.badRequest('SUITE__OFFER_TOO_MANY_LINES', `An offer holds at most ${MAX_OFFER_LINES} lines.`, { pointer: '/object' });
    await insertOfferLines(trx, id, existing.reduce((max, line) => Math.max(max, line.position + 1), 0), lines, nowDb());
    await writeTotals(trx, offer.id, { status: 'draft', sales_representative_id: rep.id });
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
    actor: { type: 'customer', id: customer.id, name: `${customer.firstName} ${customer.lastName}`.trim(), email: customer.email },
    employee: null,
    salesRepresentative: null,
    permissions: 'all',
    can: () => true,
    ruleIds: () => (ruleIds ??= host.rules.matchingRuleIds(derived)),
  };
  await derived.ruleIds();
  return derived;
}
