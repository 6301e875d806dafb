import { dialectOf, isServerDialect, readInt, type Executor } from '../../lib/db.js';

/** The counter's name in catalog_counters (also read by the session query, src/host/auth/sessions.ts). */
export const VISIBILITY = 'visibility';

/**
 * The counter in catalog_counters that moves on every write to products, their category
 * assignments and tier prices (triggers: migrations/host/012); read with the other context versions.
 */
export const PRODUCTS_VERSION = 'products';

/** The catalog versions a request's context was built with (read with its session, src/host/auth/sessions.ts). */
export interface RequestCatalogVersions {
  visibility: number;
  products: number;
}

const versionsOfRequest = new WeakMap<object, RequestCatalogVersions>();

export function rememberRequestCatalogVersions(ctx: object, versions: RequestCatalogVersions): void {
  versionsOfRequest.set(ctx, { visibility: versions.visibility, products: versions.products });
}

/** The versions read when the request's context was built; undefined for a context built elsewhere. */
export function requestCatalogVersions(ctx: object | undefined): RequestCatalogVersions | undefined {
  return ctx ? versionsOfRequest.get(ctx) : undefined;
}

export function requestVisibilityVersion(ctx: object | undefined): number | undefined {
  return requestCatalogVersions(ctx)?.visibility;
}

/**
 * The visibility counter. With `ctx`, the value read when that request's context was built (one
 * read per request however many caches ask); without, or for a context built elsewhere, a read.
 */
export async function visibilityVersion(executor: Executor, ctx?: object): Promise<number> {
  const known = requestVisibilityVersion(ctx);
  if (known !== undefined) return known;
  const row = await executor<{ name: string; value: number | string }>('catalog_counters')
    .where({ name: VISIBILITY })
    .first('value');
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

/**
 * For a transaction about to write several products: moves the products version now, which locks
 * its row until the commit. The triggers lock it at the first product write anyway; taken first,
 * two such transactions queue on the counter instead of each holding a product the other waits for
 * while one of them holds the counter (a deadlock on MySQL/MariaDB and PostgreSQL). SQLite has one writer: nothing to do.
 */
export async function lockProductsVersion(trx: Executor): Promise<void> {
  if (isServerDialect(dialectOf(trx)))
    await trx('catalog_counters').where({ name: PRODUCTS_VERSION }).increment('value', 1);
}
