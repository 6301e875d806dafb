import { answerJson } from './answer-json.js';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { AppError, Errors, internalErrorBody } from './errors.js';
import { dbErrorAsAppError, type Db } from './db.js';
import { rebaseAdminLinks } from './json-api.js';
import {
  assertActorsFit,
  runRoute,
  type ApiDefinition,
  type PipelineOptions,
  type RouteOutcome,
  type RouteRequest,
} from './pipeline.js';
import type { RateLimiter } from './rate-limit.js';
import { assertRouteDeclared, toExpressPath, type AnyRoute } from './routes.js';

export type { ApiDefinition } from './pipeline.js';

export interface ApiRouterOptions {
  db: Db;
  rateLimiter: RateLimiter;
  /** Hold every handler to its declared response schema (on in tests). */
  validateResponses: boolean;
  /** Where this Admin API is mounted when not at ADMIN_API_BASE (lib/json-api.ts): its list links and Location headers name this path. */
  adminApiBase?: string;
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
  if (typeof body === 'object' && body !== null && Object.keys(body).length === 0 && !req.is('application/json'))
    return {};
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
  const json = answerJson(outcome.body);
  if (res.req.method === 'GET' || res.req.method === 'HEAD') {
    // As res.json would, from our text: express adds the ETag and answers If-None-Match with 304.
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.send(json);
    return;
  }
  // Answers to other methods are never fresh: written directly, without express's ETag (a hash of every body).
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
   * Every route by method and first path segment, in declaration order: a request is matched against
   * the few routes that could answer it instead of by express's walk over the router's whole list
   * (that walk was a tenth of a light route's CPU). Express keeps them too, for HEAD and OPTIONS and
   * for the routes with a body parser of their own.
   */
  private readonly table = new RouteTable();

  constructor(
    readonly api: ApiDefinition<C>,
    private readonly options: ApiRouterOptions,
  ) {
    this.router.use((req, res, next) => {
      const found = this.table.find(req.method, req.path);
      if (!found || !found.handle) return next();
      req.params = found.params;
      return found.handle(req, res, next);
    });
  }

  /**
   * The API as one app-level middleware, ahead of express's mount (`app.use(prefix, …parsers, router)`):
   * a request under `prefix` whose route is in the table and has no body parser of its own runs
   * `parsers` and its route here; every other request goes on to the mount, which answers it as
   * before (HEAD, OPTIONS, unknown paths, routes with their own parser). The mount's layers — path
   * matching, prefix trimming, a nested router per API — were a twentieth of a light route's CPU.
   */
  dispatcher(prefix: string, parsers: express.RequestHandler[]): express.RequestHandler {
    const lowerPrefix = prefix.toLowerCase();
    return (req, res, next) => {
      const { path } = req;
      if (
        path.length <= prefix.length ||
        path[prefix.length] !== '/' ||
        path.slice(0, prefix.length).toLowerCase() !== lowerPrefix
      )
        return next();
      const found = this.table.find(req.method, path.slice(prefix.length));
      const handle = found?.handle;
      if (!found || !handle) return next();
      let at = 0;
      const proceed = (error?: unknown): void => {
        if (error) return next(error);
        const parser = parsers[at++];
        if (parser) return void parser(req, res, proceed);
        req.baseUrl = prefix;
        req.params = found.params;
        Promise.resolve(handle(req, res, next)).catch(next);
      };
      proceed();
    };
  }

  /**
   * One call of one of this API's routes through the pipeline with this API's sessions, rate limits,
   * idempotency keys and response checks, from any transport (HTTP here, Vendure's GraphQL fields):
   * the outcome, with Admin API links under where the API is mounted; refusals are thrown.
   */
  async run(
    route: AnyRoute,
    request: RouteRequest,
    onAuthenticated?: PipelineOptions<C>['onAuthenticated'],
  ): Promise<RouteOutcome> {
    const outcome = await runRoute<C>(route, this.api, request, {
      db: this.options.db,
      rateLimiter: this.options.rateLimiter,
      validateResponses: this.options.validateResponses,
      onAuthenticated,
    });
    return this.options.adminApiBase ? rebaseAdminLinks(outcome, this.options.adminApiBase) : outcome;
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
        outcome = await this.run(route, routeRequestOf(req, body), (ctx, principal) => {
          res.locals.actorType = principal.actor;
          caller = { ctx };
        });
      } catch (error) {
        // A refused call still carries the refreshed context token (a successful one has it in its outcome).
        const known = caller as { ctx: C } | null;
        if (known)
          for (const [name, value] of Object.entries(this.api.responseHeaders?.(known.ctx) ?? {}))
            res.setHeader(name, value);
        throw error;
      }
      sendOutcome(res, outcome);
    };
    this.router[method](toExpressPath(route.path), ...middlewares, handle);
    // A route with its own body parser is left to express; found first, it still stops the look-up (declaration order).
    this.table.add(route.method, route.path, middlewares.length === 0 ? handle : null);
  }
}

interface TableEntry {
  /** Matches the path as express does: any case, one optional trailing slash, a parameter is one or more characters but `/`. */
  pattern: RegExp;
  paramNames: string[];
  handle: express.RequestHandler | null;
}

/**
 * How specific a path is, segment by segment: 0 a literal segment, 1 one with a parameter inside
 * (`switch-{type}`), 2 a parameter alone. Of two routes that match one path the more specific answers
 * (compared segment by segment), so `/b2b/order-approval/budget-approval-employees` wins over
 * `/b2b/order-approval/{orderApprovalId}` whichever add-on declared first; equals keep declaration order.
 */
