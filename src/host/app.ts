import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import cookieParser from 'cookie-parser';
import { ApiRouter, errorMiddleware } from '../lib/api-router.js';
import { idempotencyStore } from '../lib/idempotency.js';
import { jsonBody } from '../lib/json-body.js';
import { createDb, dialectOf, type Db } from '../lib/db.js';
import { AppError } from '../lib/errors.js';
import { buildOpenApi, renderOpenApiHtml } from '../lib/openapi.js';
import { loadConfig, type HostConfig } from './config.js';
import { CONTRACT_VERSION, type AdminContext, type HostRuntime, type StoreContext } from '../contract/index.js';
import type { HostInternals } from './internals.js';
import { createLogger } from './logger.js';
import { HOST_MIGRATIONS, migrateFolder, type MigrationSet } from '../host-kit/migrator.js';
import { addContextVersion, requestContextVersion, storeApiDefinition } from './auth/store-context.js';
import { adminApiDefinition } from './auth/admin-context.js';
import { databaseRateLimiter } from '../host-kit/rate-limit-store.js';
import { createSession, revokeActorSessions } from './auth/sessions.js';
import { hashPassword, verifyPassword } from '../host-kit/passwords.js';
import { accountRoutes } from './account/account-routes.js';
import { oauthRoutes } from './admin/oauth-routes.js';
import { integrationRoutes } from './admin/integration-routes.js';
import { opsRoutes } from '../host-kit/ops-routes.js';
import { createCatalogModule } from './catalog/index.js';
import { createCheckoutModule } from './checkout/index.js';
import { createJobsModule, type JobsModule } from './jobs/index.js';
import { createEventsModule } from './events.js';
import { createMailModule, registerTemplatesFromFolder, type MailModule } from './mail/index.js';
import { projectPath } from '../host-kit/paths.js';
import { createStorefrontModule } from './storefront/index.js';
import { createConsoleModule } from './console/index.js';
import {
  defaultAddressIds,
  getCustomer,
  getCustomerGroups,
  getCustomers,
  getCustomersByNumbers,
  getSalesChannel,
  insertCustomer,
  listAddresses,
  searchCustomers,
  toCustomerRef,
} from './customer/customer-repository.js';
import type { AddressRow, CustomerRow } from './customer/rows.js';
import { createAddress, deleteAddress, updateAddress } from './customer/address-book.js';
import { getCmsPage } from './catalog/cms-pages.js';
import { nextNumber } from './numbers.js';
import { ensureAdminIntegration, ensureDefaultSalesChannel } from './seed/base-data.js';
import {
  importPlugin,
  migratePlugin,
  pluginConfigAccess,
  pluginConfigRoutes,
  pluginMigrationSet,
  type LoadedPlugin,
} from '../host-kit/plugin-loader.js';
import { createHealth, type Health } from './ops/health.js';
import { registerHousekeeping } from './ops/housekeeping.js';
import { createMetrics } from './ops/metrics.js';
import { requestLogger } from './ops/request-log.js';
import { CONTEXT_TOKEN_HEADER } from './auth/store-context.js';
import { inZone, watchDatabase, zonedPluginRuntime } from './plugins/zones.js';
import { emptyRegistries } from '../host-kit/registries.js';

/** Mails the host itself sends (templates/mail/<name>.*.hbs). */
const HOST_MAIL_TEMPLATES = ['order-confirmation'];

export interface AppOptions {
  config?: Partial<HostConfig>;
  env?: NodeJS.ProcessEnv;
  /** Plugins to load; default: the repository's plugin.json. */
  plugins?: LoadedPlugin[];
  /** Reuse an existing knex (tests share one per database). */
  db?: Db;
  /** Where the JSON log lines go (default stdout). */
  logDestination?: NodeJS.WritableStream;
}

export interface ShopApp {
  app: Express;
  runtime: HostRuntime;
  internals: HostInternals;
  db: Db;
  config: HostConfig;
  jobs: JobsModule;
  /** The host's mail outside the contract (templates are registered by the host, not by plugins). */
  mail: Pick<MailModule, 'registerTemplate' | 'sendQueued'>;
  plugins: LoadedPlugin[];
  /** Readiness and draining (the server turns ready to 503 on SIGTERM before it stops listening). */
  health: Health;
  close(): Promise<void>;
}

