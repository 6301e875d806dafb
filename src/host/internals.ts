import type { RateLimiter } from '../lib/rate-limit.js';
import type { Db, Dialect } from '../lib/db.js';
import type { ApiRouter } from '../lib/api-router.js';
import type { HostConfig } from './config.js';
import type { PluginRegistries } from '../host-kit/registries.js';
import type { EventsModule } from './events.js';
import type { AdminContext, HostRuntime, Logger, StoreContext, StorefrontPage } from '../contract/index.js';

/**
 * What host modules share among themselves: configuration, the database, the two API routers and
 * the registries behind the contract's extension points. Plugins never see this; they get `runtime`.
 */
export interface HostInternals {
  config: HostConfig;
  db: Db;
  dialect: Dialect;
  log: Logger;
  storeApi: ApiRouter<StoreContext>;
  /** Rate-limit counters of the API pipeline and the storefront (one store, so both doors share a limit). */
  rateLimiter: RateLimiter;
  adminApi: ApiRouter<AdminContext>;
  registries: PluginRegistries & { storefrontPages: StorefrontPage[] };
  /** Announces a contract event to the plugins, inside the caller's transaction. */
  emit: EventsModule['emit'];
  /** The assembled contract; available once every module is created (use it lazily, inside functions). */
  runtime: HostRuntime;
}
