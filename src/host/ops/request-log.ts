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
  if (typeof route === 'object' && route !== null && 'path' in route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  return 'unmatched';
}

/** Who called: guest, customer, employee, sales-representative, admin-integration, admin-user, or none (no context built). */
export function actorTypeOf(res: Response): string {
  return localsOf(res).actorType ?? 'none';
}

/**
 * One log line per request at `info` (5xx at `error`, 503 at `warn`) with method, route pattern,
 * status, duration, request id and actor type, and nothing else: no URL, headers, body or token.
 * Also gives every request its id (a well-formed incoming `x-request-id`, or a new one) and echoes it.
 * Written by hand rather than with pino-http, which builds two child loggers per request (with the
 * redaction serializers) whether or not the line is written: a tenth of a catalog request's CPU.
 */
export function requestLogger(log: PinoLogger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    (req as Request & { id?: string }).id = id;
    res.setHeader('x-request-id', id);
    if (!UNLOGGED_PATHS.test(req.url)) {
      const started = Date.now();
      let logged = false;
      const done = () => {
        if (logged) return;
        logged = true;
        res.removeListener('finish', done);
        res.removeListener('close', done);
        const status = res.statusCode;
        const level = status === 503 ? 'warn' : status >= 500 ? 'error' : 'info';
        if (!log.isLevelEnabled(level)) return;
        log[level]({ requestId: id, method: req.method, route: routePatternOf(req, res), status, durationMs: Date.now() - started, actorType: actorTypeOf(res) }, 'request');
      };
      res.on('finish', done);
      res.on('close', done);
    }
    next();
  };
}
