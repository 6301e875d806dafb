import type { Response } from 'express';

/**
 * What this app keeps in `res.locals` during a request, typed once (express types locals as `any`):
 * the pipeline sets the route pattern and actor type for logs and metrics, the storefront its
 * context and navigation for the error page.
 */
export interface RequestLocals {
  routePattern?: string;
  actorType?: string;
  /** The operator's user name on a console request (the request log names who changed what). */
  operator?: string;
  navigation?: unknown[];
  storeContext?: unknown;
}

export function localsOf(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}
