import { AppError, Errors } from './errors.js';
import type { Db } from './db.js';
import { idempotencyStore, type IdempotencyStore } from './idempotency.js';
import { enforceRateLimits, type RateLimiter } from './rate-limit.js';
import {
  isReply,
  rateLimitRules,
  type ActorName,
  type ContentResponse,
  type RouteGate,
  type RouteInput,
  type RouteSchemas,
} from './routes.js';
import { responseProblems, validateOrThrow } from './validation.js';

/**
 * The one request pipeline. Every way of calling a declared route goes through `runRoute`:
 *
 *   rate limit → authenticate → actors (401 guest / 403) → customer context (403) → permission (403)
 *   → validate params, query, body (400) → idempotency key → handler → response check
 *
 * Adapters only translate: the HTTP adapter (`ApiRouter`, src/lib/api-router.ts) reads an express
 * request and writes the outcome; the in-process adapter (`callRoute`, src/lib/route-call.ts) runs a
 * route for a context a page already has; the storefront mounts its pages through the same function;
 * tests use `invokeRoute` below. A host brings its sessions as an `ApiDefinition`.
 */

/** The transport-neutral request: what the pipeline reads, whoever received it. */
export interface RouteRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** The parsed JSON body (`{}` for an empty one), or the raw text of a non-JSON body. */
  body: unknown;
  /** A request header by lower-case name (Idempotency-Key; a host's authenticate reads its own). */
  header(name: string): string | undefined;
  /** The client address, for rate limits. */
  ip: string;
  /** The transport's request id (logs, error bodies), when it has one. */
  requestId?: string;
}

/** The caller as the pipeline's checks see it. */
export interface Principal {
  actor: ActorName;
  /** The customer the caller acts for (checked by `needsCustomer`); null when none. */
  customerId: string | null;
  can(permission: string): boolean;
  /** Who is calling, as the scope of idempotency keys: the same caller must get the same key. */
  key: string;
}

/**
 * What a host implements to serve declared routes with its own sessions (the reference host:
 * src/host/auth/store-context.ts and admin-context.ts). Small on purpose: authenticate, say who that
 * is, and optionally add response headers.
 */
export interface ApiDefinition<C> {
  /** 'store-api' or 'admin-api': names errors and the scope of idempotency keys. */
  name: string;
  /** For each `auth` value a route may declare: the actors it admits (a route's `actors` narrows them). */
  actorsByAuth: Record<string, readonly ActorName[]>;
  /**
   * Builds the caller's context. It may throw 401 itself (a token presented but not valid); a guest
   * on a route that admits no guest is refused by the pipeline with 401.
   */
  authenticate(request: RouteRequest, route: PipelineRoute<C>): Promise<C>;
  principal(ctx: C): Principal;
  /** Headers added to every answer once authenticated (the Store API: the context token). */
  responseHeaders?(ctx: C): Record<string, string>;
}

/** What `runRoute` runs: a route declaration (`RouteDefinition`), or a storefront page in the same shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route or page whatever its context: its handler's parameter is contravariant, so `unknown` would refuse them (as AnyRoute, lib/routes.ts)
export interface PipelineRoute<C = any> extends RouteGate {
  method: string;
  path: string;
  operationId: string;
  /** Absent for storefront pages: their form is read by the page. */
  schemas?: RouteSchemas;
  /** Storefront pages: the caller needs one of these keys (routes use `permission`). */
  anyPermission?: string[];
  idempotent?: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the inputs are what the route's schemas admitted; a route declares their types itself (RouteDefinition's B, Q, P)
  handler: (input: RouteInput<C, any, any, any>) => Promise<unknown>;
}

export interface PipelineOptions<C = unknown> {
  /** Where rate-limit counters live; without one, declared limits are not counted (in-process calls). */
  rateLimiter?: RateLimiter;
  /** Idempotency keys are kept here; without it (or `idempotency`) an Idempotency-Key is ignored. */
  db?: Db;
  /** Where idempotency keys are kept when not in `db` (an in-process call: the host's store, through the contract). */
  idempotency?: IdempotencyStore;
  /** Hold every handler to its declared response schema (on in tests). */
  validateResponses: boolean;
  /** Called once the caller is known, before any check refuses it (request logs, error pages, CSRF). */
  onAuthenticated?(ctx: C, principal: Principal): void | Promise<void>;
}

export interface RouteOutcome {
  status: number;
  /** The JSON body, a string/Buffer of a content response, or a storefront page's result. */
  body: unknown;
  contentType?: string;
  headers: Record<string, string>;
  /** Answered from an Idempotency-Key's first response. */
  replayed: boolean;
}

