import type { Request } from 'express';
import { ForbiddenError, type RequestContext } from '@vendure/core';
import { AppError } from '../../lib/errors.js';
import type { StoreContext } from '../../contract/index.js';
import type { AdapterState } from './state.js';
import { buildStoreContext } from './store-api.js';

/**
 * StoreContexts of the adapter's own Vendure calls (cart.ts): Vendure's services are called with a
 * RequestContext the adapter creates around a stand-in request object; Vendure's hooks (price
 * strategy, order interceptors, order process) then find the plugin's context through it. Keyed by
 * that object, which Vendure's RequestContext copies (transactions) keep.
 */
const boundContexts = new WeakMap<object, StoreContext>();

/** A stand-in request for a RequestContext the adapter creates for `ctx` (pass it as `req`). */
export function requestFor(ctx: StoreContext): Request {
  const req = {} as Request;
  boundContexts.set(req, ctx);
  return req;
}

/**
 * The express request a RequestContext was made for, or null when it has none to read headers from:
 * Vendure serialises a job's context when it queues the job (`RequestContext.serialize` keeps a plain
 * copy of the request's simple fields, no methods) and the worker deserialises that copy, and a
 * context `RequestContextService.create` made may carry any object or none (decision 0055: a
 * job's `req.get is not a function` failed Vendure's search index job). Such a context is no
 * buyer's request: the plugin's hooks treat it as the worker's (no StoreContext), never as a guest
 * or a customer by headers that were copied.
 */
export function liveRequestOf(ctx: RequestContext): Request | null {
  const req = ctx.req as Partial<Request> | undefined;
  return req && typeof req.get === 'function' && typeof req.header === 'function' ? (req as Request) : null;
}

/**
 * The plugin's StoreContext for a request to Vendure's own Shop API (visibility, prices), built
 * once per Vendure RequestContext from the same request as on /store-api: a plugin context token,
 * else the Vendure session's customer (Vendure resolved the user already), else a guest.
 * null for the Admin API and for contexts without a live request (liveRequestOf): a job's on the
 * worker, a serialised one, one `RequestContextService.create` made. A refused context token is
 * Vendure's ForbiddenError.
 */
export function storeContexts(state: AdapterState): (ctx: RequestContext) => Promise<StoreContext | null> {
  const byContext = new WeakMap<RequestContext, Promise<StoreContext | null>>();
  return (ctx) => {
    const bound = ctx.req ? boundContexts.get(ctx.req) : undefined;
    if (bound) return Promise.resolve(bound);
    const req = liveRequestOf(ctx);
    if (ctx.apiType !== 'shop' || !req) return Promise.resolve(null);
    let pending = byContext.get(ctx);
    if (!pending) {
      // The request id the request log middleware sets (src/host/ops/request-log.ts) when it runs.
      const id = (req as Request & { id?: unknown }).id;
      const request = {
        header: (name: string) => req.get(name) ?? undefined,
        ip: req.ip ?? 'unknown',
        requestId: typeof id === 'string' ? id : '',
      };
      pending = buildStoreContext(
        state,
        request,
        false,
        ctx.activeUserId == null ? null : String(ctx.activeUserId),
      ).catch((error: unknown) => {
        // A refused plugin token is a client error in Vendure's terms too (logged as a warning, not an error).
        if (error instanceof AppError && (error.status === 401 || error.status === 403)) throw new ForbiddenError();
        throw error;
      });
      byContext.set(ctx, pending);
      pending.catch(() => byContext.delete(ctx));
    }
    return pending;
  };
}
