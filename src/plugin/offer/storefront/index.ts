import type { HostRuntime, StorefrontPage } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { page } from '../../storefront-kit.js';
import type { OfferUseCases } from '../use-cases/index.js';
import { offerDecisionPages, offerRequestPages } from './customer-pages.js';
import { negotiationPages, offerCaller, type OfferApi } from './negotiation.js';
import { offerSalesPages } from './sales-pages.js';
import {
  decidesOffers,
  detailPath,
  LIST_PATH,
  NOTICES,
  offerDetail,
  REQUEST_PERMISSION,
  type OfferDetail,
} from './shared.js';

export { OFFER_REQUEST_PATH } from './customer-pages.js';
export { decimalOf, endOfDay, salesUpdateOf } from './sales-pages.js';

const LIST_LIMIT = 100;

/**
 * The storefront pages of offers: the list behind the account menu and the detail page the offer
 * mails link to, with accept / decline / validity-extension forms and the PDF documents. Every read
 * and action goes through the declared Store API route (its permission, schemas and handler).
 */
export function offerStorefrontPages(service: OfferUseCases): StorefrontPage[] {
  const api = offerCaller(service);
  const detail = offerDetail(api);
  const { detailPage } = detail;
  return [
    // Before `/account/offers/:id`, which would take "request" for an id.
    ...offerRequestPages(api),
    ...offerReadingPages(api, detail),
    ...offerDecisionPages(api, detail),
    ...offerSalesPages(api, detail),
    ...negotiationPages(api, (ctx, id, extra, status) => detailPage(ctx, id, extra, status)),
  ];
}

/** Both sides read offers: the list, one offer, its PDF documents. */
function offerReadingPages({ call, routes }: OfferApi, { read, detailPage }: OfferDetail): StorefrontPage[] {
  return [
    {
      path: LIST_PATH,
      auth: 'login',
      async handler({ ctx }) {
        const { total, elements: data } = await call(ctx, routes.listOffers, {
          body: { limit: LIST_LIMIT },
        });
        return {
          template: 'offer-list',
          data: {
            title: 'Offers',
            total,
            more: total > data.length,
            offers: data.map((o) => ({ ...o, url: detailPath(o.id) })),
            timeZone: ctx.salesChannel.timeZone,
            canRequest: decidesOffers(ctx) && ctx.can(REQUEST_PERMISSION),
          },
        };
      },
    },
    page({
      path: '/account/offers/:id',
      auth: 'login',
      handler: ({ ctx, params, query }) =>
        detailPage(ctx, params.id, { notice: typeof query.done === 'string' ? (NOTICES[query.done] ?? null) : null }),
    }),
    page({
      path: '/account/offers/:id/document/:documentId',
      auth: 'login',
      async handler({ ctx, params }) {
        const offer = await read(ctx, params.id);
        const summary = offer.documents.find((d) => d.id === params.documentId);
        if (!summary) throw Errors.notFound('Offer document', params.documentId);
        const document = await call(ctx, routes.downloadOfferDocument, { params: { id: summary.id } });
        return {
          file: {
            fileName: summary.fileName,
            contentType: document.contentType ?? 'application/pdf',
            content: document.body as Buffer,
          },
        };
      },
    }),
  ];
}

export function registerOfferStorefront(host: HostRuntime, service: OfferUseCases): void {
  for (const page of offerStorefrontPages(service)) host.storefront.page(page);
}
