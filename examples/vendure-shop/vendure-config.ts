import { join } from 'node:path';
import { DefaultJobQueuePlugin, DefaultSearchPlugin, dummyPaymentHandler, type VendureConfig } from '@vendure/core';
import { DashboardPlugin } from '@vendure/dashboard/plugin';
// As a shop imports the installed package (in this repository the `suite-b2b-source` condition maps it to src/, see docs/vendure.md).
import { SuiteB2BSearchStrategy, SuiteB2BVendurePlugin } from 'suite-b2b/vendure';
import { parseDatabaseUrl } from '../../src/lib/db.js';

export interface ShopConfigOptions {
  /** sqlite:<file> (default sqlite:./var/vendure-shop.sqlite), mysql://user:pass@host:port/db (MariaDB) or postgres://user:pass@host:port/db. */
  databaseUrl?: string;
  port?: number;
  /** Checks every plugin route's answer against its schema (tests). */
  validateResponses?: boolean;
  /** SMTP URL for the plugin's mails (default MAILER_URL; none: .eml files under var/mail). */
  mailerUrl?: string | null;
  /** Run the plugin's job worker in the shop process (default true). */
  runJobs?: boolean;
  /**
   * Serves Vendure's Dashboard with the B2B section at /dashboard from this build (`npm run
   * build:dashboard` → var/dashboard). `viteDevServerPort`: where DashboardPlugin looks for a Vite
   * dev server first (default 5173).
   */
  dashboard?: { appDir: string; viteDevServerPort?: number };
}

/** TypeORM connection options from a DATABASE_URL; the example shop lets TypeORM synchronize Vendure's schema. */
function dbConnectionOptions(url: string): VendureConfig['dbConnectionOptions'] {
  const target = parseDatabaseUrl(url);
  if (target.dialect === 'sqlite')
    return { type: 'better-sqlite3', database: target.database, synchronize: true, logging: false };
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  const postgres = target.dialect === 'postgres';
  return {
    type: postgres ? 'postgres' : 'mariadb',
    host: parsed.hostname,
    port: Number(parsed.port || (postgres ? 5432 : 3306)),
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: target.database,
    synchronize: true,
    logging: false,
  };
}

/**
 * The example shop's vendure-config: Vendure's defaults plus the three lines a merchant adds for
 * Suite B2B (the plugin in `plugins`, DefaultSearchPlugin for `search`, a job queue).
 */
export function shopConfig(options: ShopConfigOptions = {}): VendureConfig {
  const databaseUrl = options.databaseUrl ?? 'sqlite:./var/vendure-shop.sqlite';
  const port = options.port ?? 3000;
  return {
    apiOptions: { port, adminApiPath: 'admin-api', shopApiPath: 'shop-api' },
    authOptions: {
      tokenMethod: ['bearer', 'cookie'],
      requireVerification: false,
      superadminCredentials: {
        identifier: process.env.SUPERADMIN_USERNAME ?? 'superadmin',
        password: process.env.SUPERADMIN_PASSWORD ?? 'superadmin',
      },
      cookieOptions: { secret: process.env.COOKIE_SECRET ?? 'example-shop-cookie-secret' },
    },
    dbConnectionOptions: dbConnectionOptions(databaseUrl),
    paymentOptions: { paymentMethodHandlers: [dummyPaymentHandler] },
    importExportOptions: { importAssetsDir: join(import.meta.dirname, 'assets') },
    plugins: [
      DefaultJobQueuePlugin.init({ pollInterval: 200 }),
      // The Shop API `search` narrowed by partial assortments (Vendure's own SQL strategy inside).
      DefaultSearchPlugin.init({
        bufferUpdates: false,
        indexStockStatus: false,
        searchStrategy: new SuiteB2BSearchStrategy(),
      }),
      SuiteB2BVendurePlugin({
        storefrontUrls: [`http://localhost:${port}`],
        validateResponses: options.validateResponses,
        mailerUrl: options.mailerUrl !== undefined ? options.mailerUrl : (process.env.MAILER_URL ?? null),
        shopName: 'Example shop',
        runJobs: options.runJobs,
        // The example has no EmailPlugin: the plugin confirms orders (lines with event participants).
        orderConfirmationMail: true,
      }),
      // Vendure's Dashboard: served from a build at /dashboard, else only its API (metrics, settings). Always in the
      // list: Vendure keeps a plugin's GraphQL resolvers per process, so a later shop without it would not boot.
      options.dashboard ? DashboardPlugin.init({ route: 'dashboard', ...options.dashboard }) : DashboardPlugin,
    ],
  };
}
