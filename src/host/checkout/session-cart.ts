/**
 * The cart token a request's session pointed at when its context was built (read with the session,
 * `loadLiveSession`, src/host/auth/sessions.ts), so a cart write need not read the session again.
 * Only a first guess: the cart service checks it under the cart's lock (open, the context's
 * customer) and otherwise takes the session's current token as before.
 */
const cartTokenOfRequest = new WeakMap<object, string | null>();

export function rememberSessionCartToken(ctx: object, token: string | null): void {
  cartTokenOfRequest.set(ctx, token);
}

/** The remembered token; undefined for a context built without a session read (or elsewhere). */
export function sessionCartTokenOf(ctx: object): string | null | undefined {
  return cartTokenOfRequest.get(ctx);
}
