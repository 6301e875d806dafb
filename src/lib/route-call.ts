import { Errors } from './errors.js';
import { isReply, type AnyRoute, type Reply } from './routes.js';
import { validateOrThrow } from './validation.js';

const ANY_OBJECT = { type: 'object' };

/** What an in-process call offers for `res`: header setters that do nothing. */
const IGNORED_HEADERS = {
  setHeader: () => IGNORED_HEADERS,
  set: () => IGNORED_HEADERS,
  header: () => IGNORED_HEADERS,
};

export interface RouteCallInput<C> {
  ctx: C & { can(permission: string): boolean };
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/**
 * Runs a declared route in-process, as the API pipeline would after authentication: the route's
 * permission key (403), its param/query/body schemas (400), then its handler. Server-rendered pages
 * use it to act through the very declaration the API serves. Handlers called this way get no
 * express request; response headers they set (a switch route's new context token) are dropped,
 * since the body carries the same. Returns the JSON body, or the Reply of a non-JSON answer.
 */
export async function callRoute<T = unknown, C = unknown>(route: AnyRoute, input: RouteCallInput<C>): Promise<T> {
  if (route.permission && !input.ctx.can(route.permission))
    throw Errors.forbidden(`The permission "${route.permission}" is required.`, 'SUITE__PERMISSION_DENIED');
  const { schemas } = route;
  const params = validateOrThrow<Record<string, unknown>>(schemas.params ?? ANY_OBJECT, { ...input.params }, 'params');
  const query = validateOrThrow<Record<string, unknown>>(schemas.query ?? ANY_OBJECT, { ...input.query }, 'query');
  const body = schemas.body ? validateOrThrow(schemas.body, input.body ?? {}, 'body') : undefined;
  const result = await route.handler({ ctx: input.ctx, params, query, body, req: undefined as never, res: IGNORED_HEADERS as never });
  if (isReply(result) && (result.contentType || Buffer.isBuffer(result.body))) return result as T;
  return (isReply(result) ? result.body : result) as T;
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

export type { Reply };
