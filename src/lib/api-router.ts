import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { AppError, Errors, internalErrorBody } from './errors.js';
import { dbErrorAsAppError, type Db } from './db.js';
import { assertActorsFit, runRoute, type ApiDefinition, type RouteOutcome, type RouteRequest } from './pipeline.js';
import type { RateLimiter } from './rate-limit.js';
import { assertRouteDeclared, toExpressPath, type AnyRoute } from './routes.js';

export type { ApiDefinition } from './pipeline.js';

export interface ApiRouterOptions {
  db: Db;
  rateLimiter: RateLimiter;
  /** Hold every handler to its declared response schema (on in tests). */
  validateResponses: boolean;
}

/** The transport-neutral request of an express request (the HTTP adapter's one translation in). */
export function routeRequestOf(req: Request, body: unknown): RouteRequest {
  const id = (req as Request & { id?: unknown }).id;
  return {
    params: { ...(req.params as Record<string, unknown>) },
    query: { ...(req.query as Record<string, unknown>) },
    body,
    header: (name) => req.get(name) ?? undefined,
    ip: req.ip ?? 'unknown',
    requestId: typeof id === 'string' || typeof id === 'number' ? String(id) : '',
  };
}

/** A JSON body as the pipeline reads it: an empty or absent body is `{}`. */
function jsonBodyOf(req: Request): unknown {
  const body: unknown = req.body;
  if (body === undefined) return {};
  if (typeof body === 'object' && body !== null && Object.keys(body).length === 0 && !req.is('application/json')) return {};
  return body;
}

/** Writes a pipeline outcome to an express response (the HTTP adapter's one translation out). */
export function sendOutcome(res: Response, outcome: RouteOutcome): void {
  for (const [name, value] of Object.entries(outcome.headers)) res.setHeader(name, value);
  res.status(outcome.status);
  if (outcome.status === 204 || outcome.body === undefined) {
    res.end();
    return;
  }
  if (outcome.contentType) {
    res.type(outcome.contentType);
    res.send(outcome.body);
    return;
  }
  if (res.req.method === 'GET' || res.req.method === 'HEAD') {
    res.json(outcome.body);
    return;
  }
  // Answers to other methods are never fresh: written directly, without express's ETag (a hash of every body).
  const json = JSON.stringify(outcome.body);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(json));
  res.end(json);
}

/**
 * The HTTP adapter of the pipeline (`runRoute`, src/lib/pipeline.ts) for one API: mounts each
 * declared route on an express router. Routes are added at any time before the first request
 * (plugins register late).
 */
export class ApiRouter<C> {
  readonly routes: AnyRoute[] = [];
  readonly router: Router = express.Router();
  private readonly seen = new Set<string>();
  /**
   * The routes without path parameters, by method and path as express matches them (any case, one
   * optional trailing slash): found by one look-up instead of a walk over the router's whole list
   * (the router's matching was 7 % of a light route's CPU). The router keeps them too (HEAD, OPTIONS).
   */
  private readonly staticRoutes = new Map<string, express.RequestHandler>();

  constructor(
    readonly api: ApiDefinition<C>,
    private readonly options: ApiRouterOptions,
  ) {
    this.router.use((req, res, next) => {
      const handler = this.staticRoutes.get(staticRouteKey(req.method, req.path));
      return handler ? handler(req, res, next) : next();
    });
  }

