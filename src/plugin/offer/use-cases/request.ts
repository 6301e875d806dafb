import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { inTransaction } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { nowDb } from '../../../lib/time.js';
import { representativeOfCustomer } from '../../sales-representative/index.js';
import { MAIL, offerMailData } from '../mail.js';
import { findOffer, insertOffer, insertOfferLines, offerLines, totalsOf, type NewOfferLine } from '../repository.js';
import { offerViews, type OfferView } from '../views.js';
import { MAX_OFFER_LINES } from '../schemas.js';
import { isRepresentative, lineTotal, visibleProducts } from './access.js';
import { declaredCustomer } from '../../declared.js';
import { assertAllowedQuantities } from '../../quantity-rule/index.js';

export interface OfferRequestInput {
  billigAddressId?: string | null;
  deliverAddressId?: string | null;
  subject?: string;
  commission?: string;
  customerComment?: string | null;
}

/** An offer request for the caller's cart, at the cart's prices. */
export async function requestFromCart(
  host: HostRuntime,
  ctx: StoreContext,
  input: OfferRequestInput,
): Promise<OfferView> {
  const cart = await host.cart.current(host.db, ctx);
  if (cart.lineItems.length === 0)
    throw Errors.badRequest('SUITE__CART_EMPTY', 'The cart is empty: add the products to ask an offer for first.');
  const priced = await host.cart.price(host.db, ctx, cart);
  const byId = new Map(priced.lines.map((line) => [line.lineItemId, line]));
  const unavailable = cart.lineItems.find((item) => !byId.has(item.id) || !item.productId);
  if (unavailable)
    throw Errors.badRequest('SUITE__OFFER_PRODUCT_NOT_AVAILABLE', `"${unavailable.label}" is not available.`, {
      meta: { productId: unavailable.productId },
    });
  const lines: NewOfferLine[] = cart.lineItems.map((item) => {
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
  return createOffer(host, ctx, input, lines, 'cart');
}

/** An offer request for chosen products, at the caller's prices. */
export async function requestFromItems(
  host: HostRuntime,
  ctx: StoreContext,
  input: OfferRequestInput & {
    lineItems: Array<{ id?: string; productId: string; quantity: number; comment?: string | null }>;
  },
): Promise<OfferView> {
  const products = await visibleProducts(
    host,
    ctx,
    input.lineItems.map((item) => item.productId),
  );
  const lines: NewOfferLine[] = [];
  for (const [index, item] of input.lineItems.entries()) {
    const product = products.get(item.productId);
    if (!product)
      throw Errors.badRequest(
        'SUITE__OFFER_PRODUCT_NOT_AVAILABLE',
        `The product "${item.productId}" is not available.`,
        { pointer: `/lineItems/${index}/productId` },
      );
    const price = await host.prices.calculate(host.db, ctx, product, item.quantity);
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
  return createOffer(host, ctx, input, lines, 'items');
}

async function assertAddresses(host: HostRuntime, customerId: string, input: OfferRequestInput): Promise<void> {
  const own = new Set((await host.customers.addresses(host.db, customerId)).map((a) => a.id));
  for (const field of ['billigAddressId', 'deliverAddressId'] as const) {
    const id = input[field];
    if (id && !own.has(id)) throw Errors.notFound('Address', id);
  }
}

async function createOffer(
  host: HostRuntime,
  ctx: StoreContext,
  input: OfferRequestInput,
  lines: NewOfferLine[],
  source: 'cart' | 'items',
): Promise<OfferView> {
  const customer = declaredCustomer(ctx);
  await assertAddresses(host, customer.id, input);
  if (lines.length > MAX_OFFER_LINES)
    throw Errors.badRequest('SUITE__OFFER_TOO_MANY_LINES', `An offer holds at most ${MAX_OFFER_LINES} lines.`);
  for (const [index, line] of lines.entries()) lineTotal(line.unitNet, line.quantity, `/lineItems/${index}/quantity`);
  // A cart line a newer rule refuses is refused here as at checkout (the body names no line: no pointer then).
  await assertAllowedQuantities(
    host.db,
    lines.map((line, index) => ({
      productId: line.productId,
      quantity: line.quantity,
      label: line.label,
      pointer: source === 'items' ? `/lineItems/${index}/quantity` : undefined,
    })),
  );
  const byRepresentative = isRepresentative(ctx);
  return inTransaction(host.db, async (trx) => {
    const representative = byRepresentative ? null : await representativeOfCustomer(trx, customer.id);
    const id = newId();
    const now = nowDb();
    await insertOffer(trx, {
      id,
      offerNumber: await host.nextNumber(trx, 'offer', 'OF'),
      customerId: customer.id,
      salesChannelId: ctx.salesChannel.id,
      // A representative's own offer starts as the sales side's draft; a customer's as a request.
      status: byRepresentative ? 'draft' : 'requested',
      source,
      requestedBy: {
        type: ctx.actor.type,
        id: ctx.actor.id,
        name: ctx.actor.name || ctx.actor.email || customer.email,
        email: ctx.actor.email,
      },
      salesRepresentativeId: byRepresentative ? ctx.salesRepresentative!.id : (representative?.id ?? null),
      subject: input.subject ?? '',
      commission: input.commission ?? '',
      customerComment: input.customerComment ?? null,
      billingAddressId: input.billigAddressId ?? null,
      shippingAddressId: input.deliverAddressId ?? null,
      currencyIso: ctx.salesChannel.currencyIso,
      totals: totalsOf(lines.map((line) => ({ totalNet: line.unitNet * line.quantity, taxRateBp: line.taxRateBp }))),
      createdAt: now,
    });
    await insertOfferLines(trx, id, 0, lines, now);
    const offer = (await findOffer(trx, id))!;
    if (representative) {
      const stored = (await offerLines(trx, [id])).get(id) ?? [];
      await host.mail.enqueue(trx, {
        template: MAIL.requested,
        to: representative.email,
        salesChannelId: ctx.salesChannel.id,
        data: offerMailData(host, ctx.salesChannel, offer, stored, {
          customer: { company: customer.company, customerNumber: customer.customerNumber, email: customer.email },
        }),
        dedupeKey: `offer-requested:${id}`,
      });
    }
    return (await offerViews(host, trx, [offer], ctx.salesChannel.currencyPrecision))[0]!;
  });
}
