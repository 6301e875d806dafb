import { defineStoreRoute, orderView, type HostRuntime } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import { dateTimeSchema } from '../../lib/time.js';
import type { OfferUseCases } from './use-cases/index.js';

const TAG = 'Offers';

const offerOrderBody = objectSchema({
  comment: {
    type: ['string', 'null'],
    maxLength: 2000,
    description: "The order comment; default: the offer request's comment.",
  },
  version: {
    type: 'integer',
    minimum: 1,
    maximum: 1000000,
    description: 'The version accepted; another than the current one is a 409 SUITE__OFFER_VERSION_STALE.',
  },
});
/** The host's order route response (the same record as GET /order/{orderId}). */
const orderResponse = {
  type: 'object',
  additionalProperties: true,
  required: ['id', 'orderNumber', 'orderDate'],
  properties: { id: { type: 'string' }, orderNumber: { type: 'string' }, orderDate: dateTimeSchema },
};

/** The real product's "order from an offer": accept and order in one step, answering the order. */
export function offerOrderRoutes(host: HostRuntime, service: OfferUseCases) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/offer-order/{id}',
      operationId: 'orderOffer',
      summary:
        'Places the order of an offer at the offered prices (accepting it) and answers the order; an offer accepted before answers its order again.',
      description:
        "The same rules as accepting with PUT /offer/{id} (customer side, `orders.create`, an acceptable unexpired offer: else 400 SUITE__OFFER_NOT_ACCEPTABLE); however often it is called, one order is placed. Another customer's offer is a 404.",
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      idempotent: true,
      schemas: { params: pathParams('id'), body: offerOrderBody, responses: { 200: orderResponse } },
      async handler({ ctx, params, body }) {
        const offer = await service.accept(ctx, params.id, body.comment ?? null, body.version);
        const order = offer.orderId ? await host.orders.get(host.db, offer.orderId) : null;
        if (!order) throw Errors.notFound('Order', offer.orderId ?? params.id);
        return orderView(order);
      },
    }),
  ];
}
