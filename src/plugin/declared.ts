import type { CustomerRef, StoreContext } from '../contract/index.js';

/**
 * Typed access to what a route's declaration guarantees. The refusals (401/403) live in the host's
 * pipeline, which admits only the declared `actors` and, with `needsCustomer`, only callers acting
 * for a customer; these accessors only assert the declaration. Reached without it, they throw a
 * plain Error (a bug: 500), never a refusal a client could rely on.
 */
function missing(what: string): never {
  throw new Error(`the route reads ${what} but does not declare it (actors / needsCustomer)`);
}

/** On a route declared `needsCustomer: true`: the customer the caller acts for. */
export function declaredCustomer(ctx: StoreContext): CustomerRef {
  return ctx.customer ?? missing('the customer');
}

/** On a route declared `actors: ['employee']`: the employee login. */
export function declaredEmployee(ctx: StoreContext): NonNullable<StoreContext['employee']> {
  return (ctx.actor.type === 'employee' ? ctx.employee : null) ?? missing('the employee');
}

/** On a route declared `actors: ['salesRepresentative']`: the sales representative login. */
export function declaredRepresentative(ctx: StoreContext): NonNullable<StoreContext['salesRepresentative']> {
  return (
    (ctx.actor.type === 'salesRepresentative' ? ctx.salesRepresentative : null) ?? missing('the sales representative')
  );
}
