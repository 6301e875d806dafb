import type { StoreContext, StorefrontPage } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { isId } from '../../../lib/ids.js';
import { formErrors, type Form, type PageResult } from '../../employee/index.js';
import { negotiationRoutes } from '../negotiation-routes.js';
import { offerRoutes } from '../routes.js';
import { page, routeCaller, routesByName, type RouteCaller } from '../../storefront-kit.js';
import type { OfferUseCases } from '../use-cases/index.js';
import type { OfferView } from '../views.js';

/** The offer routes by name and the caller that runs them in-process: what every offer page acts through. */
export interface OfferApi {
  call: RouteCaller;
  routes: ReturnType<typeof offerRoutesByName>;
}

const offerRoutesByName = (service: OfferUseCases) =>
  routesByName([...offerRoutes(service), ...negotiationRoutes(service)]);

export function offerCaller(service: OfferUseCases): OfferApi {
  return { call: routeCaller(), routes: offerRoutesByName(service) };
}

const shown = (value: unknown): string =>
  value === null || value === undefined || value === ''
    ? '–'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** What the detail page shows of the negotiation: versions (with PDFs and the latest changes), the thread, the options to tick. */
export async function negotiationData(
  { call, routes }: OfferApi,
  ctx: StoreContext,
  offer: OfferView,
  customerSide: boolean,
) {
  const detail = `/account/offers/${offer.id}`;
  const versions = await call(ctx, routes.listOfferVersions, {
    params: { id: offer.id },
  });
  const latest = versions.elements.at(-1);
  let changes: Array<{ text: string }> = [];
  if (latest && latest.version > 1) {
    const diff = await call(ctx, routes.diffOfferVersions, {
      params: { id: offer.id, version: String(latest.version) },
      query: {},
    });
    changes = [
      ...diff.offer.map((c) => ({ text: `${c.field}: ${shown(c.before)} → ${shown(c.after)}` })),
      ...diff.lineItems.map((l) => ({
        text:
          l.change === 'changed'
            ? `${l.label}: ${l.fields.map((f) => `${f.field} ${shown(f.before)} → ${shown(f.after)}`).join(', ')}`
            : `${l.label}: ${l.change}`,
      })),
    ];
  }
  const thread = await call(ctx, routes.readOfferMessages, { params: { id: offer.id } });
  const options = offer.lineItems.filter((line) => line.optional);
  return {
    versions: versions.elements.map((v) => ({ ...v, pdfUrl: `${detail}/versions/${v.version}/document` })),
    latestVersion: latest?.version ?? null,
    changes,
    messages: thread.elements,
    options: customerSide && offer.status === 'open' ? options : [],
    acceptVersion: offer.version,
  };
}

/** The forms of the negotiation: a message, the ticked options, a version's PDF. */
export function negotiationPages(
  { call, routes }: OfferApi,
  detailPage: (ctx: StoreContext, id: string, extra: { error?: string }, status: number) => Promise<PageResult>,
): StorefrontPage[] {
  async function act(ctx: StoreContext, id: string, work: () => Promise<unknown>, done: string): Promise<PageResult> {
    if (!isId(id)) throw Errors.notFound('Offer', id);
    const result = await formErrors(work);
    if ('error' in result) return detailPage(ctx, id, { error: result.error.message }, 400);
    return { redirect: `/account/offers/${id}?done=${done}` };
  }
  return [
    page({
      path: '/account/offers/:id/message',
      method: 'POST',
      auth: 'login',
      handler: ({ ctx, params, form }) =>
        act(
          ctx,
          params.id,
          () =>
            call(ctx, routes.postOfferMessage, {
              params: { id: params.id },
              body: { body: typeof form.body === 'string' ? form.body.trim().slice(0, 4000) : '' },
            }),
          'message-sent',
        ),
    }),
    page({
      path: '/account/offers/:id/options',
      method: 'POST',
      auth: 'login',
      actors: ['customer', 'employee'],
      async handler({ ctx, params, form }) {
        const id = params.id;
        if (!isId(id)) throw Errors.notFound('Offer', id);
        const offer = await call(ctx, routes.readOffer, { params: { id } });
        const lineItems = offer.lineItems
          .filter((line) => line.optional)
          .map((line) => ({ id: line.id, selected: (form as Form)[`option-${line.id}`] !== undefined }));
        return act(
          ctx,
          id,
          () => call(ctx, routes.reviseOfferAsCustomer, { params: { id }, body: { lineItems } }),
          'options-saved',
        );
      },
    }),
    page({
      path: '/account/offers/:id/versions/:version/document',
      auth: 'login',
      async handler({ ctx, params }) {
        if (!isId(params.id) || !/^[1-9][0-9]{0,5}$/.test(params.version))
          throw Errors.notFound('Offer version', params.version);
        const document = await call(ctx, routes.downloadOfferVersionDocument, {
          params: { id: params.id, version: params.version },
        });
        return {
          file: {
            fileName: `offer-version-${params.version}.pdf`,
            contentType: document.contentType ?? 'application/pdf',
            content: document.body as Buffer,
          },
        };
      },
    }),
  ];
}
