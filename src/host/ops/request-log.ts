import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
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
 */
export function requestLogger(log: PinoLogger): RequestHandler {
  const fields = (req: IncomingMessage, res: ServerResponse, responseTime: number) => ({
    method: req.method,
    route: routePatternOf(req as Request, res as Response),
    status: res.statusCode,
    durationMs: responseTime,
    actorType: actorTypeOf(res as Response),
  });
  return pinoHttp({
    logger: log,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    genReqId(req, res) {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('x-request-id', id);
      return id;
    },
    autoLogging: { ignore: (req) => UNLOGGED_PATHS.test(req.url ?? '') },
    customLogLevel: (_req, res, error) => (res.statusCode === 503 ? 'warn' : res.statusCode >= 500 || error ? 'error' : 'info'),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    customSuccessObject: (req, res, value: { responseTime: number }) => fields(req, res, value.responseTime),
    customErrorObject: (req, res, _error, value: { responseTime: number }) => fields(req, res, value.responseTime),
  });
}
