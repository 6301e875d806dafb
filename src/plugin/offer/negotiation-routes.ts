import { defineStoreRoute } from '../../contract/index.js';
import { reply } from '../../lib/routes.js';
import { pathParams } from '../../lib/schemas.js';
import { storeListOf } from '../../lib/store-list.js';
import {
  addPositionsBody,
  customerRevisionBody,
  diffQuery,
  diffResponse,
  messageBody,
  messageSchema,
  threadResponse,
  unreadResponse,
  versionListResponse,
  versionParams,
  versionSchema,
} from './negotiation-schemas.js';
import { offerSchema } from './schemas.js';
import type { OfferUseCases } from './use-cases/index.js';

const TAG = 'Offers';

/** Negotiated quotes (docs/negotiated-quotes.md): positions, the customer's changes, the thread and the versions. */
export function negotiationRoutes(service: OfferUseCases) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/offer/{id}/positions',
      operationId: 'addOfferPositions',
      summary:
        'Sales representatives: adds free-text positions (a service, freight) or headings to an offer; optional ones wait for the customer’s tick.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { params: pathParams('id'), body: addPositionsBody, responses: { 200: offerSchema } },
      handler: ({ ctx, params, body }) => service.addPositions(ctx, params.id, body.positions),
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/offer/{id}/customer-revision',
      operationId: 'reviseOfferAsCustomer',
      summary:
        'The customer ticks optional positions (the offer stays open) or proposes other quantities (back to the representative); either makes the next version.',
      description:
        'Proposing quantities also needs `offer.request`. `message` is posted to the thread with the change.',
      tags: [TAG],
      auth: 'login',
      actors: ['customer', 'employee'],
      permission: 'offer.read',
      schemas: { params: pathParams('id'), body: customerRevisionBody, responses: { 200: offerSchema } },
      handler: ({ ctx, params, body }) => service.reviseAsCustomer(ctx, params.id, body),
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/offer/{id}/messages',
      operationId: 'postOfferMessage',
      summary: 'Writes a message in the offer’s thread; the other side gets it by mail.',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: { params: pathParams('id'), body: messageBody, responses: { 200: messageSchema } },
      handler: ({ ctx, params, body }) => service.postMessage(ctx, params.id, body.body),
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/offer/{id}/messages',
      operationId: 'readOfferMessages',
      summary: 'The offer’s thread, oldest first; reading it marks the other side’s messages read for the caller.',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: { params: pathParams('id'), responses: { 200: threadResponse } },
      async handler({ ctx, params }) {
        const thread = await service.thread(ctx, params.id);
        return { ...storeListOf(thread.elements), unreadBefore: thread.unreadBefore };
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/offer-messages/unread',
      operationId: 'countUnreadOfferMessages',
      summary: 'Unread messages of the other side, in total and per offer the caller sees.',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: { responses: { 200: unreadResponse } },
      async handler({ ctx }) {
        const summary = await service.unread(ctx);
        return {
          ...storeListOf(summary.offers.map((o) => ({ id: o.offerId, offerNumber: o.offerNumber, unread: o.unread }))),
          unread: summary.total,
        };
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/offer/{id}/versions',
      operationId: 'listOfferVersions',
      summary:
        'The versions of an offer handed over so far (by the representative’s mail or the customer’s changes), oldest first.',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: { params: pathParams('id'), responses: { 200: versionListResponse } },
      async handler({ ctx, params }) {
        const versions = await service.versions(ctx, params.id);
        return { ...storeListOf(versions.elements), current: versions.current };
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/offer/{id}/versions/{version}',
      operationId: 'readOfferVersion',
      summary: 'One version of an offer as it was handed over: terms, totals and positions.',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: { params: versionParams, responses: { 200: versionSchema } },
      handler: ({ ctx, params }) => service.version(ctx, params.id, Number(params.version)),
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/offer/{id}/versions/{version}/diff',
      operationId: 'diffOfferVersions',
      summary:
        'What changed from the version before (or `against`) to this one: terms and totals, then position by position.',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: { params: versionParams, query: diffQuery, responses: { 200: diffResponse } },
      handler: ({ ctx, params, query }) =>
        service.diff(
          ctx,
          params.id,
          Number(params.version),
          query.against === undefined ? undefined : Number(query.against),
        ),
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/offer/{id}/versions/{version}/document',
      operationId: 'downloadOfferVersionDocument',
      summary: 'The PDF of a version: the one mailed with it, or rendered from it on first request and kept.',
      tags: [TAG],
      auth: 'login',
      permission: 'offer.read',
      schemas: {
        params: versionParams,
        responses: { 200: { contentType: 'application/pdf', description: 'The version as PDF' } },
      },
      async handler({ ctx, params }) {
        const document = await service.versionDocument(ctx, params.id, Number(params.version));
        return reply(200, document.content, {
          contentType: document.mimeType,
          headers: {
            'Content-Disposition': `attachment; filename="${document.fileName}"`,
            'Cache-Control': 'private, no-store',
          },
        });
      },
    }),
  ];
}
