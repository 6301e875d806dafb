import 'reflect-metadata';
import { join, resolve } from 'node:path';
import type { Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import {
  ConfigService,
  EventBus,
  JobQueueService,
  Logger as VendureLogger,
  OrderPlacedEvent,
  PermissionDefinition,
  PluginCommonModule,
  SessionService,
  TransactionalConnection,
  VendurePlugin,
  type ActiveOrderStrategy,
  type RuntimeVendureConfig,
} from '@vendure/core';
import type { HostPlugin, Logger } from '../../contract/index.js';
import { loadManifest } from '../../host-kit/manifest.js';
import { importPlugin, pluginConfigRoutes } from '../../host-kit/plugin-loader.js';
import { createVendureConsole, READ_ONLY_PERMISSION } from './console.js';
import { opsRoutes } from '../../host-kit/ops-routes.js';
import { adapterAdminRoutes } from './admin-routes.js';
import { ruleCustomField } from './rules.js';
import { projectPath } from '../../host-kit/paths.js';
import { createDb, dialectOf } from '../../lib/db.js';
import { registerTemplatesFromFolder } from '../../lib/mail-outbox.js';
import { PLACED_BY_FIELDS } from './orders.js';
import { BUYER_FIELD, SuiteB2BActiveOrderStrategy } from './active-order.js';
import { bridgeVendureEvents } from './events.js';
import { GIVEN_PRICE_FIELD, SuiteB2BGivenPriceStrategy } from './place-order.js';
import { idMapper } from './ids.js';
import { createVendureJobs } from './jobs.js';
import { createSuiteQueue, handOver, relayAfterCommit, requeuedToTheQueue, suiteScheduledTasks } from './job-queue.js';
import { checkMailSetup, createVendureMail, ORDER_CONFIRMATION_TEMPLATE, queueOrderConfirmation } from './mail.js';
import { createVendureRuntime } from './runtime.js';
import { SuiteB2BAuthenticationStrategy, suiteOrderProcess } from './order-process.js';
import { lineItemInterceptor, participantCustomFields } from './participants.js';
import { priceGateInterceptor } from './price-gates.js';
import { availabilityChecker, paymentMethodHandlers, shippingChecker } from './payment-methods.js';
import { providerUnitNet, SuiteB2BPriceStrategy } from './prices.js';
import { SHOP_VISIBILITY_RESOLVERS, shopVisibility } from './shop-visibility.js';
import { PRODUCT_EXTENSION_RESOLVERS, PRODUCT_EXTENSIONS_SCHEMA, productExtensions } from './product-extensions.js';
import { checkSearchStrategy } from './search-strategy.js';
import { storeContexts } from './vendure-context.js';
import { configureGraphql, graphqlExtension } from './graphql.js';
import { ADMIN_PERMISSION, createApis } from './store-api.js';
import { emptyRegistries } from '../../host-kit/registries.js';
import type { AdapterOptions, AdapterState } from './state.js';
import { defaultChannel, toSalesChannel } from './vendure-tables.js';
import { bindVendureSchema } from './vendure-schema.js';
import { takeWriteLockAtBegin } from './sqlite-write-lock.js';
import { prepareTables } from './migrations.js';

/** The knex URL of Vendure's own database (the plugin's tables live beside Vendure's). */
export function databaseUrlOf(db: RuntimeVendureConfig['dbConnectionOptions']): string {
  if (db.type === 'better-sqlite3' || db.type === 'sqlite') return `sqlite:${String(db.database)}`;
  if (db.type === 'mariadb' || db.type === 'mysql' || db.type === 'postgres') {
    const postgres = db.type === 'postgres';
    const auth = `${encodeURIComponent(db.username ?? (postgres ? 'postgres' : 'root'))}${db.password ? `:${encodeURIComponent(String(db.password))}` : ''}`;
    return `${postgres ? 'postgres' : 'mysql'}://${auth}@${db.host ?? 'localhost'}:${String(db.port ?? (postgres ? 5432 : 3306))}/${String(db.database)}`;
  }
  throw new Error(
    `Suite B2B on Vendure supports better-sqlite3, mariadb/mysql and postgres databases (got "${db.type}")`,
  );
}

const LOG_CONTEXT = 'SuiteB2B';

/**
 * The adapter state of the latest configuration in this process. Vendure builds its Nest module
 * graph (AppModule with the plugin classes) once per process, so a later bootstrap in the same
 * process (the tests boot several shops one after another) runs the lifecycle hooks of the first
 * plugin class: hooks and strategies read the state from here, not from their own closure.
 */
const latest: {
  state: AdapterState | null;
  storeContextOf: ReturnType<typeof storeContexts> | null;
  visibility: ReturnType<typeof shopVisibility> | null;
} = {
  state: null,
  storeContextOf: null,
  visibility: null,
};

/** The contract's logger on Vendure's (static) Logger, which the shop configures. */
function vendureLogger(): Logger {
  const line = (obj: object | string, msg?: string) =>
    typeof obj === 'string' ? obj : `${msg ?? ''} ${JSON.stringify(obj)}`.trim();
  return {
    info: (obj, msg) => VendureLogger.info(line(obj, msg), LOG_CONTEXT),
    warn: (obj, msg) => VendureLogger.warn(line(obj, msg), LOG_CONTEXT),
    error: (obj, msg) => VendureLogger.error(line(obj, msg), LOG_CONTEXT),
    debug: (obj, msg) => VendureLogger.debug(line(obj, msg), LOG_CONTEXT),
  };
}

/**
 * Suite B2B as a Vendure plugin: loads src/plugin unchanged (the default export of the manifest's
 * entry) through the HostRuntime contract implemented on Vendure. tsx/esbuild emit no decorator
 * metadata: the one constructor dependency is declared with Reflect metadata.
 */
// eslint-disable-next-line max-lines-per-function -- longer than 150 lines before the 150-line rule covered all of src; split it when it next changes
export function SuiteB2BVendurePlugin(options: AdapterOptions = {}): Type<unknown> {
  const state = () => latest.state;
  const shopFields = graphqlExtension('shop', PRODUCT_EXTENSIONS_SCHEMA);

  // eslint-disable-next-line max-lines-per-function -- longer than 150 lines before the 150-line rule covered all of src; split it when it next changes
  async function configure(config: RuntimeVendureConfig): Promise<RuntimeVendureConfig> {
    const manifest = loadManifest(projectPath('plugin.json'));
    const db = createDb(options.databaseUrl ?? databaseUrlOf(config.dbConnectionOptions), {
      timeouts: options.databaseTimeouts,
    });
    const dbOptions = config.dbConnectionOptions as unknown as Record<string, unknown>;
    if (dbOptions.type === 'better-sqlite3') {
      // Vendure's TypeORM connection and the plugin's knex share the file: WAL and a busy timeout let both in
      // (TypeORM's `prepareDatabase` option); Vendure's transactions take the write lock first (sqlite-write-lock.ts).
      const prepare = dbOptions.prepareDatabase as ((db: unknown) => void) | undefined;
      dbOptions.prepareDatabase = (raw: { pragma(sql: string): unknown }) => {
        raw.pragma('journal_mode = WAL');
        raw.pragma('busy_timeout = 5000');
        prepare?.(raw);
      };
    }
    const idKind = config.entityOptions.entityIdStrategy?.primaryKeyType === 'uuid' ? 'uuid' : 'increment';
    const ids = idMapper(idKind);
    const storefrontUrls = options.storefrontUrls ?? [];
    const s: AdapterState = {
      options: {
        storefrontUrls,
        storeApiPath: options.storeApiPath ?? '/store-api',
        adminApiPath: options.adminApiPath ?? '/b2b-admin-api',
        contextTokenTtlSeconds: options.contextTokenTtlSeconds ?? 86400,
        validateResponses: options.validateResponses ?? false,
        mailerUrl: options.mailerUrl ?? null,
        // The shop's working directory, never the installed package's folder (node_modules).
        mailFolder: resolve(options.mailFolder ?? join('var', 'mail')),
        shopName: options.shopName ?? '',
        mailFrom: options.mailFrom ?? '',
        mail: options.mail ?? 'outbox',
        runJobs: options.runJobs ?? true,
        orderConfirmationMail: options.orderConfirmationMail ?? false,
        placedOrderPaymentMethod: options.placedOrderPaymentMethod,
        // Decision 0064: as Vendure treats its entities — synchronized at start in development, else migrated.
        migrations: options.migrations ?? (config.dbConnectionOptions.synchronize ? 'on-boot' : 'vendure'),
      },
      db,
      dialect: dialectOf(db),
      log: vendureLogger(),
      manifest,
      plugin: null as unknown as HostPlugin,
      ids,
      salesChannel: async (executor = db) => toSalesChannel(ids, await defaultChannel(executor), storefrontUrls),
      registries: emptyRegistries(),
      placing: new Map(),
      vendure: null,
      runtime: null as never,
      mail: null as never,
      jobs: null as never,
      jobQueue: null,
    };
    s.mail = createVendureMail(s);
    s.jobs = createVendureJobs(s);
    // Mails and jobs written in a transaction go to Vendure's job queue once it committed (job-queue.ts).
    if (s.options.runJobs) relayAfterCommit(s);
    latest.state = s;
    // Nothing here touches the database: Vendure runs `configuration` to generate and run migrations and the
    // Dashboard build runs it without one. The tables are checked (or migrated, 'on-boot') in onModuleInit.
    s.plugin = (await importPlugin()).plugin;

    const apis = createApis(s);
    // The operator's console at /b2b-admin (console.ts), behind Vendure's administrators.
    const operatorConsole = createVendureConsole(s, apis);
    const runtime = createVendureRuntime(s, apis, operatorConsole.console);
    apis.addAdapterRoutes();
    // The plugin's settings in the Admin API (the console's settings page), on the adapter's table,
    // and the customer reads the console's Companies pages call (admin-routes.ts).
    for (const route of [
      ...pluginConfigRoutes(db, manifest, 'suite_host_plugin_configs'),
      ...requeuedToTheQueue(s, opsRoutes(db, { mails: 'suite_host_mail_outbox', jobs: 'suite_host_jobs' })),
      ...adapterAdminRoutes(s),
    ])
      apis.adminApi.add(route);
    await s.plugin.register(runtime);
    configureGraphql(apis);
    // What the plugin mounts, as Vendure's own plugins say at boot.
    s.log.info(
      `Store API at ${s.options.storeApiPath} (${apis.storeApi.routes.length} routes, each also a Shop API field), ` +
        `Admin API at ${s.options.adminApiPath} (${apis.adminApi.routes.length} routes, each also an Admin API field), console at /b2b-admin`,
    );
    // The plugin's schedules (and the outbox sweep) as Vendure ScheduledTasks: once per period across the workers.
    if (s.options.runJobs) {
      const tasks = suiteScheduledTasks(state, s.registries.jobSchedules);
      const ids = new Set(tasks.map((task) => task.id));
      config.schedulerOptions.tasks = [...config.schedulerOptions.tasks.filter((task) => !ids.has(task.id)), ...tasks];
    }
    registerTemplatesFromFolder(s.mail, projectPath('templates', 'mail'), manifest.mailTemplates);
    if (s.options.orderConfirmationMail)
      registerTemplatesFromFolder(s.mail, projectPath('templates', 'mail'), [ORDER_CONFIRMATION_TEMPLATE]);
    checkMailSetup(s, config.plugins);

    const contextOf = storeContexts(s);
    const visibility = shopVisibility(s, contextOf);
    latest.storeContextOf = contextOf;
    latest.visibility = visibility;
    productExtensions(state, contextOf);
    config.catalogOptions.productVariantPriceCalculationStrategy = new SuiteB2BPriceStrategy(
      config.catalogOptions.productVariantPriceCalculationStrategy,
      state,
      contextOf,
    );
    // Behind a reverse proxy the client's address is the proxy's unless express trusts it. Which proxy to
    // trust is the shop's decision (Vendure's `apiOptions.trustProxy`), never changed here (decision 0057):
    // left at Vendure's default, the plugin's rate limits and logs count every client as the proxy — said at boot.
    if (config.apiOptions.trustProxy === undefined || config.apiOptions.trustProxy === false)
      s.log.warn(
        "Vendure's apiOptions.trustProxy is off: behind a reverse proxy the Suite B2B rate limits (logins, " +
          "recovery) count every client as the proxy's address. Set apiOptions.trustProxy (e.g. 'loopback' for a " +
          'proxy on this machine) if the shop runs behind one (docs/vendure.md, "Behind a reverse proxy").',
      );
    config.apiOptions.middleware.push(
      { route: s.options.storeApiPath, beforeListen: true, handler: apis.storeRouter },
      { route: s.options.adminApiPath, beforeListen: true, handler: apis.adminRouter },
      // Mounted at the root: the console's router answers only under /b2b-admin and passes every other path on.
      { route: '/', beforeListen: true, handler: operatorConsole.router },
    );
    config.authOptions.customPermissions.push(
      new PermissionDefinition({
        name: ADMIN_PERMISSION,
        description:
          'Use the Suite B2B Admin API (partial assortments, account requests, plugin settings) and manage in its console (/b2b-admin).',
      }),
      new PermissionDefinition({
        name: READ_ONLY_PERMISSION,
        description: 'Look at every page of the Suite B2B console (/b2b-admin) without changing anything.',
      }),
    );
    config.orderOptions.orderInterceptors.push(
      priceGateInterceptor(state, contextOf),
      visibility.interceptor,
      lineItemInterceptor(state, contextOf),
    );
    checkSearchStrategy(config, s.log);
    // The plugin's payment methods (payment on account) as Vendure PaymentMethodHandlers (payment-methods.ts).
    if (s.registries.paymentMethods.length > 0) {
      const known = new Set(config.paymentOptions.paymentMethodHandlers.map((handler) => handler.code));
      config.paymentOptions.paymentMethodHandlers.push(
        ...paymentMethodHandlers(s.registries.paymentMethods).filter((handler) => !known.has(handler.code)),
      );
    }
    // The checkers a shop puts on its methods for the plugin's say (on account's credit line, a unit's methods).
    const checkers = (config.paymentOptions.paymentMethodEligibilityCheckers ??= []);
    const checker = availabilityChecker(state, contextOf);
    if (!checkers.some((known) => known.code === checker.code)) checkers.push(checker);
    const shippingCheckers = config.shippingOptions.shippingEligibilityCheckers;
    const allowedShipping = shippingChecker(state, contextOf);
    if (!shippingCheckers.some((known) => known.code === allowedShipping.code)) shippingCheckers.push(allowedShipping);
    config.orderOptions.process = [...config.orderOptions.process, suiteOrderProcess(state, contextOf)];
    // Who placed an order (the plugin's actor: employee, sales representative, customer), for orders.* (orders.ts).
    config.customFields.Order = [
      ...(config.customFields.Order ?? []),
      { name: PLACED_BY_FIELDS.type, type: 'string', nullable: true, public: false, readonly: true, internal: true },
      { name: PLACED_BY_FIELDS.id, type: 'string', nullable: true, public: false, readonly: true, internal: true },
      // Whose cart an active order is (one cart per buyer, active-order.ts).
      { name: BUYER_FIELD, type: 'string', nullable: true, public: false, readonly: true, internal: true },
    ];
    const activeOrderStrategies = Array.isArray(config.orderOptions.activeOrderStrategy)
      ? config.orderOptions.activeOrderStrategy
      : [config.orderOptions.activeOrderStrategy];
    if (activeOrderStrategies.length !== 1)
      throw new Error(
        "Suite B2B keeps one cart per buyer by wrapping the shop's ActiveOrderStrategy: configure one (orderOptions.activeOrderStrategy), not several",
      );
    config.orderOptions.activeOrderStrategy = new SuiteB2BActiveOrderStrategy(
      activeOrderStrategies[0] as ActiveOrderStrategy<Record<string, unknown>>,
      state,
      contextOf,
    );
    // The console's rules are customer groups with a match of their own (rules.ts, decision 0035).
    config.customFields.CustomerGroup = [...(config.customFields.CustomerGroup ?? []), ruleCustomField];
    // Event tickets' participants through Vendure's addItemToOrder / adjustOrderLine (participants.ts).
    config.customFields.OrderLine = [...(config.customFields.OrderLine ?? []), ...participantCustomFields];
    config.authOptions.shopAuthenticationStrategy = [
      ...config.authOptions.shopAuthenticationStrategy,
      new SuiteB2BAuthenticationStrategy(state),
    ];
    // Prices the plugin gives (approval execute, offer accept) on the lines of the orders placeOrder places (place-order.ts).
    // and the customer prices for a line's quantity (a price from a minimum quantity, prices.ts).
    config.orderOptions.orderItemPriceCalculationStrategy = new SuiteB2BGivenPriceStrategy(
      config.orderOptions.orderItemPriceCalculationStrategy,
      async (ctx, variant, quantity) => {
        const current = state();
        if (!current || current.registries.priceProviders.length === 0) return null;
        const storeCtx = await contextOf(ctx);
        if (!storeCtx?.customer) return null;
        return providerUnitNet(current, storeCtx, variant, variant.price, quantity);
      },
    );
    config.customFields.OrderLine = [
      ...(config.customFields.OrderLine ?? []),
      { name: GIVEN_PRICE_FIELD, type: 'int', nullable: true, public: false, internal: true },
    ];
    return config;
  }

  // Decorator syntax (tsconfig `experimentalDecorators`): the Dashboard build (vendureDashboardPlugin) finds a
  // plugin's `dashboard` entry only in a compiled `__decorate([VendurePlugin({ dashboard: '…' })], Class)` call.
  // Partial assortments in the Shop API's products, product and collection.productVariants (shop-visibility.ts);
  // the plugin's product extensions as ProductVariant.suiteExtensions (product-extensions.ts).
  @VendurePlugin({
    imports: [PluginCommonModule],
    configuration: configure,
    compatibility: '^3.7.0',
    // The B2B section of Vendure's Dashboard (dashboard/index.tsx, shipped as source), built by the shop's Dashboard build.
    dashboard: './dashboard/index.tsx',
    // Every Store API route also a Shop API field, every Admin API route an Admin API field (graphql.ts).
    shopApiExtensions: {
      schema: shopFields.schema,
      resolvers: [...SHOP_VISIBILITY_RESOLVERS, ...PRODUCT_EXTENSION_RESOLVERS, ...shopFields.resolvers],
    },
    adminApiExtensions: graphqlExtension('admin'),
  })
  class SuiteB2BPlugin {
    constructor(private readonly moduleRef: ModuleRef) {}

    /** The runtime the plugin was registered with (demo seeds, tests). */
    static get state(): AdapterState {
      if (!latest.state) throw new Error('SuiteB2BPlugin is not configured yet');
      return latest.state;
    }

    /** Vendure's database is connected (and synchronized): the plugin's tables are checked, or migrated 'on-boot'. */
    async onModuleInit(): Promise<void> {
      const s = latest.state;
      if (!s) return;
      try {
        await prepareTables(s.db, s.manifest, s.options.migrations);
      } catch (error) {
        // The process refuses to start: let its connections go, so it can end.
        await s.db.destroy();
        throw error;
      }
    }

    async onApplicationBootstrap(): Promise<void> {
      const { state: s, storeContextOf } = latest;
      if (!s) return;
      // Vendure's entity metadata names its tables and columns for the adapter's reads (vendure-schema.ts).
      const dataSource = this.moduleRef.get(TransactionalConnection, { strict: false }).rawConnection;
      bindVendureSchema(dataSource);
      takeWriteLockAtBegin(dataSource);
      if (s.options.runJobs) {
        // In every process (each adds); the shop's JobQueueStrategy processes it where the job queue runs (workers).
        s.jobQueue = await createSuiteQueue(this.moduleRef.get(JobQueueService, { strict: false }), state);
        const scheduler = this.moduleRef.get(ConfigService, { strict: false }).schedulerOptions.schedulerStrategy;
        if (scheduler.constructor.name === 'NoopSchedulerStrategy')
          s.log.warn(
            {},
            "no scheduler: the plugin's scheduled jobs (reminders, expiry, recurring orders, clean-ups) and the outbox sweep do not run; add DefaultSchedulerPlugin (docs/vendure.md)",
          );
      }
      const sessions = this.moduleRef.get(SessionService, { strict: false });
      s.vendure = {
        sessionFromToken: (token) => sessions.getSessionFromToken(token),
        service: (token) => this.moduleRef.get(token, { strict: false }),
      };
      bridgeVendureEvents(s, this.moduleRef.get(EventBus, { strict: false }));
      if (s.options.orderConfirmationMail && storeContextOf) {
        this.moduleRef
          .get(EventBus, { strict: false })
          .ofType(OrderPlacedEvent)
          .subscribe((event) => {
            queueOrderConfirmation(s, event, storeContextOf).catch((error: unknown) =>
              s.log.error({ orderId: String(event.order.id), err: String(error) }, 'order confirmation not queued'),
            );
          });
      }
      // Handed over before Vendure started (the demo seed …): the first sweep would too, this is sooner.
      if (s.jobQueue)
        await handOver(s).catch((error: unknown) =>
          s.log.warn({ err: String(error) }, 'hand-over to the job queue at start failed; the sweep retries'),
        );
    }

    async onApplicationShutdown(): Promise<void> {
      await latest.state?.jobs.stop();
      await latest.state?.db.destroy();
    }
  }
  Reflect.defineMetadata('design:paramtypes', [ModuleRef], SuiteB2BPlugin);
  return SuiteB2BPlugin;
}

/**
 * Suite B2B in a shop's `plugins`, as Vendure's plugins are added: `SuiteB2BPlugin.init({ storefrontUrls:
 * ['https://shop.example.com'] })` (every option typed and documented in `AdapterOptions`).
 */
export const SuiteB2BPlugin = {
  init(options: AdapterOptions = {}): Type<unknown> {
    return SuiteB2BVendurePlugin(options);
  },
};
