import { AppError } from '../../lib/errors.js';
import { callRoute } from '../../lib/route-call.js';
import { checkGate, LOGGED_IN_STORE_ACTORS, STORE_ACTORS } from '../../lib/pipeline.js';
import { storePrincipal } from '../auth/store-context.js';
import { routeRefs, type AnswerOf, type AnyRoute, type CallableRoute, type CallArgs } from '../../lib/routes.js';
import type { catalogStoreRoutes } from '../catalog/store-routes.js';
import type { checkoutRoutes } from '../checkout/routes.js';
import type { methodRoutes } from '../checkout/methods.js';
import type { StoreContext, StorefrontPage } from '../../contract/index.js';
import type { HostInternals } from '../internals.js';

/** The host's own Store API routes its pages call, as declared (catalog, cart and orders, shipping and payment methods). */
export type HostStoreRoute =
  | ReturnType<typeof catalogStoreRoutes>[number]
  | ReturnType<typeof checkoutRoutes>[number]
  | ReturnType<typeof methodRoutes>[number];

/**
 * The host's Store API routes as values for `kit.call`: references by operationId, the input and
 * answer typed from the declarations' schemas (`HOST_STORE_ROUTES.readCart`).
 */
export const HOST_STORE_ROUTES = routeRefs<HostStoreRoute>();

export type PageResult = Awaited<ReturnType<StorefrontPage['handler']>>;
export type Form = Record<string, unknown>;

/**
 * What the host's own storefront pages share: calling a declared Store API route in-process (its
 * permission key, schemas and handler, with the browser session's context), and reading form fields.
 */
export interface PageKit {
  internals: HostInternals;
  /**
   * Runs the loaded Store API route with this route's operationId (host or add-on) as the storefront
   * visitor: `kit.call(ctx, HOST_STORE_ROUTES.readCart)`, the input and answer typed from the route's schemas.
   */
  call<R extends CallableRoute>(ctx: StoreContext, route: R, ...input: CallArgs<R>): Promise<AnswerOf<R>>;
  /** The declared Store API route at `method` + `/store-api/…` path, or null when none is loaded. */
  routeAt(method: string, storeApiPath: string): AnyRoute | null;
  /** Whether a storefront page is mounted at this path (add-on pages appear only when their add-on is loaded). */
  hasPage(path: string): boolean;
  /** Whether a GET page is mounted at this path and its declaration admits the caller (actors, customer, permission keys): a link to it would not end in a 401 or 403. */
  mayOpen(ctx: StoreContext, path: string): boolean;
}

type RouteCallParts = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

export function createPageKit(internals: HostInternals, hostPagePaths: () => string[]): PageKit {
  const byId = () => new Map(internals.storeApi.routes.map((route) => [route.operationId, route]));
  let routes: Map<string, AnyRoute> | null = null;
  return {
    internals,
    call(ctx, { operationId }, ...[input]) {
      // Add-ons register their routes after the host's storefront module is created: look up lazily.
      routes ??= byId();
      let route = routes.get(operationId);
      if (!route) {
        routes = byId();
        route = routes.get(operationId);
      }
      if (!route) throw new Error(`no Store API route with operationId "${operationId}"`);
      return callRoute(route, { ctx, ...(input as RouteCallParts | undefined) }) as Promise<never>;
    },
    routeAt(method, storeApiPath) {
      if (!storeApiPath.startsWith('/store-api/')) return null;
      const path = storeApiPath.slice('/store-api'.length);
      return internals.storeApi.routes.find((route) => route.method === method && route.path === path) ?? null;
    },
    hasPage(path) {
      return (
        hostPagePaths().includes(path) ||
        internals.registries.storefrontPages.some((page) => (page.method ?? 'GET') === 'GET' && page.path === path)
      );
    },
    mayOpen(ctx, link) {
      // A link may carry a query string (`/account/order-again?orderId=…`); the page is its path.
      const path = link.split(/[?#]/, 1)[0]!;
      if (hostPagePaths().includes(path)) return true;
      const page = internals.registries.storefrontPages.find(
        (candidate) => (candidate.method ?? 'GET') === 'GET' && candidate.path === path,
      );
      if (!page) return false;
      // A guest's link to a login page leads to the login form, not to an error.
      if (ctx.actor.type === 'guest' && page.auth === 'login') return !page.anyPermission;
      try {
        checkGate({ ...page, permission: null }, storePrincipal(ctx), {
          public: STORE_ACTORS,
          login: LOGGED_IN_STORE_ACTORS,
        });
        return true;
      } catch {
        return false;
      }
    },
  };
}

export function text(form: Form, name: string, maxLength = 2000): string {
  const value = form[name];
  return typeof value === 'string' ? value.trim().slice(0, maxLength) : '';
}

/** A positive whole number from a form or query value, else null. */
export function wholeNumber(value: unknown, max = 1_000_000): number | null {
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value.trim())) return null;
  const number = Number(value.trim());
  return number >= 1 && number <= max ? number : null;
}

