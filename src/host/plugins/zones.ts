import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../../lib/db.js';
import type { HostRuntime, PriceProvider } from '../../contract/index.js';

/**
 * Zones tell plugin code from host code while it runs: every callback a plugin hands the host
 * (route handlers, hooks, interceptors, processors, price providers, visibility filters, login
 * providers, context enrichers, jobs, storefront pages, event handlers, `register` itself) runs in
 * zone 'plugin'; every contract call, and host code a plugin reaches through a context
 * (`ctx.ruleIds()`), runs in zone 'host'. Both sides share one knex, so the zone is the only way
 * to know on whose behalf a query runs.
 *
 * Off unless `enablePluginZones` is called — the test suite does, for its query guard — so a
 * running shop pays nothing: `inZone` then returns the function unchanged.
 */
export type Zone = 'host' | 'plugin';

type AnyFunction = (...args: never[]) => unknown;

let zones: { storage: AsyncLocalStorage<Zone>; watch: (db: Db) => void } | null = null;

/** Turns zones on for apps created from now on; `watch` receives each app's database (to listen to its queries). */
export function enablePluginZones(watch: (db: Db) => void): void {
  zones = { storage: new AsyncLocalStorage(), watch };
}

export function currentZone(): Zone {
  return zones?.storage.getStore() ?? 'host';
}

/** Hands an app's database to the watcher, when zones are on. */
export function watchDatabase(db: Db): void {
  zones?.watch(db);
}

/** `fn`, made to run in `zone` whenever it is called (`fn` itself when zones are off). */
export function inZone<F extends AnyFunction>(zone: Zone, fn: F): F {
  const active = zones;
  if (!active) return fn;
  return function (this: unknown, ...args: Parameters<F>): unknown {
    return active.storage.run(zone, () => Reflect.apply(fn, this, args) as unknown);
  } as unknown as F;
}

/** The runtime a plugin receives, with plugin callbacks in zone 'plugin' and contract calls in zone 'host' (itself when zones are off). */
export function zonedPluginRuntime(runtime: HostRuntime): HostRuntime {
  if (!zones) return runtime;
  const plugin = <F extends AnyFunction>(fn: F): F => inZone('plugin', fn);
  /** Every function of a contract namespace, run in zone 'host'. */
  const host = <T extends object>(api: T): T =>
    Object.fromEntries(
      Object.entries(api).map(([name, value]) => [
        name,
        typeof value === 'function' ? inZone('host', (value as AnyFunction).bind(api)) : value,
      ]),
    ) as T;
  // Spelled out per namespace (no spread of `runtime`): a new namespace must be placed here, or this does not compile.
  return {
    contractVersion: runtime.contractVersion,
    db: runtime.db,
    log: runtime.log,
    config: host(runtime.config),
    storeApi: {
      route: (route) => runtime.storeApi.route({ ...route, handler: plugin(route.handler) }),
      ...(runtime.storeApi.idempotency ? { idempotency: host(runtime.storeApi.idempotency) } : {}),
    },
    adminApi: { route: (route) => runtime.adminApi.route({ ...route, handler: plugin(route.handler) }) },
    auth: {
      ...host(runtime.auth),
      addLoginProvider: (provider) => runtime.auth.addLoginProvider(plugin(provider)),
      addContextEnricher: (enricher) => runtime.auth.addContextEnricher(plugin(enricher)),
    },
    customers: host(runtime.customers),
    customerGroups: host(runtime.customerGroups),
    rules: host(runtime.rules),
    catalog: {
      ...host(runtime.catalog),
      addVisibilityFilter: (filter) => runtime.catalog.addVisibilityFilter(plugin(filter)),
      addProductExtension: (extension) =>
        runtime.catalog.addProductExtension?.({ name: extension.name, load: plugin(extension.load.bind(extension)) }),
    },
    prices: {
      ...host(runtime.prices),
      addPriceProvider: (provider) => {
        const zoned: PriceProvider = plugin(provider);
        if (provider.many) zoned.many = plugin(provider.many.bind(provider));
        runtime.prices.addPriceProvider(zoned);
      },
      addPriceGate: (gate) => runtime.prices.addPriceGate?.(plugin(gate)),
    },
    cart: {
      ...host(runtime.cart),
      addLineItemProcessor: (processor) =>
        runtime.cart.addLineItemProcessor({ name: processor.name, process: plugin(processor.process.bind(processor)) }),
    },
    checkout: {
      ...host(runtime.checkout),
      addInterceptor: (interceptor) =>
        runtime.checkout.addInterceptor({
          name: interceptor.name,
          intercept: plugin(interceptor.intercept.bind(interceptor)),
        }),
      onOrderPlaced: (hook) => runtime.checkout.onOrderPlaced(plugin(hook)),
      onOrderCancelled: (hook) => runtime.checkout.onOrderCancelled(plugin(hook)),
      addPaymentMethod: (method) =>
        runtime.checkout.addPaymentMethod?.(
          method.available ? { ...method, available: plugin(method.available.bind(method)) } : method,
        ),
    },
    orders: host(runtime.orders),
    documents: host(runtime.documents),
    cms: host(runtime.cms),
    mail: host(runtime.mail),
    jobs: { ...host(runtime.jobs), register: (name, handler) => runtime.jobs.register(name, plugin(handler)) },
    storefront: {
      ...host(runtime.storefront),
      page: (page) => runtime.storefront.page({ ...page, handler: plugin(page.handler.bind(page)) }),
      accountMenu: (provider) => runtime.storefront.accountMenu(plugin(provider)),
    },
    events: { on: (event, handler) => runtime.events.on(event, plugin(handler)) },
    ...(runtime.console
      ? {
          console: {
            ...host(runtime.console),
            basePath: runtime.console.basePath,
            page: (page) => runtime.console!.page({ ...page, handler: plugin(page.handler.bind(page)) }),
          },
        }
      : {}),
    nextNumber: inZone('host', runtime.nextNumber.bind(runtime)),
  };
}
