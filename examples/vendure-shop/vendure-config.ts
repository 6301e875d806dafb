import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  DefaultJobQueuePlugin,
  DefaultSchedulerPlugin,
  DefaultSearchPlugin,
  dummyPaymentHandler,
  type VendureConfig,
} from '@vendure/core';
import { DashboardPlugin } from '@vendure/dashboard/plugin';
import { defaultEmailHandlers, EmailPlugin, type EmailPluginOptions } from '@vendure/email-plugin';
// As a shop imports the installed package (in this repository the `suite-b2b-source` condition maps it to src/, see docs/vendure.md).
import { SuiteB2BPlugin, SuiteB2BSearchStrategy } from 'suite-b2b/vendure';
import { suiteB2BEmailHandlers } from 'suite-b2b/vendure/email';
import { parseDatabaseUrl } from '../../src/lib/db.js';
import { BcryptWithRounds } from './password-hashing.js';

export interface ShopConfigOptions {
  /** sqlite:<file> (default sqlite:./var/vendure-shop.sqlite), mysql://user:pass@host:port/db (MariaDB) or postgres://user:pass@host:port/db. */
  databaseUrl?: string;
  port?: number;
  /** Checks every plugin route's answer against its schema (tests). */
  validateResponses?: boolean;
  /** SMTP URL for the plugin's mails (default MAILER_URL; none: .eml files under var/mail). */
  mailerUrl?: string | null;
  /** Hand the plugin's work to Vendure's job queue and scheduler (default true; the adapter's `runJobs`). */
  runJobs?: boolean;
  /**
   * The shop's job queue plugin (default `DefaultJobQueuePlugin`, the database queue), e.g.
   * `BullMQJobQueuePlugin.init(…)` (Redis).
   */
  jobQueuePlugin?: NonNullable<VendureConfig['plugins']>[number];
  /**
   * Worker processes of their own run the job queue and the scheduled tasks (`bootstrapWorker`); this
   * process does neither (Vendure's `runTasksInWorkerOnly`). Default false: one process does everything.
   */
  separateWorkers?: boolean;
  /**
   * Serves Vendure's Dashboard with the B2B section at /dashboard from this build (`npm run
   * build:dashboard` → var/dashboard). `viteDevServerPort`: where DashboardPlugin looks for a Vite
   * dev server first (default 5173).
   */
  dashboard?: { appDir: string; viteDevServerPort?: number };
  /** bcrypt rounds for Vendure's passwords (default: Vendure's 12; the tests take 4). */
  passwordHashRounds?: number;
  /** The plugin's database limits (SuiteB2BPlugin.init's `databaseTimeouts`). */
  databaseTimeouts?: { statementMs?: number };
  /**
   * Vendure's EmailPlugin sends the plugin's mails (adapter option `mail: 'email-plugin'`, decision 0059):
   * its template folder (with `partials/` and the `suite-b2b-*` folders of templates/vendure-email),
   * its transport, its `fromAddress`, and the adapter's `mailFrom` (unset: the EmailPlugin's `fromAddress`).
   */
  emailPlugin?: {
    templatePath: string;
    /** The EmailPlugin's transport; or `mailbox`: its dev mode, mails as files shown at /mailbox. */
    transport?: NonNullable<Extract<EmailPluginOptions, { transport: unknown }>['transport']>;
    mailbox?: { outputPath: string };
    fromAddress?: string;
    mailFrom?: string;
  };
}

/** Vendure's own email templates (with the partials its template loader reads at start). */
export const vendureEmailTemplates = join(
  dirname(createRequire(import.meta.url).resolve('@vendure/email-plugin/package.json')),
  'templates',
);

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
    // The shop runs behind a proxy on this machine (as the reference host trusts one on loopback): the
    // plugin's rate limits then see the client's address (test: client-address.test.ts). The shop's choice.
    apiOptions: { port, adminApiPath: 'admin-api', shopApiPath: 'shop-api', trustProxy: 'loopback' },
    authOptions: {
      tokenMethod: ['bearer', 'cookie'],
      requireVerification: false,
      superadminCredentials: {
        identifier: process.env.SUPERADMIN_USERNAME ?? 'superadmin',
        password: process.env.SUPERADMIN_PASSWORD ?? 'superadmin',
      },
      cookieOptions: { secret: process.env.COOKIE_SECRET ?? 'example-shop-cookie-secret' },
      ...(options.passwordHashRounds
        ? { passwordHashingStrategy: new BcryptWithRounds(options.passwordHashRounds) }
        : {}),
    },
    dbConnectionOptions: dbConnectionOptions(databaseUrl),
    paymentOptions: { paymentMethodHandlers: [dummyPaymentHandler] },
    importExportOptions: { importAssetsDir: join(import.meta.dirname, 'assets') },
    // One process (the example's default) runs Vendure's scheduled tasks itself; with worker processes, they do.
    schedulerOptions: { runTasksInWorkerOnly: options.separateWorkers ?? false },
    plugins: [
      options.jobQueuePlugin ?? DefaultJobQueuePlugin.init({ pollInterval: 200 }),
      // Vendure's scheduler (its ScheduledTasks, the plugin's among them), locked in the database.
      DefaultSchedulerPlugin.init(),
      // The Shop API `search` narrowed by partial assortments (Vendure's own SQL strategy inside).
      DefaultSearchPlugin.init({
        bufferUpdates: false,
        indexStockStatus: false,
        searchStrategy: new SuiteB2BSearchStrategy(),
      }),
      SuiteB2BPlugin.init({
        storefrontUrls: [`http://localhost:${port}`],
        validateResponses: options.validateResponses,
        mailerUrl: options.mailerUrl !== undefined ? options.mailerUrl : (process.env.MAILER_URL ?? null),
        shopName: 'Example shop',
        runJobs: options.runJobs,
        databaseTimeouts: options.databaseTimeouts,
        // The plugin confirms orders (lines with event participants); Vendure's own confirmation is the EmailPlugin's.
        orderConfirmationMail: true,
        ...(options.emailPlugin ? { mail: 'email-plugin' as const, mailFrom: options.emailPlugin.mailFrom } : {}),
      }),
      // Vendure's EmailPlugin: with `emailPlugin` it sends the plugin's mails (decision 0059); else it sends
      // nothing (no handlers, transport none) and the plugin's outbox does. Always in the list, as the
      // Dashboard below: Vendure builds its plugin modules at the first bootstrap of a process, so a later
      // shop could not add it (several shops boot in one test process).
      EmailPlugin.init(
        options.emailPlugin
          ? {
              handlers: [...defaultEmailHandlers, ...suiteB2BEmailHandlers],
              templatePath: options.emailPlugin.templatePath,
              globalTemplateVars: {
                fromAddress: options.emailPlugin.fromAddress ?? '"Example shop" <shop@example.test>',
              },
              ...(options.emailPlugin.mailbox
                ? { devMode: true as const, route: 'mailbox', outputPath: options.emailPlugin.mailbox.outputPath }
                : { transport: options.emailPlugin.transport ?? { type: 'none' as const } }),
            }
          : { handlers: [], templatePath: vendureEmailTemplates, transport: { type: 'none' } },
      ),
      // Vendure's Dashboard: served from a build at /dashboard, else only its API (metrics, settings). Always in the
      // list: Vendure keeps a plugin's GraphQL resolvers per process, so a later shop without it would not boot.
      options.dashboard ? DashboardPlugin.init({ route: 'dashboard', ...options.dashboard }) : DashboardPlugin,
    ],
  };
}
