import { defineStoreRoute } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { reply } from '../../lib/routes.js';
import { looseObject, objectSchema, pathParams, successResponse } from '../../lib/schemas.js';
import {
  addProductsBody,
  extensionRequestBody,
  offerItemRequestBody,
  offerListBody,
  offerListResponse,
  offerRequestBody,
  offerSchema,
  offerUpdateBody,
  referenceProductQuery,
  referenceProductResponse,
  SALES_UPDATE_FIELDS,
  sendMailBody,
  sendMailResponse,
  stateListBody,
  stateListResponse,
} from './schemas.js';
import type { OfferUseCases } from './use-cases/index.js';
import { criteriaList } from '../../lib/store-list.js';

const TAG = 'Offers';
const errorResponse = objectSchema({ errors: { type: 'array', minItems: 1, items: looseObject } }, ['errors']);

/** The offer routes: asking for offers, reading them, deciding and working on them. */
export function offerRoutes(service: OfferUseCases) {
  return [...offerRequestRoutes(service), ...offerReadRoutes(service), ...offerChangeRoutes(service)];
}

/** Customers ask for offers (from the cart or chosen items), for a pricing reference and for more time. */
function offerRequestRoutes(service: OfferUseCases) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/offer-request',
      operationId: 'requestOffer',
      summary:
        'Asks for an offer for the caller’s cart (a snapshot of its lines at today’s prices). Send an Idempotency-Key header to make retries safe.',
      description:
        'Addresses must belong to the customer (404 otherwise); without them the customer’s default addresses apply when the offer is ordered. The cart is left as it is.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'offer.request',
      idempotent: true,
      schemas: { body: offerRequestBody, responses: { 200: offerSchema, 409: errorResponse, 422: errorResponse } },
      handler: ({ ctx, body }) => service.requestFromCart(ctx, body),
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/offer-item-request',
      operationId: 'requestOfferForItems',
      summary:
        'Asks for an offer for chosen products and quantities (each with an optional comment). Send an Idempotency-Key header to make retries safe.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'offer.request',
      idempotent: true,
      schemas: { body: offerItemRequestBody, responses: { 200: offerSchema, 409: errorResponse, 422: errorResponse } },
      handler: ({ ctx, body }) => service.requestFromItems(ctx, body),
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/offer-reference-product/{productId}',
      operationId: 'readOfferReferenceProduct',
      summary:
        'The customer’s latest order containing the product (with that line) and its latest sent offer containing it: the reference for pricing.',
      description: 'A sales representative may name another assigned customer with `customerId`.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'offer.read',
      schemas: {
        params: pathParams('productId'),
        query: referenceProductQuery,
        responses: { 200: referenceProductResponse },
      },
      handler: ({ ctx, params, query }) => service.referenceProduct(ctx, params.productId, query.customerId),
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/offer/{id}/request-validity-extension',
      operationId: 'requestOfferValidityExtension',
      summary:
        'The customer asks the sales representative for more time on an open or expired offer (mail to the representative).',
      tags: [TAG],
      auth: 'login',
      actors: ['customer', 'employee'],
      permission: 'offer.request',
      schemas: { params: pathParams('id'), body: extensionRequestBody, responses: { 200: successResponse } },
      async handler({ ctx, params, body }) {
        await service.requestExtension(ctx, params.id, body.comment ?? null);
        return { success: true };
      },
    }),
  ];
}

/** Reading offers: their statuses, the list, one offer and its PDF documents. */
function offerReadRoutes(service: OfferUseCases) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/offer-states',
      operationId: 'listOfferStates',
      summary: 'The offer statuses with their flags (who may do what in each), by criteria.',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: { body: stateListBody, responses: { 200: stateListResponse } },
      async handler({ body }) {
        return criteriaList(await service.states(body), body);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/offer/list',
      operationId: 'listOffers',
      summary:
        'The customer’s offers (a sales representative: those of every assigned customer), newest first, by criteria.',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: { body: offerListBody, responses: { 200: offerListResponse } },
      async handler({ ctx, body }) {
        return criteriaList(await service.list(ctx, body), body);
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/offer-document/{id}',
      operationId: 'downloadOfferDocument',
      summary: 'An offer’s PDF document by document id (see `documents` of the offer).',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: {
        params: pathParams('id'),
        responses: { 200: { contentType: 'application/pdf', description: 'The offer as PDF' } },
      },
      async handler({ ctx, params }) {
        const document = await service.document(ctx, params.id);
        return reply(200, document.content, {
          contentType: document.mimeType,
          headers: {
            'Content-Disposition': `attachment; filename="${document.fileName}"`,
            'Cache-Control': 'private, no-store',
          },
        });
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/offer/{id}',
      operationId: 'readOffer',
      summary: 'One offer with its lines, totals, status flags and documents.',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: { params: pathParams('id'), responses: { 200: offerSchema } },
      handler: ({ ctx, params }) => service.view(ctx, params.id),
    }),
  ];
}

