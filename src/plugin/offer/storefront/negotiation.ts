import type { StoreContext, StorefrontPage } from '../../../host/contract.js';
import { Errors } from '../../../lib/errors.js';
import { isId } from '../../../lib/ids.js';
import { callRoute, routesById, type Reply } from '../../../lib/route-call.js';
import { formErrors, type Form, type PageResult } from '../../employee/storefront/forms.js';
import { negotiationRoutes } from '../negotiation-routes.js';
import { offerRoutes } from '../routes.js';
import { page } from '../../storefront-kit.js';
import type { OfferUseCases } from '../use-cases/index.js';
import type { OfferView } from '../views.js';

export type Call = <T>(
  ctx: StoreContext,
  operationId: string,
  input?: { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown },
) => Promise<T>;

export function offerCaller(service: OfferUseCases): Call {
  const route = routesById([...offerRoutes(service), ...negotiationRoutes(service)]);
  return (ctx, operationId, input = {}) => callRoute(route(operationId), { ctx, ...input });
}

interface VersionRow {
  version: number;
  side: string;
  author: { name: string };
  createdAt: string;
  total: number;
}

interface Diff {
  offer: Array<{ field: string; before: unknown; after: unknown }>;
  lineItems: Array<{
    change: string;
    label: string;
    fields: Array<{ field: string; before: unknown; after: unknown }>;
  }>;
}

const shown = (value: unknown): string =>
  value === null || value === undefined || value === ''
    ? '–'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** What the detail page shows of the negotiation: versions (with PDFs and the latest changes), the thread, the options to tick. */
export async function negotiationData(call: Call, ctx: StoreContext, offer: OfferView, customerSide: boolean) {
  const detail = `/account/offers/${offer.id}`;
  const versions = await call<{ current: number; elements: VersionRow[] }>(ctx, 'listOfferVersions', {
    params: { id: offer.id },
  });
  const latest = versions.elements.at(-1);
  let changes: Array<{ text: string }> = [];
  if (latest && latest.version > 1) {
    const diff = await call<Diff>(ctx, 'diffOfferVersions', {
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
  const thread = await call<{
    elements: Array<{ side: string; author: { name: string }; body: string; createdAt: string; offerVersion: number }>;
  }>(ctx, 'readOfferMessages', { params: { id: offer.id } });
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
  call: Call,
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
            call(ctx, 'postOfferMessage', {
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
        const offer = await call<OfferView>(ctx, 'readOffer', { params: { id } });
        const lineItems = offer.lineItems
          .filter((line) => line.optional)
          .map((line) => ({ id: line.id, selected: (form as Form)[`option-${line.id}`] !== undefined }));
        return act(
          ctx,
          id,
          () => call(ctx, 'reviseOfferAsCustomer', { params: { id }, body: { lineItems } }),
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
        const document = await call<Reply>(ctx, 'downloadOfferVersionDocument', {
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
