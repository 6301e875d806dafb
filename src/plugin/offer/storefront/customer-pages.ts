import type { StoreContext, StorefrontPage } from '../../../contract/index.js';
import { formErrors, type Form, type PageResult } from '../../employee/index.js';
import { page } from '../../storefront-kit.js';
import type { OfferApi } from './negotiation.js';
import { comment, CUSTOMER_SIDE, detailPath, REQUEST_PERMISSION, type OfferDetail } from './shared.js';

/** Asking for an offer for the cart; the cart links it for callers with `offer.request`. */
export const OFFER_REQUEST_PATH = '/account/offers/request';

/** The customer asks for an offer for the cart: the form and its answer. */
export function offerRequestPages({ call, routes }: OfferApi): StorefrontPage[] {
  function requestPage(form: Form = {}, error: string | null = null): PageResult {
    const field = (name: string) => (typeof form[name] === 'string' ? form[name] : '');
    return {
      template: 'offer-request',
      status: error ? 400 : 200,
      data: {
        title: 'Ask for an offer',
        subject: field('subject'),
        commission: field('commission'),
        customerComment: field('customerComment'),
        error,
      },
    };
  }

  return [
    // Before `/account/offers/:id`, which would take "request" for an id.
    {
      path: OFFER_REQUEST_PATH,
      auth: 'login',
      needsCustomer: true,
      anyPermission: [REQUEST_PERMISSION],
      handler: () => Promise.resolve(requestPage()),
    },
    {
      path: OFFER_REQUEST_PATH,
      method: 'POST',
      auth: 'login',
      needsCustomer: true,
      anyPermission: [REQUEST_PERMISSION],
      async handler({ ctx, form }) {
        const field = (name: string, max: number) =>
          typeof form[name] === 'string' ? form[name].trim().slice(0, max) : '';
        const body: Record<string, unknown> = { customerComment: field('customerComment', 2000) || null };
        if (field('subject', 255)) body.subject = field('subject', 255);
        if (field('commission', 255)) body.commission = field('commission', 255);
        const result = await formErrors(() => call(ctx, routes.requestOffer, { body }));
        if ('error' in result) return requestPage(form, result.error.message);
        return { redirect: `${detailPath(result.ok.id)}?done=requested` };
      },
    },
  ];
}

/** The customer side decides an offer (accept, decline) or asks for more time. */
export function offerDecisionPages({ call, routes }: OfferApi, { act }: OfferDetail): StorefrontPage[] {
  /** A form of the offer page that posts one action to the offer's route, then shows the offer with `done`. */
  const decision = (
    action: string,
    done: string,
    send: (ctx: StoreContext, id: string, form: Form) => Promise<unknown>,
  ) =>
    page({
      path: `/account/offers/:id/${action}`,
      method: 'POST',
      auth: 'login',
      actors: CUSTOMER_SIDE,
      handler: ({ ctx, params, form }) => act(ctx, params.id, () => send(ctx, params.id, form), done),
    });
  return [
    decision('accept', 'accepted', (ctx, id, form) =>
      call(ctx, routes.updateOffer, {
        params: { id },
        body: { action: 'accept', comment: comment(form), ...versionOf(form) },
      }),
    ),
    decision('decline', 'declined', (ctx, id, form) =>
      call(ctx, routes.updateOffer, { params: { id }, body: { action: 'decline', comment: comment(form) } }),
    ),
    decision('extension', 'extension-requested', (ctx, id, form) =>
      call(ctx, routes.requestOfferValidityExtension, { params: { id }, body: { comment: comment(form) } }),
    ),
  ];
}

/** The version the accept form showed (a stale one is refused by the route with 409). */
function versionOf(form: Form): { version?: number } {
  const value = typeof form.version === 'string' ? form.version : '';
  return /^[1-9][0-9]{0,5}$/.test(value) ? { version: Number(value) } : {};
}