type Logger = ReturnType<typeof createLogger>;

/** The host's modules, each built on the internals (the runtime is assembled from them). */
interface HostModules {
  events: ReturnType<typeof createEventsModule>;
  catalog: ReturnType<typeof createCatalogModule>;
  checkout: ReturnType<typeof createCheckoutModule>;
  jobs: JobsModule;
  mail: ReturnType<typeof createMailModule>;
  storefront: ReturnType<typeof createStorefrontModule>;
  operatorConsole: ReturnType<typeof createConsoleModule>;
}

/** The internals with the event bus, the rate limiter and both API routers; the modules are created after. */
function createInternals(
  config: HostConfig,
  db: Db,
  log: Logger,
): { internals: HostInternals; events: HostModules['events'] } {
  const internals = {
    config,
    db,
    dialect: dialectOf(db),
    log,
    registries: { ...emptyRegistries(), storefrontPages: [] },
  } as unknown as HostInternals;
  const events = createEventsModule(internals);
  internals.emit = events.emit.bind(events);
  const rateLimiter = databaseRateLimiter(db);
  internals.rateLimiter = rateLimiter;
  internals.storeApi = new ApiRouter<StoreContext>(storeApiDefinition(internals), {
    db,
    rateLimiter,
    validateResponses: config.validateResponses,
  });
  internals.adminApi = new ApiRouter<AdminContext>(adminApiDefinition(internals), {
    db,
    rateLimiter,
    validateResponses: config.validateResponses,
  });
  return { internals, events };
}

function createHostModules(internals: HostInternals, events: HostModules['events']): HostModules {
  const catalog = createCatalogModule(internals);
  const checkout = createCheckoutModule(internals, catalog);
  const jobs = createJobsModule(internals);
  const mail = createMailModule(internals);
  const storefront = createStorefrontModule(internals);
  const operatorConsole = createConsoleModule(internals);
  return { events, catalog, checkout, jobs, mail, storefront, operatorConsole };
}

function hostAuth(internals: HostInternals, config: HostConfig): HostRuntime['auth'] {
  return {
    addLoginProvider: (provider) => void internals.registries.loginProviders.push(provider),
    addContextEnricher: (enricher) => void internals.registries.contextEnrichers.push(enricher),
    addContextVersion: (source) => addContextVersion(internals, source),
    contextVersion: (ctx, source) => requestContextVersion(internals, ctx, source),
    createSession: (executor, identity) => createSession(executor, config.appSecret, config.contextTokenTtl, identity),
    revokeActorSessions,
    hashPassword,
    verifyPassword,
  };
}

function hostCustomers(): HostRuntime['customers'] {
  return {
    get: getCustomer,
    getMany: getCustomers,
    async findByEmail(executor, email) {
      const row = await executor<CustomerRow>('customers').where({ email: email.trim().toLowerCase() }).first();
      return row ? toCustomerRef(row) : null;
    },
    findByNumbers: getCustomersByNumbers,
    search: searchCustomers,
    async create(executor, input) {
      return insertCustomer(executor, {
        ...input,
        passwordHash: input.password ? await hashPassword(input.password) : null,
      });
    },
    addresses: listAddresses,
    defaultAddressIds,
    async setDefaultAddress(executor, customerId, type, addressId) {
      const address = await executor<AddressRow>('customer_addresses')
        .where({ id: addressId, customer_id: customerId })
        .first('id');
      if (!address) return false;
      await executor('customers')
        .where({ id: customerId })
        .update({ [type === 'billing' ? 'default_billing_address_id' : 'default_shipping_address_id']: addressId });
      return true;
    },
    createAddress,
    updateAddress,
    deleteAddress,
    salesChannel: getSalesChannel,
  };
}

