/**
 * The cart token a request's session pointed at when its context was built (read with the session,
 * `loadLiveSession`, src/host/auth/sessions.ts), so a cart write need not read the session again.
 * Only a first guess, and possibly an old one (a session kept in memory keeps the token it was read
 * with: a cart token change does not move the session version): the cart service checks it under
 * the cart's lock (open, the context's customer) and otherwise takes the session's current token as
 * before. A session only moves to another cart when its cart was ordered, deleted or is not the
 * customer's, which that check sees.
 */
const cartTokenOfRequest = new WeakMap<object, string | null>();

export function rememberSessionCartToken(ctx: object, token: string | null): void {
  cartTokenOfRequest.set(ctx, token);
}

/** The remembered token; undefined for a context built without a session read (or elsewhere). */
export function sessionCartTokenOf(ctx: object): string | null | undefined {
  return cartTokenOfRequest.get(ctx);
}
