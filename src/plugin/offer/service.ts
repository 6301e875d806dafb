import type { Knex } from 'knex';
import type { CustomerRef, HostRuntime, PriceLine, ProductRecord, SalesChannel, StoreContext } from '../../host/contract.js';
import { searchByCriteria, type Criteria } from '../../lib/criteria.js';
import { forUpdate, inTransaction, writeJson, type Executor, type Trx } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { toMinor } from '../../lib/money.js';
import { addSeconds, nowDb, toDbTime } from '../../lib/time.js';
import { assignedCustomerIds, isAssigned, representativeOfCustomer, requireRepresentative } from '../sales-representative/index.js';
import { createOfferDocument } from './documents.js';
import { MAIL, offerMailData } from './mail.js';
import {
  allStates,
  effectiveStatus,
  expireDue,
  findOffer,
  OFFER_DOCUMENTS,
  OFFER_LINES,
  OFFER_STATES,
  OFFERS,
  offerLines,
  offerViews,
  statesWith,
  toState,
  totalsOf,
  whereEffectiveStatusIn,
  writeTotals,
  type OfferLine,
  type OfferRow,
  type OfferState,
  type OfferView,
  type StateFlag,
} from './repository.js';
import { MAX_OFFER_LINES, offerCriteria, stateCriteria } from './schemas.js';

export const OFFER_ORIGIN = 'offer';
/** Keeps every sum of an offer a safe integer: 500 lines of at most this many minor units each. */
const MAX_LINE_TOTAL_MINOR = 1e13;

export interface OfferRequestInput {
  billigAddressId?: string | null;
  deliverAddressId?: string | null;
  subject?: string;
  commission?: string;
  customerComment?: string | null;
}

interface NewLine {
  productId: string;
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
}

export interface SalesUpdateInput {
  subject?: string;
  commission?: string;
  salesComment?: string | null;
  validUntil?: string;
  lineItems?: Array<{ id: string; unitPrice?: number; quantity?: number; comment?: string | null }>;
  removeLineItemIds?: string[];
}

function requireCustomer(ctx: StoreContext): CustomerRef {
  if (!ctx.customer) throw Errors.forbidden('Choose a customer to act for first.', 'SUITE__NO_CUSTOMER_CONTEXT');
  return ctx.customer;
}

function isRepresentative(ctx: StoreContext): boolean {
  return ctx.actor.type === 'salesRepresentative' && ctx.salesRepresentative !== null;
}

/** Accepting, declining and asking for more time are the customer's decisions, not the sales side's. */
function requireCustomerSide(ctx: StoreContext): CustomerRef {
  if (ctx.actor.type !== 'customer' && ctx.actor.type !== 'employee')
    throw Errors.forbidden('Only the customer or its employees may do this with an offer.', 'SUITE__OFFER_CUSTOMER_ONLY');
  return requireCustomer(ctx);
}

function lineTotal(unitNet: number, quantity: number, pointer: string): number {
  const total = unitNet * quantity;
  if (!Number.isSafeInteger(total) || total > MAX_LINE_TOTAL_MINOR)
    throw Errors.badRequest('SUITE__OFFER_AMOUNT_TOO_LARGE', 'The line total is too large.', { pointer });
  return total;
}

/** An amount at the edge in minor units; more decimals than the currency has are refused, not rounded away. */
function minorOf(amount: number, precision: number, pointer: string): number {
  const minor = toMinor(amount, precision);
  if (Math.abs(minor - amount * 10 ** precision) > 1e-6)
    throw Errors.badRequest('SUITE__INVALID_AMOUNT', `Amounts have at most ${precision} decimal places.`, { pointer });
  return minor;
}

const notEditable = (status: string) => Errors.badRequest('SUITE__OFFER_NOT_EDITABLE', `The offer is ${status}; it can no longer be changed.`);

export class OfferService {
  constructor(private readonly host: HostRuntime) {}

  private get db() {
    return this.host.db;
  }

  // ---- scope -------------------------------------------------------------------------------