/** The contract as the host implements it (the host's own runtime; each plugin gets a zoned copy). */
function createHostRuntime(
  internals: HostInternals,
  config: HostConfig,
  db: Db,
  log: Logger,
  modules: HostModules,
): HostRuntime {
  const { catalog, checkout, mail, jobs, storefront, events, operatorConsole } = modules;
  return {
    contractVersion: CONTRACT_VERSION,
    db,
    log,
    // Replaced per plugin; the host itself has no settings here.
    config: { get: () => Promise.resolve(undefined as never), all: () => Promise.resolve({}) },
    storeApi: { route: (route) => internals.storeApi.add(route), idempotency: idempotencyStore(db) },
    adminApi: { route: (route) => internals.adminApi.add(route) },
    auth: hostAuth(internals, config),
    customers: hostCustomers(),
    customerGroups: { getMany: getCustomerGroups },
    rules: catalog.rules,
    catalog: catalog.catalog,
    prices: catalog.prices,
    cart: checkout.cart,
    checkout: checkout.checkout,
    orders: checkout.orders,
    documents: checkout.documents,
    cms: { get: getCmsPage },
    mail: mail.mail,
    jobs: jobs.jobs,
    storefront: storefront.storefront,
    events: events.events,
    console: operatorConsole.console,
    nextNumber,
  };
}

function addHostRoutes(internals: HostInternals, db: Db, { catalog, checkout }: HostModules): void {
  for (const route of accountRoutes(internals)) internals.storeApi.add(route);
  for (const route of catalog.storeRoutes) internals.storeApi.add(route);
  for (const route of checkout.storeRoutes) internals.storeApi.add(route);
  for (const route of oauthRoutes(internals)) internals.adminApi.add(route);
  for (const route of [...integrationRoutes(db), ...opsRoutes(db, { mails: 'mail_outbox', jobs: 'jobs' })])
    internals.adminApi.add(route);
  for (const route of catalog.adminRoutes) internals.adminApi.add(route);
  for (const route of checkout.adminRoutes) internals.adminApi.add(route);
}

/** Migrates and registers each plugin, with a runtime of its own (its settings, its zone). */
async function loadPlugins(
  internals: HostInternals,
  db: Db,
  runtime: HostRuntime,
  mail: HostModules['mail'],
  plugins: LoadedPlugin[],
): Promise<void> {
  for (const { manifest, plugin } of plugins) {
    await migratePlugin(db, manifest);
    const pluginRuntime: HostRuntime = zonedPluginRuntime({
      ...runtime,
      config: pluginConfigAccess(db, manifest),
      // Job handlers receive the runtime that registered them, so plugin jobs read the plugin's settings.
      jobs: {
        ...runtime.jobs,
        register: (name, handler) => runtime.jobs.register(name, (job) => handler({ ...job, host: pluginRuntime })),
      },
    });
    await inZone('plugin', (host: HostRuntime) => plugin.register(host))(pluginRuntime);
    registerTemplatesFromFolder(mail, projectPath('templates', 'mail'), manifest.mailTemplates);
    for (const route of pluginConfigRoutes(db, manifest)) internals.adminApi.add(route);
  }
}

/** The APIs first: every layer before them is walked by each of their requests. */
function mountApis(
  app: Express,
  internals: HostInternals,
  health: Health,
  metrics: ReturnType<typeof createMetrics>,
): void {
  const json = jsonBody(1024 * 1024);
  const adminForm = express.urlencoded({ extended: false, limit: '64kb' });
  app.use(
    internals.storeApi.dispatcher('/store-api', [json]),
    internals.adminApi.dispatcher('/api', [json, adminForm]),
  );
  app.use('/store-api', json, internals.storeApi.router);
  app.use('/api', json, adminForm, internals.adminApi.router);
  app.use(health.router);
  app.get('/metrics', metrics.endpoint);
}

/** GET <path>/_info/openapi3.json and swagger.html: one API's OpenAPI document, built on first request. */
function serveApiDocs(
  app: Express,
  api: ApiRouter<unknown>,
  docs: { path: string; title: string; securityName: string; securityScheme: Record<string, unknown> },
  publicUrl: string,
  plugins: LoadedPlugin[],
): void {
  const { path, title, securityName, securityScheme } = docs;
  let document: Record<string, unknown> | null = null;
  const build = () =>
    (document ??= buildOpenApi(api.routes, {
      title,
      version: plugins[0]?.manifest.version ?? '0.0.0',
      description: `${title}, generated from the route declarations.`,
      serverUrl: `${publicUrl}${path}`,
      securitySchemes: { [securityName]: securityScheme },
      securityFor: (route) => (route.auth === 'public' ? null : [{ [securityName]: [] }]),
      actorsByAuth: api.api.actorsByAuth,
    }));
  app.get(`${path}/_info/openapi3.json`, (_req, res) => {
    res.json(build());
  });
  app.get(`${path}/_info/swagger.html`, (_req, res) => {
    res.type('html').send(renderOpenApiHtml(build()));
  });
}