export const STORE_ACTORS: readonly ActorName[] = ['guest', 'customer', 'employee', 'salesRepresentative'];
export const LOGGED_IN_STORE_ACTORS: readonly ActorName[] = ['customer', 'employee', 'salesRepresentative'];

/** One object, so its compiled validator is cached (validators are cached per schema object). */
const ANY_OBJECT = { type: 'object' };

export function isContentResponse(value: unknown): value is ContentResponse {
  return typeof value === 'object' && value !== null && typeof (value as ContentResponse).contentType === 'string';
}

/** The actors that may call a route on an API: its declared ones, or every actor its `auth` admits. */
export function effectiveActors(
  route: Pick<RouteGate, 'auth' | 'actors'>,
  actorsByAuth: Record<string, readonly ActorName[]>,
): readonly ActorName[] {
  return route.actors ?? actorsByAuth[route.auth] ?? [];
}

/** Refuses a declaration whose actors its `auth` cannot admit (e.g. 'guest' on a login route). */
export function assertActorsFit(
  route: Pick<RouteGate, 'auth' | 'actors'> & { method: string; path: string },
  actorsByAuth: Record<string, readonly ActorName[]>,
): void {
  const admitted = actorsByAuth[route.auth];
  if (!admitted)
    throw new Error(
      `route ${route.method} ${route.path}: auth "${route.auth}" is not known here (${Object.keys(actorsByAuth).join(', ')})`,
    );
  for (const actor of route.actors ?? [])
    if (!admitted.includes(actor))
      throw new Error(`route ${route.method} ${route.path}: actor "${actor}" cannot pass auth "${route.auth}"`);
}

const ACTOR_WORDS: Record<ActorName, string> = {
  guest: 'a guest',
  customer: 'the customer login',
  employee: 'an employee login',
  salesRepresentative: 'a sales representative login',
  admin: 'an admin',
};

/**
 * The refusal of an actor the route does not admit. One code per declared set, the codes the
 * hand-written guards answered: only representatives → SUITE__SALES_REPRESENTATIVE_ONLY, only
 * employees → SUITE__EMPLOYEE_ONLY, the customer side (customer and employees) →
 * SUITE__CUSTOMER_SIDE_ONLY, anything else SUITE__ACTOR_NOT_ALLOWED.
 */
export function actorRefusal(actors: readonly ActorName[]): AppError {
  const set = [...new Set(actors)]
    .filter((actor) => actor !== 'guest')
    .sort()
    .join(',');
  const detail = `Only ${actors
    .filter((actor) => actor !== 'guest')
    .map((actor) => ACTOR_WORDS[actor])
    .join(' or ')} may do this.`;
  const code =
    set === 'salesRepresentative'
      ? 'SUITE__SALES_REPRESENTATIVE_ONLY'
      : set === 'employee'
        ? 'SUITE__EMPLOYEE_ONLY'
        : set === 'customer,employee'
          ? 'SUITE__CUSTOMER_SIDE_ONLY'
          : 'SUITE__ACTOR_NOT_ALLOWED';
  return Errors.forbidden(detail, code);
}

export const noCustomerContext = (): AppError =>
  Errors.forbidden('Choose the customer you act for first.', 'SUITE__NO_CUSTOMER_CONTEXT');

/**
 * Who may call, in the pipeline's order: actors (a guest 401, another actor 403), the customer
 * context (403), the permission (403).
 */
export function checkGate(
  route: Pick<PipelineRoute, 'auth' | 'actors' | 'needsCustomer' | 'permission' | 'anyPermission'>,
  principal: Principal,
  actorsByAuth: Record<string, readonly ActorName[]>,
): void {
  const actors = effectiveActors(route, actorsByAuth);
  if (!actors.includes(principal.actor)) {
    if (principal.actor === 'guest') throw Errors.unauthorized();
    throw actorRefusal(actors);
  }
  if (route.needsCustomer && !principal.customerId) throw noCustomerContext();
  const keys = route.permission ? [route.permission] : (route.anyPermission ?? []);
  if (keys.length > 0 && !keys.some((key) => principal.can(key)))
    throw Errors.forbidden(`The permission "${keys.join('" or "')}" is required.`, 'SUITE__PERMISSION_DENIED');
}