  /** The customers whose offers the caller may see: a representative every assigned customer, everyone else their customer. */
  private async scopeCustomerIds(ctx: StoreContext, executor: Executor): Promise<string[]> {
    if (isRepresentative(ctx)) return assignedCustomerIds(this.host, executor, ctx.salesRepresentative!.id, ctx.salesChannel.id);
    return [requireCustomer(ctx).id];
  }

  /** Offers the caller may see (`customerIds` from scopeCustomerIds). */
  scoped(ctx: StoreContext, customerIds: string[], executor: Executor = this.db): Knex.QueryBuilder {
    return this.inScope(ctx, executor(`${OFFERS} as o`), 'o.', customerIds);
  }

  private inScope(ctx: StoreContext, query: Knex.QueryBuilder, prefix: string, customerIds: string[]): Knex.QueryBuilder {
    query.where(`${prefix}sales_channel_id`, ctx.salesChannel.id);
    return customerIds.length === 1 ? query.where(`${prefix}customer_id`, customerIds[0]!) : query.whereIn(`${prefix}customer_id`, customerIds);
  }

  private async visibleRow(ctx: StoreContext, id: string, executor: Executor = this.db, lock = false): Promise<OfferRow> {
    const query = this.scoped(ctx, await this.scopeCustomerIds(ctx, executor), executor).where('o.id', id).first('o.*');
    const row = (await (lock ? forUpdate(query, executor) : query)) as OfferRow | undefined;
    if (!row) throw Errors.notFound('Offer', id);
    return row;
  }

  /** An offer of the caller's own customer, for the customer side's decisions. */
  private async customerRow(ctx: StoreContext, id: string, executor: Executor = this.db): Promise<OfferRow> {
    const customer = requireCustomerSide(ctx);
    const row = await findOffer(executor, id);
    if (!row || row.customer_id !== customer.id) throw Errors.notFound('Offer', id);
    return row;
  }

  async view(ctx: StoreContext, id: string, executor: Executor = this.db): Promise<OfferView> {
    const row = await this.visibleRow(ctx, id, executor);
    return (await offerViews(this.host, executor, [row], ctx.salesChannel.currencyPrecision))[0]!;
  }

  async list(ctx: StoreContext, criteria: Criteria): Promise<{ total: number; data: OfferView[] }> {
    // Scoped without a subquery on the offers table itself: MySQL refuses those in an UPDATE.
    const customerIds = await this.scopeCustomerIds(ctx, this.db);
    await expireDue(this.db, (q) => this.inScope(ctx, q, '', customerIds));
    const page = await searchByCriteria<OfferRow>(this.scoped(ctx, customerIds), criteria, offerCriteria, (qb) => qb.select('o.*'));
    return { total: page.total, data: await offerViews(this.host, this.db, page.rows, ctx.salesChannel.currencyPrecision) };
  }

  async states(criteria: Criteria): Promise<{ total: number; data: OfferState[] }> {
    const page = await searchByCriteria<Record<string, unknown>>(this.db(OFFER_STATES), criteria, stateCriteria, (qb) => qb.select('*'));
    return { total: page.total, data: page.rows.map(toState) };
  }

  // ---- requests ----------------------------------------------------------------------------

  async requestFromCart(ctx: StoreContext, input: OfferRequestInput): Promise<OfferView> {
    requireCustomer(ctx);
    const cart = await this.host.cart.current(ctx);
    if (cart.lineItems.length === 0) throw Errors.badRequest('SUITE__CART_EMPTY', 'The cart is empty: add the products to ask an offer for first.');
    const priced = await this.host.cart.price(ctx, cart);
    const byId = new Map(priced.lines.map((line) => [line.lineItemId, line]));
    const unavailable = cart.lineItems.find((item) => !byId.has(item.id) || !item.productId);
    if (unavailable)
      throw Errors.badRequest('SUITE__OFFER_PRODUCT_NOT_AVAILABLE', `"${unavailable.label}" is not available.`, { meta: { productId: unavailable.productId } });
    const lines: NewLine[] = cart.lineItems.map((item) => {
      const line = byId.get(item.id)!;
      return {
        productId: line.productId!,
        productNumber: line.productNumber ?? '',
        label: line.label,
        quantity: line.quantity,
        unitNet: line.unitNet,
        taxRateBp: line.taxRateBp,
        comment: null,
        sourceLineItemId: item.id,
        payload: line.payload ?? {},
        type: line.type,
      };
    });
    return this.create(ctx, input, lines, 'cart');
  }