/** Changing an offer: the customer's decision or the sales side's pricing, mailing, products and deletion. */
function offerChangeRoutes(service: OfferUseCases) {
  return [
    defineStoreRoute({
      method: 'PUT',
      path: '/offer/{id}',
      operationId: 'updateOffer',
      summary:
        'The customer accepts or declines (`action`); a sales representative prices lines, sets validity and comments.',
      description:
        'Customer side: `{"action": "accept" | "decline", "comment"?, "version"?}`. Accepting names the version (a stale one: 409 SUITE__OFFER_VERSION_STALE) and places the order at the offered prices (also needs `orders.create`); repeating a decision that was made answers the offer again. Sales side: any of `subject`, `commission`, `salesComment`, `validUntil`, `lineItems` (`id` with `unitPrice`, `quantity`, `comment`, `discount`, `optional`, `label`), `removeLineItemIds`, `discount` (whole offer); the offer goes back to draft until it is mailed again.',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: { params: pathParams('id'), body: offerUpdateBody, responses: { 200: offerSchema, 409: errorResponse } },
      handler({ ctx, params, body }) {
        const salesFields = SALES_UPDATE_FIELDS.filter((field) => body[field] !== undefined);
        if (body.action !== undefined) {
          if (salesFields.length)
            throw Errors.badRequest(
              'SUITE__OFFER_MIXED_UPDATE',
              'Send either an action or the sales side’s changes, not both.',
              { pointer: `/${salesFields[0]}` },
            );
          return body.action === 'accept'
            ? service.accept(ctx, params.id, body.comment ?? null, body.version)
            : service.decline(ctx, params.id, body.comment ?? null);
        }
        if (body.version !== undefined)
          throw Errors.badRequest('SUITE__OFFER_MIXED_UPDATE', 'A version goes with accepting.', {
            pointer: '/version',
          });
        if (body.comment !== undefined)
          throw Errors.badRequest(
            'SUITE__OFFER_MIXED_UPDATE',
            'A comment goes with an action; the sales side uses salesComment.',
            { pointer: '/comment' },
          );
        return service.salesUpdate(ctx, params.id, body);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/offer-mail/{id}',
      operationId: 'sendOfferMail',
      summary:
        'Sales representatives: renders the offer as PDF and mails it (attached) to the requester; the offer opens for the customer’s decision.',
      description: 'Without a validity set, the offer is valid for the `offerDefaultValidityDays` setting from now.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { params: pathParams('id'), body: sendMailBody, responses: { 200: sendMailResponse } },
      async handler({ ctx, params, body }) {
        const sent = await service.send(ctx, params.id, body.message ?? null);
        return { success: true, ...sent };
      },
    }),
    defineStoreRoute({
      method: 'DELETE',
      path: '/sales-representative/offer/{id}',
      operationId: 'deleteOfferAsSalesRepresentative',
      summary: 'Sales representatives: deletes an offer of an assigned customer (not an accepted one).',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { params: pathParams('id'), responses: { 200: successResponse } },
      async handler({ ctx, params }) {
        await service.remove(ctx, params.id);
        return { success: true };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/offer-add-products/{offerId}',
      operationId: 'addOfferProducts',
      summary:
        'Sales representatives: adds products to an offer (`object`: productId, quantity, optional price and comment); without a price the customer’s price applies.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { params: pathParams('offerId'), body: addProductsBody, responses: { 200: successResponse } },
      async handler({ ctx, params, body }) {
        await service.addProducts(ctx, params.offerId, body.object);
        return { success: true };
      },
    }),
  ];
}
