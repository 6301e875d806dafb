import { orderView, type HostRuntime, type StoreContext } from '../../../contract/index.js';
import type { Criteria } from '../../../lib/criteria.js';
import { Errors } from '../../../lib/errors.js';
import { isAssigned } from '../../sales-representative/index.js';
import {
  expireDueInScope,
  isScopedOfferDocument,
  latestSentOfferWithProduct,
  searchOffers,
  searchStates,
  type OfferState,
} from '../repository.js';
import { offerViews, type OfferView } from '../views.js';
import { isRepresentative, scopeOf } from './access.js';
import { declaredCustomer } from '../../declared.js';

/** The caller's offers; overdue ones are written `expired` first so status filters see it. */
export async function listOffers(
  host: HostRuntime,
  ctx: StoreContext,
  criteria: Criteria,
): Promise<{ total: number; data: OfferView[] }> {
  const scope = await scopeOf(host, ctx, host.db);
  await expireDueInScope(host.db, scope);
  const page = await searchOffers(host.db, scope, criteria);
  return {
    total: page.total,
    data: await offerViews(host, host.db, page.rows, ctx.salesChannel.currencyPrecision, ctx.actor),
  };
}

export async function listStates(
  host: HostRuntime,
  criteria: Criteria,
): Promise<{ total: number; data: OfferState[] }> {
  return searchStates(host.db, criteria);
}

/** A PDF of an offer the caller may see. */
export async function offerDocument(host: HostRuntime, ctx: StoreContext, documentId: string) {
  const linked = await isScopedOfferDocument(host.db, await scopeOf(host, ctx, host.db), documentId);
  const document = linked ? await host.documents.get(host.db, documentId) : null;
  if (!document) throw Errors.notFound('Offer document', documentId);
  return document;
}

/** The customer's latest order with the product (and the line), and its latest sent offer with it. */
export async function referenceProduct(
  host: HostRuntime,
  ctx: StoreContext,
  productId: string,
  customerId: string | undefined,
): Promise<Record<string, unknown>> {
  const own = declaredCustomer(ctx);
  const targetId = customerId ?? own.id;
  if (
    targetId !== own.id &&
    !(
      isRepresentative(ctx) &&
      (await isAssigned(host, host.db, ctx.salesRepresentative!.id, ctx.salesChannel.id, targetId))
    )
  )
    throw Errors.notFound('Customer', targetId);
  // A product the caller may not see answers as an unknown one: no existence oracle.
  const [product] = await host.catalog.visibleProducts(host.db, ctx, [productId]);
  if (!product) throw Errors.notFound('Product', productId);

  const ownOnly = !isRepresentative(ctx) && !ctx.can('orders.read-all');
  const hit = await host.orders.latestWithProduct(host.db, {
    customerId: targetId,
    productId,
    ...(ownOnly ? { placedBy: { type: ctx.actor.type, id: ctx.actor.id ?? '' } } : {}),
  });
  const record = hit ? await host.orders.get(host.db, hit.orderId) : null;
  const order = record ? orderView(record) : null;
  const lines = order && hit ? order.lineItems : [];
  const line = hit ? lines.find((l) => l.id === hit.lineItemId) : undefined;

  const offerRow = await latestSentOfferWithProduct(host.db, {
    customerId: targetId,
    salesChannelId: ctx.salesChannel.id,
    productId,
  });
  return {
    productId,
    order,
    orderLineItem: line
      ? { id: line.id, quantity: line.quantity, unitPrice: line.unitPrice, totalPrice: line.totalPrice }
      : null,
    offer: offerRow ? (await offerViews(host, host.db, [offerRow], ctx.salesChannel.currencyPrecision))[0]! : null,
  };
}
