import type { StoreContext, StorefrontPage, StorefrontUpload, StoreRoute } from '../contract/index.js';
import { AppError, Errors } from '../lib/errors.js';
import type { IdempotencyStore } from '../lib/idempotency.js';
import { callRoute } from '../lib/route-call.js';
import type { AnswerOf, CallArgs, Reply, RoutesByName } from '../lib/routes.js';

export { routesByName } from '../lib/routes.js';

/**
 * What the add-ons' account pages share: running the add-on's declared Store API routes in-process
 * (their permission key, schemas and handler, with the browser session's context), the permission
 * gate that matches the account menu, and small form readers.
 */
export type PageResult = Awaited<ReturnType<StorefrontPage['handler']>>;
export type Form = Record<string, unknown>;

/** The `:name` segments of a page path as an object type: `/account/roles/:id` → `{ id: string }`. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

/** A storefront page whose handler reads its path's `:name` parameters by name, typed from the path. */
export type TypedPage<Path extends string> = Omit<StorefrontPage, 'path' | 'handler'> & {
  path: Path;
  handler(
    input: Omit<Parameters<StorefrontPage['handler']>[0], 'params'> & { params: PathParams<Path> },
  ): Promise<PageResult>;
};

/**
 * Declares a page with typed path parameters: the host matches the path, so every `:name` of it is
 * in `params` — the handler reads `params.id` as a string, without a non-null assertion.
 */
export function page<const Path extends string>(definition: TypedPage<Path>): StorefrontPage {
  return definition;
}

/**
 * Runs a declared route in-process: `call(ctx, routes.addProductsToCart, { body })`, the input typed
 * from the route's params, query and body schemas and the answer from its success response schema.
 * `idempotencyKey` (an idempotent route): the form's token, so a double submit or a reload acts once.
 */
export type RouteCaller = <R extends StoreRoute>(
  ctx: StoreContext,
  route: R,
  ...input: CallArgs<R, { idempotencyKey?: string }>
) => Promise<AnswerOf<R>>;

/**
 * `idempotency` (the host's `storeApi.idempotency`) keeps the keys pages pass; without it (a host
 * that offers none) a key is not kept and the route runs as without one.
 */
export function routeCaller(idempotency?: IdempotencyStore): RouteCaller {
  return (ctx, route, ...[input]) => {
    const { idempotencyKey, ...rest } = (input ?? {}) as RouteCallParts & { idempotencyKey?: string };
    return callRoute(route, {
      ctx,
      ...rest,
      ...(idempotencyKey !== undefined && idempotency
        ? { idempotency: { key: idempotencyKey, store: idempotency } }
        : {}),
    });
  };
}

/** What a page module's factories take: the routes of the route factories F by name, and the caller that runs them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route factory, whatever it takes
export interface PageApi<F extends (...args: any[]) => readonly { operationId: string }[]> {
  call: RouteCaller;
  routes: RoutesByName<ReturnType<F>[number]>;
}

type RouteCallParts = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

/** The page's gate: the caller holds one of `anyOf` (the keys its account menu entry asks), else 403. */
export function requireAnyPermission(ctx: StoreContext, anyOf: readonly string[]): void {
  if (!anyOf.some((key) => ctx.can(key)))
    throw Errors.forbidden(`The permission "${anyOf.join('" or "')}" is required.`, 'SUITE__PERMISSION_DENIED');
}

/** Company pages need the customer the login acts for (a representative may have stopped acting for one). */
export function requireCustomerContext(ctx: StoreContext): NonNullable<StoreContext['customer']> {
  if (!ctx.customer) throw Errors.forbidden('Choose the customer you act for first.', 'SUITE__NO_CUSTOMER_CONTEXT');
  return ctx.customer;
}

export function text(form: Form, name: string, maxLength = 2000): string {
  const value = form[name];
  return typeof value === 'string' ? value.trim().slice(0, maxLength) : '';
}

function isUpload(value: unknown): value is StorefrontUpload {
  return (
    typeof value === 'object' &&
    value !== null &&
    Buffer.isBuffer((value as StorefrontUpload).content) &&
    typeof (value as StorefrontUpload).fileName === 'string'
  );
}

/**
 * The CSV a form sent: the file chosen in the file input `fileField` (UTF-8, a byte order mark
 * dropped) when there is one, else the text pasted into `textField`. `fileName` is null for pasted text.
 */
export function csvOf(form: Form, fileField: string, textField: string): { csv: string; fileName: string | null } {
  const upload = form[fileField];
  if (isUpload(upload))
    return { csv: upload.content.toString('utf8').replace(/^\uFEFF/, ''), fileName: upload.fileName };
  const pasted = form[textField];
  return { csv: typeof pasted === 'string' ? pasted : '', fileName: null };
}

/** A form field that may repeat (checkboxes): always a list of strings. */
export function list(form: Form, name: string): string[] {
  const value = form[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A whole number from a form or query value within [min, max], else null. */
export function wholeNumber(value: unknown, min = 1, max = 1_000_000): number | null {
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value.trim())) return null;
  const number = Number(value.trim());
  return number >= min && number <= max ? number : null;
}

/** The notice a redirect after a form announces, looked up by key: nothing from the query string is echoed. */
export function noticeOf(query: Record<string, unknown>, notices: Record<string, string>): string | null {
  return typeof query.done === 'string' ? (notices[query.done] ?? null) : null;
}

/**
 * Runs a change; a refusal the visitor can act on (400 invalid or not possible now, 409 lost a race,
 * 413 a file too large) comes back as messages for the form: every error of the answer (a CSV import
 * reports each bad line). Everything else (403, 404, bugs) propagates to the error page.
 */
export async function attempt<T>(work: () => Promise<T>): Promise<{ ok: T } | { error: string; errors: string[] }> {
  try {
    return { ok: await work() };
  } catch (error) {
    if (error instanceof AppError && [400, 409, 413].includes(error.status)) {
      const errors = error.toBody().errors.map((item) => {
        const pointer = item.source?.pointer?.replace(/^\/(body\/)?/, '') ?? '';
        return pointer && !/^line\//.test(pointer)
          ? `${item.detail ?? item.title} (${pointer})`
          : (item.detail ?? item.title);
      });
      return { error: errors[0] ?? error.message, errors };
    }
    throw error;
  }
}

/** A Store API file answer (a PDF, a CSV) as a storefront download. */
export function download(
  reply: Reply | { body: unknown; contentType?: string },
  fileName: string,
  contentType = 'application/octet-stream',
): PageResult {
  const body = reply.body;
  const content = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return { file: { fileName, contentType: reply.contentType ?? contentType, content } };
}

export function dateText(ctx: StoreContext, iso: unknown, withTime = false): string {
  if (typeof iso !== 'string' || iso === '') return '';
  const options = withTime
    ? ({ dateStyle: 'medium', timeStyle: 'short' } as const)
    : ({ dateStyle: 'medium' } as const);
  try {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: ctx.salesChannel.timeZone || 'UTC' }).format(
      new Date(iso),
    );
  } catch {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(new Date(iso));
  }
}