function headerSink(headers: Record<string, string>) {
  return {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
}

/**
 * Runs one call of a declared route through the pipeline and answers its outcome; errors (AppError
 * for the caller's faults) are thrown for the adapter to render. `ctx` given: the caller is already
 * known (an in-process call from a page) and `authenticate` is skipped.
 */
export async function runRoute<C>(
  route: PipelineRoute<C>,
  api: Pick<ApiDefinition<C>, 'name' | 'actorsByAuth' | 'authenticate' | 'principal' | 'responseHeaders'>,
  request: RouteRequest,
  options: PipelineOptions<C>,
  given?: { ctx: C },
): Promise<RouteOutcome> {
  if (options.rateLimiter)
    await enforceRateLimits(options.rateLimiter, rateLimitRules(route), { ip: request.ip, body: request.body });
  const ctx = given ? given.ctx : await api.authenticate(request, route);
  const principal = api.principal(ctx);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(api.responseHeaders?.(ctx) ?? {})) headers[name.toLowerCase()] = value;
  if (options.onAuthenticated) await options.onAuthenticated(ctx, principal);
  checkGate(route, principal, api.actorsByAuth);

  const { schemas } = route;
  let params: Record<string, unknown> = { ...request.params };
  let query: Record<string, unknown> = { ...request.query };
  let body: unknown = request.body;
  if (schemas) {
    params = validateOrThrow<Record<string, unknown>>(schemas.params ?? ANY_OBJECT, params, 'params');
    query = validateOrThrow<Record<string, unknown>>(schemas.query ?? ANY_OBJECT, query, 'query');
    if (!schemas.body) body = undefined;
    else if (schemas.bodyContentType && schemas.bodyContentType !== 'application/json') {
      body = typeof body === 'string' ? body : '';
      validateOrThrow(schemas.body, body, 'body');
    } else body = validateOrThrow(schemas.body, body ?? {}, 'body');
  }

  const store = options.idempotency ?? (options.db ? idempotencyStore(options.db) : undefined);
  const idempotencyKey = route.idempotent && store ? request.header('idempotency-key') : undefined;
  if (idempotencyKey !== undefined && (idempotencyKey.length < 1 || idempotencyKey.length > 255))
    throw Errors.badRequest('SUITE__INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 1 to 255 characters.', {
      parameter: 'Idempotency-Key',
    });
  const scope = idempotencyKey ? `${api.name}:${route.operationId}:${principal.key}` : '';
  if (idempotencyKey && store) {
    const claim = await store.claim(scope, idempotencyKey, { params, body });
    if ('replay' in claim) {
      checkResponse(route, claim.replay.status, claim.replay.body, options);
      return {
        status: claim.replay.status,
        body: claim.replay.body,
        headers: { ...headers, 'idempotent-replayed': 'true' },
        replayed: true,
      };
    }
  }

  let result: unknown;
  try {
    result = await route.handler({ ctx, body, query, params, headers: headerSink(headers) });
  } catch (error) {
    if (idempotencyKey && store) await store.release(scope, idempotencyKey);
    throw error;
  }
  const status = isReply(result) ? result.status : 200;
  const payload = isReply(result) ? result.body : result;
  if (isReply(result))
    for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = value;
  const declared = schemas?.responses[status];
  const contentType =
    (isReply(result) ? result.contentType : undefined) ??
    (isContentResponse(declared) ? declared.contentType : undefined);
  if (idempotencyKey && store) await store.complete(scope, idempotencyKey, { status, body: payload });
  checkResponse(route, status, payload, options);
  return { status, body: payload, ...(contentType ? { contentType } : {}), headers, replayed: false };
}

/** With `validateResponses`: an undeclared status, or a body its JSON Schema refuses, is a bug in the route. */
function checkResponse(route: PipelineRoute, status: number, payload: unknown, options: PipelineOptions): void {
  if (!options.validateResponses || !route.schemas) return;
  const declared = route.schemas.responses[status];
  if (declared === undefined)
    throw new Error(`${route.method} ${route.path} answered ${status}, which its declaration does not list`);
  if (declared && !isContentResponse(declared)) {
    const problems = responseProblems(declared, payload);
    if (problems) throw new Error(`${route.method} ${route.path} answered a body its schema refuses: ${problems}`);
  }
}

/**
 * The test adapter: one call as a client would see it — the outcome, or the error body of a
 * refusal — with responses held to their schemas. `request` fills in what a test leaves out.
 */
export async function invokeRoute<C>(
  route: PipelineRoute<C>,
  api: ApiDefinition<C>,
  request: Partial<Omit<RouteRequest, 'header'>> & { headers?: Record<string, string> },
  options: Partial<PipelineOptions<C>> = {},
): Promise<RouteOutcome> {
  const headers = Object.fromEntries(
    Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const full: RouteRequest = {
    params: request.params ?? {},
    query: request.query ?? {},
    body: request.body ?? {},
    ip: request.ip ?? '127.0.0.1',
    header: (name) => headers[name.toLowerCase()],
  };
  try {
    return await runRoute(route, api, full, { validateResponses: true, ...options });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, body: error.toBody(), headers: {}, replayed: false };
  }
}