  async requestFromItems(ctx: StoreContext, input: OfferRequestInput & { lineItems: Array<{ id?: string; productId: string; quantity: number; comment?: string | null }> }): Promise<OfferView> {
    requireCustomer(ctx);
    const products = await this.visibleProducts(ctx, input.lineItems.map((item) => item.productId));
    const lines: NewLine[] = [];
    for (const [index, item] of input.lineItems.entries()) {
      const product = products.get(item.productId);
      if (!product)
        throw Errors.badRequest('SUITE__OFFER_PRODUCT_NOT_AVAILABLE', `The product "${item.productId}" is not available.`, { pointer: `/lineItems/${index}/productId` });
      const price = await this.host.prices.calculate(ctx, product, item.quantity);
      lines.push({
        productId: product.id,
        productNumber: product.productNumber,
        label: product.name,
        quantity: item.quantity,
        unitNet: price.unitNet,
        taxRateBp: price.taxRateBp,
        comment: item.comment ?? null,
        sourceLineItemId: item.id ?? null,
        payload: {},
        type: 'product',
      });
    }
    return this.create(ctx, input, lines, 'items');
  }

  private async visibleProducts(ctx: StoreContext, ids: string[]): Promise<Map<string, ProductRecord>> {
    const products = await this.host.catalog.visibleProducts(ctx, [...new Set(ids)]);
    return new Map(products.filter((p) => p.active).map((p) => [p.id, p]));
  }

  private async assertAddresses(customerId: string, input: OfferRequestInput): Promise<void> {
    const own = new Set((await this.host.customers.addresses(this.db, customerId)).map((a) => a.id));
    for (const field of ['billigAddressId', 'deliverAddressId'] as const) {
      const id = input[field];
      if (id && !own.has(id)) throw Errors.notFound('Address', id);
    }
  }

  private async create(ctx: StoreContext, input: OfferRequestInput, lines: NewLine[], source: 'cart' | 'items'): Promise<OfferView> {
    const customer = requireCustomer(ctx);
    await this.assertAddresses(customer.id, input);
    if (lines.length > MAX_OFFER_LINES) throw Errors.badRequest('SUITE__OFFER_TOO_MANY_LINES', `An offer holds at most ${MAX_OFFER_LINES} lines.`);
    for (const [index, line] of lines.entries()) lineTotal(line.unitNet, line.quantity, `/lineItems/${index}/quantity`);
    const byRepresentative = isRepresentative(ctx);
    return inTransaction(this.db, async (trx) => {
      const representative = byRepresentative ? null : await representativeOfCustomer(trx, customer.id);
      const id = newId();
      const now = nowDb();
      const totals = totalsOf(lines.map((line) => ({ totalNet: line.unitNet * line.quantity, taxRateBp: line.taxRateBp })));
      await trx(OFFERS).insert({
        id,
        offer_number: await this.host.nextNumber(trx, 'offer', 'OF'),
        customer_id: customer.id,
        sales_channel_id: ctx.salesChannel.id,
        // A representative's own offer starts as the sales side's draft; a customer's as a request.
        status: byRepresentative ? 'draft' : 'requested',
        source,
        requested_by_type: ctx.actor.type,
        requested_by_id: ctx.actor.id,
        requested_by_name: (ctx.actor.name || ctx.actor.email || customer.email).slice(0, 255),
        requested_by_email: ctx.actor.email,
        sales_representative_id: byRepresentative ? ctx.salesRepresentative!.id : (representative?.id ?? null),
        subject: input.subject ?? '',
        commission: input.commission ?? '',
        customer_comment: input.customerComment ?? null,
        billing_address_id: input.billigAddressId ?? null,
        shipping_address_id: input.deliverAddressId ?? null,
        currency_iso: ctx.salesChannel.currencyIso,
        net_total: totals.netTotal,
        tax_total: totals.taxTotal,
        total: totals.total,
        created_at: now,
      });
      await this.insertLines(trx, id, 0, lines, now);
      const offer = (await findOffer(trx, id))!;
      if (representative) {
        const stored = (await offerLines(trx, [id])).get(id) ?? [];
        await this.host.mail.enqueue(trx, {
          template: MAIL.requested,
          to: representative.email,
          salesChannelId: ctx.salesChannel.id,
          data: offerMailData(this.host, ctx.salesChannel, offer, stored, { customer: { company: customer.company, customerNumber: customer.customerNumber, email: customer.email } }),
          dedupeKey: `offer-requested:${id}`,
        });
      }
      return (await offerViews(this.host, trx, [offer], ctx.salesChannel.currencyPrecision))[0]!;
    });
  }

