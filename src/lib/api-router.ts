import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { AppError, Errors, internalErrorBody } from './errors.js';
import { dbErrorAsAppError, type Db } from './db.js';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from './idempotency.js';
import { enforceRateLimit } from './rate-limit.js';
import { assertRouteDeclared, isReply, toExpressPath, type AnyRoute, type ContentResponse } from './routes.js';
import { responseProblems, validateOrThrow } from './validation.js';

export interface ApiDefinition<C> {
  name: string;
  /** Builds the caller's context; throws 401 when `route.auth` needs a login the request lacks. */
  authenticate(req: Request, route: AnyRoute): Promise<C>;
  /** Throws 403 when the context may not call the route (permission keys). */
  authorize(route: AnyRoute, ctx: C): void;
  /** Scope of idempotency keys: who is calling. */
  callerKey(ctx: C): string;
  /** Headers added to every response (e.g. the refreshed context token). */
  responseHeaders?(ctx: C): Record<string, string>;
  /** Who is calling, for the request log (guest, customer, employee, admin-integration …): never an id or e-mail. */
  actorType(ctx: C): string;
}

export interface ApiRouterOptions {
  db: Db;
  /** Hold every handler to its declared response schema (on in tests). */
  validateResponses: boolean;
}

/** One object, so its compiled validator is cached (validators are cached per schema object). */
const ANY_OBJECT = { type: 'object' };

function isContentResponse(value: unknown): value is ContentResponse {
  return typeof value === 'object' && value !== null && typeof (value as ContentResponse).contentType === 'string';
}

/**
 * The API pipeline: rate limit → authenticate → authorize → validate → idempotency → handler →
 * response check. Routes are added at any time before the first request (plugins register late).
 */
export class ApiRouter<C> {
  readonly routes: AnyRoute[] = [];
  readonly router: Router = express.Router();
  private readonly seen = new Set<string>();

  constructor(
    private readonly api: ApiDefinition<C>,
    private readonly options: ApiRouterOptions,
  ) {}

  add(route: AnyRoute): void {
    assertRouteDeclared(route);
    const key = `${route.method} ${route.path}`;
    if (this.seen.has(key)) throw new Error(`route ${key} is declared twice on the ${this.api.name}`);
    this.seen.add(key);
    this.routes.push(route);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const middlewares = [] as Array<express.RequestHandler>;
    if (route.schemas.bodyContentType && route.schemas.bodyContentType !== 'application/json') {
      middlewares.push(express.text({ type: () => true, limit: '5mb' }));
    }
    // Express 5 hands a rejected promise to the error middleware: no wrapper needed.
    this.router[method](toExpressPath(route.path), ...middlewares, (req: Request, res: Response) => this.handle(route, req, res));
  }

  private async handle(route: AnyRoute, req: Request, res: Response): Promise<void> {
    // Read by the request log and the metrics: the declared pattern, never the concrete URL.
    res.locals.routePattern = `${req.baseUrl}${route.path}`;
    if (route.rateLimit) await enforceRateLimit(this.options.db, route.rateLimit, req);
    const ctx = await this.api.authenticate(req, route);
    res.locals.actorType = this.api.actorType(ctx);
    for (const [name, value] of Object.entries(this.api.responseHeaders?.(ctx) ?? {})) res.setHeader(name, value);
    this.api.authorize(route, ctx);

    const { schemas } = route;
    const params = validateOrThrow<Record<string, unknown>>(schemas.params ?? ANY_OBJECT, { ...req.params }, 'params');
    const query = validateOrThrow<Record<string, unknown>>(schemas.query ?? ANY_OBJECT, { ...(req.query as object) }, 'query');
    let body: unknown = undefined;
    if (schemas.body) {
      if (schemas.bodyContentType && schemas.bodyContentType !== 'application/json') {
        body = typeof req.body === 'string' ? req.body : '';
        validateOrThrow(schemas.body, body, 'body');
      } else {
        const raw: unknown = req.body;
        body = raw === undefined || (typeof raw === 'object' && raw !== null && Object.keys(raw).length === 0 && !req.is('application/json'))
          ? {}
          : raw;
        body = validateOrThrow(schemas.body, body, 'body');
      }
    }

    const idempotencyKey = route.idempotent ? req.get('idempotency-key') : undefined;
    if (idempotencyKey !== undefined && (idempotencyKey.length < 1 || idempotencyKey.length > 255))
      throw Errors.badRequest('SUITE__INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 1 to 255 characters.', { parameter: 'Idempotency-Key' });
    const scope = idempotencyKey ? `${this.api.name}:${route.operationId}:${this.api.callerKey(ctx)}` : '';
    if (idempotencyKey) {
      const claim = await claimIdempotencyKey(this.options.db, scope, idempotencyKey, { params, body });
      if ('replay' in claim) {
        res.setHeader('Idempotent-Replayed', 'true');
        this.send(route, res, claim.replay.status, claim.replay.body, undefined);
        return;
      }
    }

    let result: unknown;
    try {
      result = await route.handler({ ctx, body, query, params, req, res });
    } catch (error) {
      if (idempotencyKey) await releaseIdempotencyKey(this.options.db, scope, idempotencyKey);
      throw error;
    }
    const status = isReply(result) ? result.status : 200;
    const payload = isReply(result) ? result.body : result;
    if (isReply(result)) for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
    const contentType = isReply(result) ? result.contentType : undefined;
    if (idempotencyKey) await completeIdempotencyKey(this.options.db, scope, idempotencyKey, { status, body: payload });
    this.send(route, res, status, payload, contentType);
  }

  private send(route: AnyRoute, res: Response, status: number, payload: unknown, contentType: string | undefined): void {
    const declared = route.schemas.responses[status];
    if (this.options.validateResponses) {
      if (declared === undefined)
        throw new Error(`${route.method} ${route.path} answered ${status}, which its declaration does not list`);
      if (declared && !isContentResponse(declared)) {
        const problems = responseProblems(declared, payload);
        if (problems) throw new Error(`${route.method} ${route.path} answered a body its schema refuses: ${problems}`);
      }
    }
    res.status(status);
    if (status === 204 || payload === undefined) {
      res.end();
      return;
    }
    if (contentType || isContentResponse(declared)) {
      res.type(contentType ?? (declared as ContentResponse).contentType);
      res.send(payload);
      return;
    }
    res.json(payload);
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