function specificityOf(path: string): number[] {
  return path
    .split('/')
    .slice(1)
    .map((segment) => (!segment.includes('{') ? 0 : /^\{[A-Za-z0-9_]+\}$/.test(segment) ? 2 : 1));
}

function bySpecificity(a: { specificity: number[] }, b: { specificity: number[] }): number {
  for (let i = 0; i < Math.min(a.specificity.length, b.specificity.length); i++)
    if (a.specificity[i] !== b.specificity[i]) return a.specificity[i]! - b.specificity[i]!;
  return 0;
}

/** Routes by method and first path segment (a route whose first segment is a parameter is in every list of its method), the more specific first, else in declaration order. */
class RouteTable {
  private readonly entries: Array<TableEntry & { method: string; firstSegment: string | null; specificity: number[] }> =
    [];
  private index: Map<string, TableEntry[]> | null = null;

  add(method: string, path: string, handle: express.RequestHandler | null): void {
    const paramNames: string[] = [];
    const source = path
      .split(/(\{[A-Za-z0-9_]+\})/)
      .map((part) => {
        const param = /^\{([A-Za-z0-9_]+)\}$/.exec(part);
        if (!param) return part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
        paramNames.push(param[1]!);
        return '([^/]+)';
      })
      .join('');
    const first = path.split('/')[1] ?? '';
    this.entries.push({
      method: method.toUpperCase(),
      firstSegment: first.includes('{') ? null : first.toLowerCase(),
      specificity: specificityOf(path),
      pattern: new RegExp(`^${source}/?$`, 'i'),
      paramNames,
      handle,
    });
    this.index = null;
  }

  /** The first route that matches, with its decoded parameters (a malformed escape throws URIError, as express's decoding does: a 400). */
  find(method: string, path: string): { handle: express.RequestHandler | null; params: Record<string, string> } | null {
    const index = (this.index ??= this.buildIndex());
    const slash = path.indexOf('/', 1);
    const first = (slash === -1 ? path.slice(1) : path.slice(1, slash)).toLowerCase();
    const candidates = index.get(`${method} ${first}`) ?? index.get(`${method} `);
    if (!candidates) return null;
    for (const entry of candidates) {
      const match = entry.pattern.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      entry.paramNames.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1]!)));
      return { handle: entry.handle, params };
    }
    return null;
  }

  private buildIndex(): Map<string, TableEntry[]> {
    const index = new Map<string, TableEntry[]>();
    const keys = new Set(this.entries.map((entry) => `${entry.method} ${entry.firstSegment ?? ''}`));
    for (const key of keys) {
      const [method, first] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
      index.set(
        key,
        this.entries
          .filter((entry) => entry.method === method && (entry.firstSegment === null || entry.firstSegment === first))
          .sort(bySpecificity),
      );
    }
    for (const method of new Set(this.entries.map((entry) => entry.method))) {
      // Paths whose first segment no route names: only the routes starting with a parameter can match.
      if (!index.has(`${method} `))
        index.set(
          `${method} `,
          this.entries.filter((entry) => entry.method === method && entry.firstSegment === null).sort(bySpecificity),
        );
    }
    return index;
  }
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
    let appError: AppError | null = error instanceof AppError ? error : requestErrorOf(error);
    if (!appError && error instanceof URIError)
      appError = Errors.badRequest('SUITE__MALFORMED_URI', 'The request path is not valid.');
    if (!appError) {
      appError = dbErrorAsAppError(error);
      if (appError)
        log.warn(
          { requestId: requestIdOf(req), dbError: describeDbError(error) },
          appError.status === 503 ? 'database unavailable' : 'database contention',
        );
    }
    const requestId = requestIdOf(req);
    if (!appError) {
      log.error({ err: error, requestId, method: req.method, path: req.path }, 'unhandled error');
      res.status(500).json(internalErrorBody(requestId));
      return;
    }
    const retryAfter = appError.retryAfter();
    if ((appError.status === 429 || appError.status === 503) && retryAfter !== undefined)
      res.setHeader('Retry-After', String(retryAfter));
    const body = appError.toBody();
    for (const item of body.errors) item.meta = { ...item.meta, requestId };
    res.status(appError.status).json(body);
  };
}

/**
 * The answer to a request body that could not be read: body-parser's errors (and json-body.ts's) by
 * their `type`, and any other it passes on for the client's fault (http-errors: `expose` and a 4xx
 * status, e.g. a compressed body that does not inflate) as a 400. Null for anything else.
 */
function requestErrorOf(error: unknown): AppError | null {
  if (typeof error !== 'object' || error === null) return null;
  const { type, expose, status } = error as { type?: unknown; expose?: unknown; status?: unknown };
  if (type === 'entity.parse.failed')
    return Errors.badRequest('SUITE__MALFORMED_JSON', 'The request body is not valid JSON.');
  if (type === 'entity.too.large')
    return new AppError(413, 'SUITE__PAYLOAD_TOO_LARGE', 'The request body is too large.');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return new AppError(415, 'SUITE__UNSUPPORTED_ENCODING', 'The request body encoding is not supported.');
  if (type === 'request.size.invalid' || type === 'request.aborted')
    return Errors.badRequest('SUITE__INCOMPLETE_BODY', 'The request body ended before its declared length.');
  if (expose === true && typeof status === 'number' && status >= 400 && status < 500)
    return Errors.badRequest(
      'SUITE__MALFORMED_BODY',
      'The request body could not be read (e.g. a compressed body that does not inflate).',
    );
  return null;
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
