import type { HostRuntime, StoreContext, StorefrontPage } from '../../../host/contract.js';
import { Errors } from '../../../lib/errors.js';
import { isId } from '../../../lib/ids.js';
import { callRoute, routesById, type Reply } from '../../../lib/route-call.js';
import { formErrors, type Form, type PageResult } from '../../employee/storefront/forms.js';
import type { OfferView } from '../repository.js';
import { offerRoutes } from '../routes.js';
import type { OfferUseCases } from '../use-cases/index.js';

const LIST_LIMIT = 100;
const LIST_PATH = '/account/offers';
const detailPath = (id: string) => `/account/offers/${id}`;
const ORDER_PERMISSION = 'orders.create';
const EXTENSION_PERMISSION = 'offer.request';

/** What a redirect after a form may announce; nothing from the query string is echoed. */
const NOTICES: Record<string, string> = {
  accepted: 'You accepted the offer. The order was placed.',
  declined: 'You declined the offer.',
  'extension-requested': 'We asked your sales representative for more time.',
};

function comment(form: Form): string | null {
  const value = typeof form.comment === 'string' ? form.comment.trim() : '';
  return value === '' ? null : value;
}

/** Only the customer and its employees decide offers; sales representatives read them here. */
const decidesOffers = (ctx: StoreContext) => ctx.actor.type === 'customer' || ctx.actor.type === 'employee';

/**
 * The storefront pages of offers: the list behind the account menu and the detail page the offer
 * mails link to, with accept / decline / validity-extension forms and the PDF documents. Every read
 * and action goes through the declared Store API route (its permission, schemas and handler).
 */
export function offerStorefrontPages(service: OfferUseCases): StorefrontPage[] {
  const route = routesById(offerRoutes(service));
  const call = <T = any>(ctx: StoreContext, operationId: string, input: { params?: Record<string, unknown>; body?: unknown } = {}) =>
    callRoute<T>(route(operationId), { ctx, ...input });
  const read = (ctx: StoreContext, id: string) => {
    if (!isId(id)) throw Errors.notFound('Offer', id);
    return call<OfferView>(ctx, 'readOffer', { params: { id } });
  };

  async function detailPage(ctx: StoreContext, id: string, extra: { error?: string; notice?: string | null } = {}, status = 200): Promise<PageResult> {
    const offer = await read(ctx, id);
    const customerSide = decidesOffers(ctx);
    return {
      template: 'offer-detail',
      status,
      data: {
        title: `Offer ${offer.offerNumber}`,
        offer: {
          ...offer,
          documents: offer.documents.map((d) => ({ ...d, url: `${detailPath(offer.id)}/document/${d.id}` })),
        },
        canAccept: customerSide && offer.state.allowsAccept,
        mayOrder: ctx.can(ORDER_PERMISSION),
        canDecline: customerSide && offer.state.allowsDecline,
        canRequestExtension: customerSide && offer.state.allowsExtensionRequest && ctx.can(EXTENSION_PERMISSION),
        timeZone: ctx.salesChannel.timeZone,
        error: extra.error ?? null,
        notice: extra.notice ?? null,
        listUrl: LIST_PATH,
      },
    };
  }

  /** Runs a form's action; a 400 shows the detail page again with the reason, anything else propagates. */
  async function act(ctx: StoreContext, id: string, work: () => Promise<unknown>, done: string): Promise<PageResult> {
    if (!isId(id)) throw Errors.notFound('Offer', id);
    const result = await formErrors(work);
    if ('error' in result) return detailPage(ctx, id, { error: result.error.message }, 400);
    return { redirect: `${detailPath(id)}?done=${done}` };
  }

  return [
    {
      path: LIST_PATH,
      auth: 'login',
      async handler({ ctx }) {
        const { total, elements: data } = await call<{ total: number; elements: OfferView[] }>(ctx, 'listOffers', { body: { limit: LIST_LIMIT } });
        return {
          template: 'offer-list',
          data: { title: 'Offers', total, more: total > data.length, offers: data.map((o) => ({ ...o, url: detailPath(o.id) })), timeZone: ctx.salesChannel.timeZone },
        };
      },
    },
    {
      path: '/account/offers/:id',
      auth: 'login',
      handler: ({ ctx, params, query }) => detailPage(ctx, params.id!, { notice: typeof query.done === 'string' ? (NOTICES[query.done] ?? null) : null }),
    },
    {
      path: '/account/offers/:id/document/:documentId',
      auth: 'login',
      async handler({ ctx, params }) {
        const offer = await read(ctx, params.id!);
        const summary = offer.documents.find((d) => d.id === params.documentId);
        if (!summary) throw Errors.notFound('Offer document', params.documentId);
        const document = await call<Reply>(ctx, 'downloadOfferDocument', { params: { id: summary.id } });
        return { file: { fileName: summary.fileName, contentType: document.contentType ?? 'application/pdf', content: document.body as Buffer } };
      },
    },
    {
      path: '/account/offers/:id/accept',
      method: 'POST',
      auth: 'login',
      handler: ({ ctx, params, form }) => act(ctx, params.id!, () => call(ctx, 'updateOffer', { params: { id: params.id }, body: { action: 'accept', comment: comment(form) } }), 'accepted'),
    },
    {
      path: '/account/offers/:id/decline',
      method: 'POST',
      auth: 'login',
      handler: ({ ctx, params, form }) => act(ctx, params.id!, () => call(ctx, 'updateOffer', { params: { id: params.id }, body: { action: 'decline', comment: comment(form) } }), 'declined'),
    },
    {
      path: '/account/offers/:id/extension',
      method: 'POST',
      auth: 'login',
      handler: ({ ctx, params, form }) =>
        act(ctx, params.id!, () => call(ctx, 'requestOfferValidityExtension', { params: { id: params.id }, body: { comment: comment(form) } }), 'extension-requested'),
    },
  ];
}

export function registerOfferStorefront(host: HostRuntime, service: OfferUseCases): void {
  for (const page of offerStorefrontPages(service)) host.storefront.page(page);
}
