import { readInt, type Executor } from '../../lib/db.js';

/** The counter's name in catalog_counters (also read by the session query, src/host/auth/sessions.ts). */
export const VISIBILITY = 'visibility';

/** The version a request's context was built with (read with its session, src/host/auth/sessions.ts). */
const versionOfRequest = new WeakMap<object, number>();

export function rememberRequestVisibilityVersion(ctx: object, version: number): void {
  versionOfRequest.set(ctx, version);
}

export function requestVisibilityVersion(ctx: object | undefined): number | undefined {
  return ctx ? versionOfRequest.get(ctx) : undefined;
}

/**
 * The visibility counter. With `ctx`, the value read when that request's context was built (one
 * read per request however many caches ask); without, or for a context built elsewhere, a read.
 */
export async function visibilityVersion(executor: Executor, ctx?: object): Promise<number> {
  const known = requestVisibilityVersion(ctx);
  if (known !== undefined) return known;
  const row = await executor<{ name: string; value: number | string }>('catalog_counters').where({ name: VISIBILITY }).first('value');
  return readInt(row?.value);
}

/** Bumps the counter; inside the writer's transaction, so readers see the new value with the new data. */
export async function visibilityChanged(executor: Executor): Promise<void> {
  const updated = await executor('catalog_counters').where({ name: VISIBILITY }).increment('value', 1);
  if (updated === 0)
    await executor('catalog_counters')
      .insert({ name: VISIBILITY, value: 2 })
      .onConflict('name')
      .merge({ value: executor.raw('catalog_counters.value + 1') });
}