export interface Refusal {
  status: number;
  code: string;
  title: string;
  detail: string;
  meta: Record<string, unknown>;
}

/**
 * Runs a state change; a refusal the buyer can act on (400 invalid or not possible now, 409 lost a
 * race) comes back as a value for the page to show. Everything else (401, 403, 404, bugs) propagates
 * to the storefront's error handling.
 */
export async function refusalOf<T>(
  work: () => Promise<T>,
  defaultTitle = 'That did not work',
): Promise<{ value: T } | { refusal: Refusal }> {
  try {
    return { value: await work() };
  } catch (error) {
    if (error instanceof AppError && (error.status === 400 || error.status === 409)) {
      const first = error.toBody().errors[0]!;
      return {
        refusal: {
          status: error.status,
          code: error.code,
          title: TITLES[error.code] ?? defaultTitle,
          detail: first.detail ?? error.message,
          meta: error.options.meta ?? {},
        },
      };
    }
    throw error;
  }
}

const TITLES: Record<string, string> = {
  SUITE__ORDER_APPROVAL_REQUIRED: 'This order needs approval',
  SUITE__BUDGET_EXCEEDED: 'The order exceeds your budget',
  SUITE__EVENT_FULL: 'The event is full',
  SUITE__OUT_OF_STOCK: 'Not enough in stock',
  SUITE__PRODUCT_NOT_AVAILABLE: 'A product is not available',
  SUITE__CART_EMPTY: 'Your cart is empty',
  SUITE__CART_ALREADY_ORDERED: 'This cart has been ordered already',
  SUITE__QUANTITY_LIMIT_EXCEEDED: 'Quantity not possible',
  SUITE__CUSTOMER_REQUIRED: 'Choose a customer first',
};

/** An address as lines to print: company, name, street, postcode and city, country. */
export function addressLines(address: Record<string, unknown> | null | undefined): string[] {
  if (!address) return [];
  const part = (value: unknown) => (typeof value === 'string' ? value : '');
  return [
    address.company,
    `${part(address.firstName)} ${part(address.lastName)}`.trim(),
    address.street,
    `${part(address.zipcode)} ${part(address.city)}`.trim(),
    address.countryCode,
  ].filter((part): part is string => typeof part === 'string' && part !== '');
}

/** What a line's payload tells the buyer (cart, checkout and order pages): an event ticket's participant, the customer's own product number. */
export function payloadView(payload: Record<string, unknown> | null | undefined) {
  const participant = payload?.participant as Record<string, unknown> | null | undefined;
  return {
    participant:
      participant && typeof participant === 'object'
        ? {
            name: [participant.salutation, participant.firstName, participant.lastName]
              .filter((part) => typeof part === 'string' && part)
              .join(' '),
            firstName: typeof participant.firstName === 'string' ? participant.firstName : '',
            lastName: typeof participant.lastName === 'string' ? participant.lastName : '',
            email: typeof participant.email === 'string' ? participant.email : null,
          }
        : null,
    customerProductNumber: typeof payload?.customerProductNumber === 'string' ? payload.customerProductNumber : null,
  };
}
