import { Errors } from '../../lib/errors.js';
import type { StoreContext } from '../../host/contract.js';

export type SalesStaff = NonNullable<StoreContext['salesRepresentative']>;

export function isSalesStaff(ctx: StoreContext): boolean {
  return ctx.actor.type === 'salesRepresentative' && ctx.salesRepresentative !== null;
}

/**
 * The sales staff of the event manager are sales representative logins. No customer permission
 * grants it: events are the shop's, and a company admin could grant any permission key to its employees.
 */
export function requireSalesStaff(ctx: StoreContext): SalesStaff {
  if (!isSalesStaff(ctx)) throw Errors.forbidden('Only sales staff (a sales representative login) may manage events.', 'SUITE__EVENT_MANAGER_STAFF_ONLY');
  return ctx.salesRepresentative!;
}