  private async insertLines(trx: Trx, offerId: string, firstPosition: number, lines: NewLine[], now: string): Promise<void> {
    for (const [index, line] of lines.entries()) {
      await trx(OFFER_LINES).insert({
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
      });
    }
  }

  // ---- sales side --------------------------------------------------------------------------

  /** Loads an offer the sales side may change, locked, and refuses unless its state allows sales edits. */
  private async editableRow(ctx: StoreContext, id: string, trx: Trx): Promise<OfferRow> {
    requireRepresentative(ctx);
    const row = await this.visibleRow(ctx, id, trx, true);
    const states = await allStates(trx);
    const status = effectiveStatus(row);
    if (!states.get(status)?.allowsSalesEdit) throw notEditable(status);
    return row;
  }

  /** A representative acting for another assigned customer prices for that customer (its rules, its prices). */
  private async pricingContext(ctx: StoreContext, customerId: string): Promise<StoreContext> {
    if (ctx.customer?.id === customerId) return ctx;
    const customer = await this.host.customers.get(this.db, customerId);
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
      ruleIds: () => (ruleIds ??= this.host.rules.matchingRuleIds(derived)),
    };
    await derived.ruleIds();
    return derived;
  }

  async salesUpdate(ctx: StoreContext, id: string, input: SalesUpdateInput): Promise<OfferView> {
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

    await inTransaction(this.db, async (trx) => {
      const offer = await this.editableRow(ctx, id, trx);
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
        const update: Record<string, unknown> = { unit_net: unitNet, quantity, total_net: lineTotal(unitNet, quantity, change.pointer) };
        if (change.comment !== undefined) update.comment = change.comment;
        await trx(OFFER_LINES).where({ id: line.id, offer_id: id }).update(update);
      }
      if (removed.size) await trx(OFFER_LINES).where({ offer_id: id }).whereIn('id', [...removed]).delete();
      const extra: Record<string, unknown> = { status: 'draft', sales_representative_id: rep.id };
      if (input.subject !== undefined) extra.subject = input.subject;
      if (input.commission !== undefined) extra.commission = input.commission;
      if (input.salesComment !== undefined) extra.sales_comment = input.salesComment;
      if (validUntil !== undefined) Object.assign(extra, { valid_until: validUntil, extension_requested_at: null });
      await writeTotals(trx, offer.id, extra);
    });
    return this.view(ctx, id);
  }

  async addProducts(ctx: StoreContext, id: string, items: Array<{ productId: string; quantity: number; price?: number; comment?: string | null }>): Promise<void> {
    const rep = requireRepresentative(ctx);
    const target = await this.visibleRow(ctx, id);
    const pricing = await this.pricingContext(ctx, target.customer_id);
    const products = await this.visibleProducts(pricing, items.map((item) => item.productId));
    const lines: NewLine[] = [];
    for (const [index, item] of items.entries()) {
      const pointer = `/object/${index}`;
      const product = products.get(item.productId);
      if (!product) throw Errors.badRequest('SUITE__OFFER_PRODUCT_NOT_AVAILABLE', `The product "${item.productId}" is not available to this customer.`, { pointer: `${pointer}/productId` });
      const calculated = await this.host.prices.calculate(pricing, product, item.quantity);
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
    await inTransaction(this.db, async (trx) => {
      const offer = await this.editableRow(ctx, id, trx);
      const existing = (await offerLines(trx, [id])).get(id) ?? [];
      if (existing.length + lines.length > MAX_OFFER_LINES)
        throw Errors.badRequest('SUITE__OFFER_TOO_MANY_LINES', `An offer holds at most ${MAX_OFFER_LINES} lines.`, { pointer: '/object' });
      const now = nowDb();
      await this.insertLines(trx, id, existing.reduce((max, line) => Math.max(max, line.position + 1), 0), lines, now);
      await writeTotals(trx, offer.id, { status: 'draft', sales_representative_id: rep.id });
    });
  }

  /** Renders the PDF, queues the mail with it attached and opens the offer for the customer's decision. */
  async send(ctx: StoreContext, id: string, message: string | null): Promise<{ documentId: string; recipient: string }> {
    const rep = requireRepresentative(ctx);
    const defaultDays = Number(await this.host.config.get<number>('offerDefaultValidityDays')) || 30;
    return inTransaction(this.db, async (trx) => {
      const before = await this.editableRow(ctx, id, trx);
      const now = new Date();
      let validUntil = before.valid_until;
      if (validUntil === null) validUntil = toDbTime(addSeconds(now, defaultDays * 86400));
      else if (validUntil <= toDbTime(now))
        throw Errors.badRequest('SUITE__OFFER_VALIDITY_PAST', 'The offer’s validity has ended: set a new validUntil before sending it again.');
      const updated = await trx(OFFERS)
        .where({ id, status: before.status })
        .update({ status: 'open', valid_until: validUntil, sent_at: toDbTime(now), sales_representative_id: rep.id, updated_at: toDbTime(now) });
      if (updated !== 1) throw Errors.conflict();
      const offer = (await findOffer(trx, id))!;
      const lines = (await offerLines(trx, [id])).get(id) ?? [];
      const customer = await this.host.customers.get(trx, offer.customer_id);
      if (!customer) throw Errors.notFound('Offer', id);
      const salesChannel = (await this.host.customers.salesChannel(trx, offer.sales_channel_id)) ?? ctx.salesChannel;
      const document = await createOfferDocument(this.host, trx, { offer, lines, customer, salesChannel, representativeName: rep.name });
      const onCustomerSide = offer.requested_by_type === 'customer' || offer.requested_by_type === 'employee';
      const to = (onCustomerSide && offer.requested_by_email) || customer.email;
      await this.host.mail.enqueue(trx, {
        template: MAIL.sent,
        to,
        cc: to === customer.email ? [] : [customer.email],
        salesChannelId: salesChannel.id,
        data: offerMailData(this.host, salesChannel, offer, lines, { message, representative: { name: rep.name, email: rep.email }, recipientName: onCustomerSide ? offer.requested_by_name : `${customer.firstName} ${customer.lastName}`.trim() }),
        attachments: [{ filename: document.fileName, documentId: document.id }],
      });
      return { documentId: document.id, recipient: to };
    });
  }

  async remove(ctx: StoreContext, id: string): Promise<void> {
    requireRepresentative(ctx);
    await inTransaction(this.db, async (trx) => {
      const offer = await this.visibleRow(ctx, id, trx, true);
      if (offer.status === 'accepted' || offer.order_id)
        throw Errors.badRequest('SUITE__OFFER_ACCEPTED', 'An accepted offer belongs to its order and cannot be deleted.');
      const deleted = await trx(OFFERS).where({ id, status: offer.status }).whereNull('order_id').delete();
      if (deleted !== 1) throw Errors.conflict();
    });
  }

  // ---- customer side -----------------------------------------------------------------------

  private async notifyRepresentative(trx: Trx, offer: OfferRow, template: string, salesChannel: SalesChannel, extra: Record<string, unknown>): Promise<void> {
    const representative = await representativeOfCustomer(trx, offer.customer_id);
    if (!representative) return;
    const lines = (await offerLines(trx, [offer.id])).get(offer.id) ?? [];
    await this.host.mail.enqueue(trx, { template, to: representative.email, salesChannelId: salesChannel.id, data: offerMailData(this.host, salesChannel, offer, lines, extra) });
  }

  private async refuse(executor: Executor, offer: OfferRow, flag: StateFlag, code: string, verb: string): Promise<never> {
    const status = effectiveStatus(offer);
    if (status !== offer.status) await expireDue(executor, (q) => q.where('id', offer.id));
    if (status === 'expired' && flag === 'allows_accept')
      throw Errors.badRequest('SUITE__OFFER_EXPIRED', 'The offer has expired; ask for a validity extension.');
    throw Errors.badRequest(code, `The offer is ${status}; it cannot be ${verb}.`);
  }

  /**
   * Turns the offer into an order at the offered prices. The claim (a conditional update from an
   * acceptable, unexpired state) and the order share one transaction, so concurrent accepts place
   * exactly one order and the losers see the winner's result.
   */
  async accept(ctx: StoreContext, id: string, comment: string | null): Promise<OfferView> {
    const customer = requireCustomerSide(ctx);
    if (!ctx.can('orders.create')) throw Errors.forbidden('Accepting an offer places an order: you are not allowed to place orders.', 'SUITE__OFFER_ORDER_NOT_ALLOWED');
    const offer = await this.customerRow(ctx, id);
    if (offer.status === 'accepted') return this.view(ctx, id);
    const acceptable = await statesWith(this.db, 'allows_accept');
    if (!acceptable.includes(effectiveStatus(offer))) return this.refuse(this.db, offer, 'allows_accept', 'SUITE__OFFER_NOT_ACCEPTABLE', 'accepted');
    const addresses = new Set((await this.host.customers.addresses(this.db, customer.id)).map((a) => a.id));
    const addressOrDefault = (addressId: string | null) => (addressId && addresses.has(addressId) ? addressId : null);

    const claimed = await inTransaction(this.db, async (trx) => {
      const now = nowDb();
      const query = trx(OFFERS).where({ id, customer_id: customer.id });
      whereEffectiveStatusIn(query, acceptable, now);
      const won = await query.update({ status: 'accepted', accepted_at: now, updated_at: now, decline_comment: null });
      if (won !== 1) return false;
      const lines: PriceLine[] = ((await offerLines(trx, [id])).get(id) ?? []).map((line: OfferLine) => ({
        lineItemId: line.id,
        productId: line.productId,
        productNumber: line.productNumber,
        label: line.label,
        type: line.type,
        quantity: line.quantity,
        unitNet: line.unitNet,
        totalNet: line.totalNet,
        taxRateBp: line.taxRateBp,
        payload: line.payload,
      }));
      const placed = await this.host.checkout.placeOrder(
        ctx,
        {
          lines,
          billingAddressId: addressOrDefault(offer.billing_address_id),
          shippingAddressId: addressOrDefault(offer.shipping_address_id),
          customerComment: comment ?? offer.customer_comment,
          origin: OFFER_ORIGIN,
          customFields: { offerId: offer.id, offerNumber: offer.offer_number },
        },
        trx,
      );
      await trx(OFFERS).where({ id, status: 'accepted' }).update({ order_id: placed.id, order_number: placed.orderNumber });
      const accepted = (await findOffer(trx, id))!;
      await this.notifyRepresentative(trx, accepted, MAIL.accepted, ctx.salesChannel, { order: { id: placed.id, number: placed.orderNumber }, acceptedBy: ctx.actor.name });
      return true;
    });
    if (!claimed) {
      const current = await this.customerRow(ctx, id);
      if (current.status !== 'accepted') return this.refuse(this.db, current, 'allows_accept', 'SUITE__OFFER_NOT_ACCEPTABLE', 'accepted');
    }
    return this.view(ctx, id);
  }

  async decline(ctx: StoreContext, id: string, comment: string | null): Promise<OfferView> {
    const customer = requireCustomerSide(ctx);
    const offer = await this.customerRow(ctx, id);
    if (offer.status === 'declined') return this.view(ctx, id);
    const declinable = await statesWith(this.db, 'allows_decline');
    if (!declinable.includes(effectiveStatus(offer))) return this.refuse(this.db, offer, 'allows_decline', 'SUITE__OFFER_NOT_DECLINABLE', 'declined');
    const done = await inTransaction(this.db, async (trx) => {
      const now = nowDb();
      const query = trx(OFFERS).where({ id, customer_id: customer.id });
      whereEffectiveStatusIn(query, declinable, now);
      if ((await query.update({ status: 'declined', declined_at: now, decline_comment: comment, updated_at: now })) !== 1) return false;
      await this.notifyRepresentative(trx, (await findOffer(trx, id))!, MAIL.declined, ctx.salesChannel, { comment, declinedBy: ctx.actor.name });
      return true;
    });
    if (!done) {
      const current = await this.customerRow(ctx, id);
      if (current.status !== 'declined') return this.refuse(this.db, current, 'allows_decline', 'SUITE__OFFER_NOT_DECLINABLE', 'declined');
    }
    return this.view(ctx, id);
  }

  async requestExtension(ctx: StoreContext, id: string, comment: string | null): Promise<void> {
    const customer = requireCustomerSide(ctx);
    const offer = await this.customerRow(ctx, id);
    const allowed = await statesWith(this.db, 'allows_extension_request');
    const refuse = (current: OfferRow) => {
      throw Errors.badRequest('SUITE__OFFER_EXTENSION_NOT_POSSIBLE', `The offer is ${effectiveStatus(current)}; its validity cannot be extended.`);
    };
    if (!allowed.includes(effectiveStatus(offer))) refuse(offer);
    const done = await inTransaction(this.db, async (trx) => {
      const now = nowDb();
      const query = trx(OFFERS).where({ id, customer_id: customer.id });
      whereEffectiveStatusIn(query, allowed, now);
      if ((await query.update({ extension_requested_at: now, extension_comment: comment, updated_at: now })) !== 1) return false;
      await this.notifyRepresentative(trx, (await findOffer(trx, id))!, MAIL.extensionRequested, ctx.salesChannel, { comment, requestedBy: ctx.actor.name });
      return true;
    });
    if (!done) refuse(await this.customerRow(ctx, id));
  }

  // ---- documents and references ------------------------------------------------------------

  async document(ctx: StoreContext, documentId: string) {
    const linked = await this.scoped(ctx, await this.scopeCustomerIds(ctx, this.db)).join(`${OFFER_DOCUMENTS} as od`, 'od.offer_id', 'o.id').where('od.document_id', documentId).first('od.document_id');
    const document = linked ? await this.host.documents.get(this.db, documentId) : null;
    if (!document) throw Errors.notFound('Offer document', documentId);
    return document;
  }

  /** The customer's latest order with the product (and the line), and its latest sent offer with it. */
  async referenceProduct(ctx: StoreContext, productId: string, customerId: string | undefined): Promise<Record<string, unknown>> {
    const own = requireCustomer(ctx);
    const targetId = customerId ?? own.id;
    if (targetId !== own.id && !(isRepresentative(ctx) && (await isAssigned(this.host, this.db, ctx.salesRepresentative!.id, ctx.salesChannel.id, targetId))))
      throw Errors.notFound('Customer', targetId);
    const [product] = await this.host.catalog.products(this.db, [productId]);
    if (!product) throw Errors.notFound('Product', productId);

    const ownOnly = !isRepresentative(ctx) && !ctx.can('orders.read-all');
    const hit = await this.host.orders.latestWithProduct(this.db, { customerId: targetId, productId, ...(ownOnly ? { placedBy: { type: ctx.actor.type, id: ctx.actor.id ?? '' } } : {}) });
    const order = hit ? await this.host.orders.get(this.db, hit.orderId) : null;
    const line = order && hit ? (order.lineItems as Array<Record<string, any>>).find((l) => l.id === hit.lineItemId) : undefined;

    const offerRow = (await this.db(`${OFFERS} as o`)
      .where('o.customer_id', targetId)
      .where('o.sales_channel_id', ctx.salesChannel.id)
      .whereNotNull('o.sent_at')
      .whereExists((q) => q.select(1).from(`${OFFER_LINES} as ol`).whereRaw('ol.offer_id = o.id').where('ol.product_id', productId))
      .orderBy('o.sent_at', 'desc')
      .orderBy('o.id', 'desc')
      .first('o.*')) as OfferRow | undefined;
    return {
      productId,
      order,
      orderLineItem: line ? { id: line.id, quantity: line.quantity, unitPrice: line.unitPrice, totalPrice: line.totalPrice } : null,
      offer: offerRow ? (await offerViews(this.host, this.db, [offerRow], ctx.salesChannel.currencyPrecision))[0]! : null,
    };
  }

  async expireOverdue(): Promise<number> {
    return expireDue(this.db);
  }
}
