import type { CustomerRef, HostRuntime, ProductRecord, StoreContext } from '../../../contract/index.js';
import type { Executor } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { actorRefusal } from '../../../lib/pipeline.js';
import { exactMinor } from '../../../lib/money.js';
import { assignedCustomerIds } from '../../sales-representative/index.js';
import { findOffer, findScopedOffer, type OfferRow, type OfferScope } from '../repository.js';
import { offerViews, type OfferView } from '../views.js';

/** Keeps every sum of an offer a safe integer: 500 lines of at most this many minor units each. */
const MAX_LINE_TOTAL_MINOR = 1e13;

export function requireCustomer(ctx: StoreContext): CustomerRef {
  if (!ctx.customer) throw Errors.forbidden('Choose a customer to act for first.', 'SUITE__NO_CUSTOMER_CONTEXT');
  return ctx.customer;
}

export function isRepresentative(ctx: StoreContext): boolean {
  return ctx.actor.type === 'salesRepresentative' && ctx.salesRepresentative !== null;
}

/**
 * Accepting, declining and asking for more time are the customer's decisions, not the sales side's.
 * Routes that only decide declare `actors: ['customer', 'employee']`; PUT /offer/{id} decides or edits
 * by its body, so this data-dependent check answers the pipeline's refusal for that actor set.
 */
export function requireCustomerSide(ctx: StoreContext): CustomerRef {
  if (ctx.actor.type !== 'customer' && ctx.actor.type !== 'employee') throw actorRefusal(['customer', 'employee']);
  return requireCustomer(ctx);
}

/** The customers whose offers the caller may see: a representative every assigned customer, everyone else their customer. */
export async function scopeOf(host: HostRuntime, ctx: StoreContext, executor: Executor): Promise<OfferScope> {
  const customerIds = isRepresentative(ctx)
    ? await assignedCustomerIds(host, executor, ctx.salesRepresentative!.id, ctx.salesChannel.id)
    : [requireCustomer(ctx).id];
  return { salesChannelId: ctx.salesChannel.id, customerIds };
}

/** An offer the caller may see (404 otherwise). */
export async function visibleOffer(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  executor: Executor = host.db,
  lock = false,
): Promise<OfferRow> {
  const row = await findScopedOffer(executor, await scopeOf(host, ctx, executor), id, lock);
  if (!row) throw Errors.notFound('Offer', id);
  return row;
}

/** An offer of the caller's own customer, for the customer side's decisions. */
export async function customerOffer(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  executor: Executor = host.db,
): Promise<OfferRow> {
  const customer = requireCustomerSide(ctx);
  const row = await findOffer(executor, id);
  if (!row || row.customer_id !== customer.id) throw Errors.notFound('Offer', id);
  return row;
}

export async function viewOffer(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
  executor: Executor = host.db,
): Promise<OfferView> {
  const row = await visibleOffer(host, ctx, id, executor);
  return (await offerViews(host, executor, [row], ctx.salesChannel.currencyPrecision, ctx.actor))[0]!;
}

/** The active products among `ids` the context may see. */
export async function visibleProducts(
  host: HostRuntime,
  ctx: StoreContext,
  ids: string[],
): Promise<Map<string, ProductRecord>> {
  const products = await host.catalog.visibleProducts(host.db, ctx, [...new Set(ids)]);
  return new Map(products.filter((p) => p.active).map((p) => [p.id, p]));
}

export function lineTotal(unitNet: number, quantity: number, pointer: string): number {
  const total = unitNet * quantity;
  if (!Number.isSafeInteger(total) || total > MAX_LINE_TOTAL_MINOR)
    throw Errors.badRequest('SUITE__OFFER_AMOUNT_TOO_LARGE', 'The line total is too large.', { pointer });
  return total;
}

/** An amount at the edge in minor units; more decimals than the currency has are refused, not rounded away. */
export function minorOf(amount: number, precision: number, pointer: string): number {
  return exactMinor(amount, precision, pointer);
}
