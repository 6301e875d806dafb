import type { Request } from 'express';
import { ForbiddenError, type RequestContext } from '@vendure/core';
import { AppError } from '../../lib/errors.js';
import type { StoreContext } from '../../host/contract.js';
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
 * The plugin's StoreContext for a request to Vendure's own Shop API (visibility, prices), built
 * once per Vendure RequestContext from the same request as on /store-api: a plugin context token,
 * else the Vendure session's customer (Vendure resolved the user already), else a guest.
 * null for the Admin API and for contexts without a request (jobs, the worker). A refused
 * context token is Vendure's ForbiddenError.
 */
export function storeContexts(state: AdapterState): (ctx: RequestContext) => Promise<StoreContext | null> {
  const byContext = new WeakMap<RequestContext, Promise<StoreContext | null>>();
  return (ctx) => {
    const req = ctx.req;
    const bound = req ? boundContexts.get(req) : undefined;
    if (bound) return Promise.resolve(bound);
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
