import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger as PinoLogger } from 'pino';
import { localsOf } from '../../lib/request-locals.js';

const INCOMING_REQUEST_ID = /^[\w-]{1,64}$/;
/** Probes and scrapes are counted in the metrics, not logged: a probe every few seconds would drown the log. */
const UNLOGGED_PATHS = /^\/(health(\/(live|ready))?|metrics)\/?(\?|$)/;

/**
 * The route a request matched, as declared (`/store-api/product/{productId}`), never the concrete
 * URL: URLs can carry secrets (login links) and e-mail addresses, and would make metric labels unbounded.
 */
export function routePatternOf(req: Request, res: Response): string {
  const declared = localsOf(res).routePattern;
  if (declared !== undefined) return declared;
  const route: unknown = req.route;
  if (typeof route === 'object' && route !== null && 'path' in route && typeof route.path === 'string')
    return `${req.baseUrl}${route.path}`;
  return 'unmatched';
}

/** Who called: guest, customer, employee, sales-representative, admin-integration, admin-user, or none (no context built). */
export function actorTypeOf(res: Response): string {
  return localsOf(res).actorType ?? 'none';
}

export interface RequestObserverOptions {
  /** Called once per request whose response finished (not for a connection closed before), with its duration: the metrics. */
  observe?(req: Request, res: Response, seconds: number): void;
  /** Headers every response carries. */
  headers?: Record<string, string>;
  /** While true, every answer tells keep-alive clients to reconnect (to another process): the server is draining. */
  draining?(): boolean;
}

/**
 * One log line per request at `info` (5xx at `error`, 503 at `warn`) with method, route pattern,
 * status, duration, request id and actor type (and a console operator's user name), and nothing else: no URL, headers, body or token.
 * Also gives every request its id (a well-formed incoming `x-request-id`, or a new one) and echoes it,
 * sets the headers every answer carries, and hands the finished request to `observe` (the metrics):
 * one middleware and one pair of listeners per request for all of it.
 * Written by hand rather than with pino-http, which builds two child loggers per request (with the
 * redaction serializers) whether or not the line is written: a tenth of a catalog request's CPU.
 */
export function requestLogger(log: PinoLogger, options: RequestObserverOptions = {}): RequestHandler {
  const headers = Object.entries(options.headers ?? {});
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    (req as Request & { id?: string }).id = id;
    res.setHeader('x-request-id', id);
    for (const [name, value] of headers) res.setHeader(name, value);
    if (options.draining?.()) res.setHeader('Connection', 'close');
    const logged = !UNLOGGED_PATHS.test(req.url);
    if (!logged && !options.observe) return next();
    const started = performance.now();
    let done = false;
    const finish = (finished: boolean) => {
      if (done) return;
      done = true;
      res.removeListener('finish', onFinish);
      res.removeListener('close', onClose);
      const ms = performance.now() - started;
      if (finished) options.observe?.(req, res, ms / 1000);
      if (!logged) return;
      const status = res.statusCode;
      const level = status === 503 ? 'warn' : status >= 500 ? 'error' : 'info';
      if (!log.isLevelEnabled(level)) return;
      const operator = localsOf(res).operator;
      log[level](
        {
          requestId: id,
          method: req.method,
          route: routePatternOf(req, res),
          status,
          durationMs: Math.round(ms),
          actorType: actorTypeOf(res),
          ...(operator ? { operator } : {}),
        },
        'request',
      );
    };
    const onFinish = () => finish(true);
    const onClose = () => finish(false);
    res.on('finish', onFinish);
    res.on('close', onClose);
    next();
  };
}
