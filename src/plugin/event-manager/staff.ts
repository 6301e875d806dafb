import type { StoreContext } from '../../contract/index.js';

export type SalesStaff = NonNullable<StoreContext['salesRepresentative']>;

export function isSalesStaff(ctx: StoreContext): boolean {
  return ctx.actor.type === 'salesRepresentative' && ctx.salesRepresentative !== null;
}

/*
 * The sales staff of the event manager are sales representative logins. No customer permission
 * grants it: events are the shop's, and a company admin could grant any permission key to its
 * employees. Staff routes and pages declare `actors: ['salesRepresentative']`; the pipeline refuses
 * everyone else (403 SUITE__SALES_REPRESENTATIVE_ONLY).
 */