  add(route: AnyRoute): void {
    assertRouteDeclared(route);
    assertActorsFit(route, this.api.actorsByAuth);
    const key = `${route.method} ${route.path}`;
    if (this.seen.has(key)) throw new Error(`route ${key} is declared twice on the ${this.api.name}`);
    this.seen.add(key);
    this.routes.push(route);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const middlewares = [] as Array<express.RequestHandler>;
    const rawBody = Boolean(route.schemas.bodyContentType && route.schemas.bodyContentType !== 'application/json');
    if (rawBody) middlewares.push(express.text({ type: () => true, limit: '5mb' }));
    // Express 5 hands a rejected promise to the error middleware: no wrapper needed.
    const handle = async (req: Request, res: Response) => {
      // Read by the request log and the metrics: the declared pattern, never the concrete URL.
      res.locals.routePattern = `${req.baseUrl}${route.path}`;
      const body = rawBody ? (typeof req.body === 'string' ? req.body : '') : jsonBodyOf(req);
      let caller: { ctx: C } | null = null;
      let outcome: RouteOutcome;
      try {
        outcome = await runRoute<C>(route, this.api, routeRequestOf(req, body), {
          db: this.options.db,
          rateLimiter: this.options.rateLimiter,
          validateResponses: this.options.validateResponses,
          onAuthenticated: (ctx, principal) => {
            res.locals.actorType = principal.actor;
            caller = { ctx };
          },
        });
      } catch (error) {
        // A refused call still carries the refreshed context token (a successful one has it in its outcome).
        const known = caller as { ctx: C } | null;
        if (known) for (const [name, value] of Object.entries(this.api.responseHeaders?.(known.ctx) ?? {})) res.setHeader(name, value);
        throw error;
      }
      sendOutcome(res, outcome);
    };
    this.router[method](toExpressPath(route.path), ...middlewares, handle);
    if (middlewares.length === 0 && !route.path.includes('{') && !this.shadowed(route)) this.staticRoutes.set(staticRouteKey(route.method, route.path), handle);
  }

  /** A route with parameters declared earlier that matches this path answers it under express's order: the look-up must not jump ahead of it. */
  private shadowed(route: AnyRoute): boolean {
    return this.routes.some((other) => other !== route && other.method === route.method && other.path.includes('{') && pathPattern(other.path).test(route.path));
  }
}

function pathPattern(path: string): RegExp {
  const parts = path.split(/\{[A-Za-z0-9_]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}/?$`, 'i');
}

function staticRouteKey(method: string, path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return `${method.toUpperCase()} ${trimmed.toLowerCase()}`;
}

/**
 * Turns anything thrown into the one error body, with the request id in every error's `meta`.
 * Database faults become 503 (Retry-After) or 409 as `dbErrorAsAppError` decides; 500 only for bugs, without internals.
 */
export function errorMiddleware(log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void }) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(error);
      return;
    }
    let appError: AppError | null = null;
    if (error instanceof AppError) appError = error;
    else if (typeof error === 'object' && error !== null && 'type' in error) {
      const type = (error as { type: string }).type;
      if (type === 'entity.parse.failed') appError = Errors.badRequest('SUITE__MALFORMED_JSON', 'The request body is not valid JSON.');
      else if (type === 'entity.too.large') appError = new AppError(413, 'SUITE__PAYLOAD_TOO_LARGE', 'The request body is too large.');
      else if (type === 'encoding.unsupported' || type === 'charset.unsupported')
        appError = new AppError(415, 'SUITE__UNSUPPORTED_ENCODING', 'The request body encoding is not supported.');
    } else if (error instanceof URIError) {
      appError = Errors.badRequest('SUITE__MALFORMED_URI', 'The request path is not valid.');
    } else {
      appError = dbErrorAsAppError(error);
      if (appError) log.warn({ requestId: requestIdOf(req), dbError: describeDbError(error) }, appError.status === 503 ? 'database unavailable' : 'database contention');
    }
    const requestId = requestIdOf(req);
    if (!appError) {
      log.error({ err: error, requestId, method: req.method, path: req.path }, 'unhandled error');
      res.status(500).json(internalErrorBody(requestId));
      return;
    }
    const retryAfter = appError.retryAfter();
    if ((appError.status === 429 || appError.status === 503) && retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    const body = appError.toBody();
    for (const item of body.errors) item.meta = { ...item.meta, requestId };
    res.status(appError.status).json(body);
  };
}

function requestIdOf(req: Request): string {
  const id = (req as Request & { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}

/** The driver's code and message, never its stack or the SQL with its values. */
export function describeDbError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message.split(' - ').pop()!.slice(0, 200) : String(error);
  return typeof code === 'string' ? `${code}: ${text}` : text;
}
