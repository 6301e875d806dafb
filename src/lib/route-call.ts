import { isReply, type AnswerOf, type AnyRoute, type Reply } from './routes.js';
import { LOGGED_IN_STORE_ACTORS, runRoute, STORE_ACTORS, type Principal } from './pipeline.js';
import type { ActorName } from './routes.js';
import type { IdempotencyStore } from './idempotency.js';

/** A Store API context as the in-process adapter reads it (the contract's StoreContext is one). */
export interface CallerContext {
  actor: { type: Exclude<ActorName, 'admin'>; id: string | null };
  customer: { id: string } | null;
  sessionId: string | null;
  ip: string;
  can(permission: string): boolean;
}

export interface RouteCallInput<C> {
  ctx: C & CallerContext;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  /**
   * An idempotent route's key, as the Idempotency-Key header brings it over HTTP: a page passes the
   * token it rendered into its form, so a resubmitted form answers the first result instead of acting
   * twice. Kept in the host's store (`HostRuntime.storeApi.idempotency`), scoped to the in-process
   * API, the route and the caller.
   */
  idempotency?: { key: string; store: IdempotencyStore };
}

function principalOf(ctx: CallerContext): Principal {
  return {
    actor: ctx.actor.type,
    customerId: ctx.customer?.id ?? null,
    can: (permission) => ctx.can(permission),
    key: `${ctx.actor.type}:${ctx.actor.id ?? ctx.sessionId ?? 'guest'}:${ctx.customer?.id ?? ''}`,
  };
}

/** The in-process adapter's API: the page already knows its caller, so there is nothing to authenticate. */
const IN_PROCESS = {
  name: 'in-process',
  actorsByAuth: { public: STORE_ACTORS, login: LOGGED_IN_STORE_ACTORS },
  authenticate: () => Promise.reject(new Error('an in-process call brings its context')),
  principal: principalOf,
};

/**
 * The in-process adapter of the pipeline (`runRoute`): server-rendered pages act through the very
 * declaration the API serves — actors, customer context, permission (401/403), param/query/body
 * schemas (400), handler, and the idempotency key a page passes (`input.idempotency`). Not counted:
 * the route's rate limit (the page declares its own). Response headers the handler sets (a switch route's new
 * context token) are dropped, since the body carries the same. Returns the JSON body, or the Reply
 * of a non-JSON answer.
 */
export async function callRoute<R extends AnyRoute, C = unknown>(
  route: R,
  input: RouteCallInput<C>,
): Promise<AnswerOf<R>> {
  const outcome = await runRoute<C & CallerContext>(
    route,
    IN_PROCESS,
    {
      params: input.params ?? {},
      query: input.query ?? {},
      body: input.body ?? {},
      header: (name) => (name === 'idempotency-key' ? input.idempotency?.key : undefined),
      ip: input.ctx.ip,
    },
    { validateResponses: false, ...(input.idempotency ? { idempotency: input.idempotency.store } : {}) },
    { ctx: input.ctx },
  );
  if (outcome.contentType || Buffer.isBuffer(outcome.body))
    return {
      kind: 'reply',
      status: outcome.status,
      body: outcome.body,
      contentType: outcome.contentType,
    } as AnswerOf<R>;
  return outcome.body as AnswerOf<R>;
}

/** Looks up declared routes by operationId; a missing one is a programming error. */
export function routesById(routes: AnyRoute[]): (operationId: string) => AnyRoute {
  const byId = new Map(routes.map((route) => [route.operationId, route]));
  return (operationId) => {
    const route = byId.get(operationId);
    if (!route) throw new Error(`no route with operationId "${operationId}"`);
    return route;
  };
}

export { isReply };
export type { Reply };