function mountApiDocs(app: Express, internals: HostInternals, publicUrl: string, plugins: LoadedPlugin[]): void {
  const storeApiDocs = {
    path: '/store-api',
    title: 'Suite B2B Store API',
    securityName: 'contextToken',
    securityScheme: { type: 'apiKey', in: 'header', name: CONTEXT_TOKEN_HEADER },
  };
  serveApiDocs(app, internals.storeApi, storeApiDocs, publicUrl, plugins);
  const adminApiDocs = {
    path: '/api',
    title: 'Suite B2B Admin API',
    securityName: 'bearer',
    securityScheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  };
  serveApiDocs(app, internals.adminApi, adminApiDocs, publicUrl, plugins);
}

/** After the APIs (and their 404): the console's and the storefront's pages, then the error handler. */
function mountPages(app: Express, log: Logger, { operatorConsole, storefront }: HostModules): void {
  app.use(['/store-api', '/api'], (req: Request, _res: Response, next: NextFunction) => {
    next(new AppError(404, 'SUITE__ROUTE_NOT_FOUND', `No route ${req.method} ${req.originalUrl.split('?')[0]}.`));
  });
  app.use(cookieParser());
  app.use(express.urlencoded({ extended: false, limit: '64kb' }));
  app.use(operatorConsole.router);
  app.use(storefront.router);
  app.use(errorMiddleware(log));
}

function createExpressApp(
  internals: HostInternals,
  modules: HostModules,
  parts: {
    config: HostConfig;
    log: Logger;
    health: Health;
    metrics: ReturnType<typeof createMetrics>;
    plugins: LoadedPlugin[];
  },
): Express {
  const { config, log, health, metrics, plugins } = parts;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(
    requestLogger(log as unknown as Parameters<typeof requestLogger>[0], {
      observe: (req, res, seconds) => metrics.observe(req, res, seconds),
      headers: { 'Access-Control-Expose-Headers': `${CONTEXT_TOKEN_HEADER}, x-request-id` },
      draining: () => health.draining,
    }),
  );
  mountApis(app, internals, health, metrics);
  mountApiDocs(app, internals, config.publicUrl, plugins);
  mountPages(app, log, modules);
  return app;
}

/** The app factory: everything but listening. The server and the tests both start here. */
export async function createApp(options: AppOptions = {}): Promise<ShopApp> {
  const config = loadConfig(options.env ?? process.env, options.config ?? {});
  const log = createLogger(config.logLevel, options.logDestination);
  const db = options.db ?? createDb(config.databaseUrl, { timeouts: config.dbTimeouts, log });
  watchDatabase(db);
  await migrateFolder(db, HOST_MIGRATIONS, 'knex_migrations');
  await ensureDefaultSalesChannel(db, config.publicUrl);
  if (config.adminClientId && config.adminClientSecret)
    await ensureAdminIntegration(db, config.adminClientId, config.adminClientSecret);

  const { internals, events } = createInternals(config, db, log);
  const modules = createHostModules(internals, events);
  const { jobs, mail } = modules;

  const plugins = options.plugins ?? [await importPlugin()];
  const runtime = createHostRuntime(internals, config, db, log, modules);
  internals.runtime = runtime;
  registerHousekeeping(runtime);

  registerTemplatesFromFolder(mail, projectPath('templates', 'mail'), HOST_MAIL_TEMPLATES);
  addHostRoutes(internals, db, modules);
  await loadPlugins(internals, db, runtime, mail, plugins);

  const migrationSets: MigrationSet[] = [
    { folder: HOST_MIGRATIONS, table: 'knex_migrations' },
    ...plugins.flatMap(({ manifest }) => pluginMigrationSet(manifest) ?? []),
  ];
  const health = createHealth(db, migrationSets);
  const metrics = createMetrics(db, config.metricsToken);
  const app = createExpressApp(internals, modules, { config, log, health, metrics, plugins });

  if (config.workers) jobs.start();

  return {
    app,
    runtime,
    internals,
    db,
    config,
    jobs,
    mail,
    plugins,
    health,
    async close() {
      await jobs.stop();
      if (!options.db) await db.destroy();
    },
  };
}
