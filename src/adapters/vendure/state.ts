import type { Type } from '@nestjs/common';
import type { CachedSession } from '@vendure/core';
import type { Db, DbTimeouts, Dialect } from '../../lib/db.js';
import type { Actor, HostPlugin, HostRuntime, Logger } from '../../contract/index.js';
import type { PluginManifest } from '../../host-kit/manifest.js';
import type { Executor } from '../../lib/db.js';
import type { SalesChannel } from '../../contract/index.js';
import type { PluginRegistries } from '../../host-kit/registries.js';
import type { IdMapper } from './ids.js';
import type { MailOutbox } from '../../lib/mail-outbox.js';
import type { JobWorker } from '../../lib/job-worker.js';
import type { JobQueue } from '@vendure/core';
import type { SuiteQueueJob } from './job-queue.js';
import type { TablesMigratedBy } from './migrations.js';

/** What Vendure hands the adapter once Nest has started (services resolved from the Injector). */
export interface VendureServices {
  /** SessionService.getSessionFromToken */
  sessionFromToken(token: string): Promise<CachedSession | undefined>;
  /** Any of Vendure's services (OrderService, CustomerService …), resolved from Nest's container. */
  service<T>(token: Type<T>): T;
}

export interface AdapterOptions {
  /** knex URL of Vendure's database for the plugin's own tables; default: derived from Vendure's dbConnectionOptions. */
  databaseUrl?: string;
  /**
   * Limits of the plugin's database connection (default: connect 2 s, pool wait 5 s, statement and lock
   * wait 3 s; a statement over its limit is retried, then answered 503 with Retry-After).
   */
  databaseTimeouts?: Partial<DbTimeouts>;
  /** Absolute storefront URLs (mail links are built from the first). */
  storefrontUrls?: string[];
  /** Path of the plugin's Store API (default /store-api) and Admin API (default /b2b-admin-api). */
  storeApiPath?: string;
  adminApiPath?: string;
  /** Lifetime of a plugin-issued context token (employees, sales representatives), seconds. Default 1 day. */
  contextTokenTtlSeconds?: number;
  /** Check every handler's answer against its declared schema (on in tests). */
  validateResponses?: boolean;
  /** SMTP URL the plugin's mails are sent to (smtp://user:pass@host:587); default none: .eml files in `mailFolder`. */
  mailerUrl?: string | null;
  /** Where mails go as .eml files when there is no `mailerUrl` (default `var/mail` in the working directory; a relative path is taken from there). */
  mailFolder?: string;
  /** Sender name of the plugin's mails (default: the channel's name). */
  shopName?: string;
  /**
   * Sender of the plugin's mails, `"Name" <address>` or an address (default: through the EmailPlugin
   * its `globalTemplateVars.fromAddress`, else — and on the outbox's own sending — the sender name at
   * `no-reply@<first storefront host>`).
   */
  mailFrom?: string;
  /**
   * Who sends the plugin's mails (decision 0059): `'outbox'` (default) its own sender (SMTP `mailerUrl` or
   * .eml files); `'email-plugin'` Vendure's EmailPlugin — each mail a `SuiteB2BMailEvent` the shop's
   * `suiteB2BEmailHandlers` (`suite-b2b/vendure/email`) render with its templates and send with its
   * transport. Checked at start: the EmailPlugin must be in the shop's plugins with a handler per plugin template.
   */
  mail?: 'outbox' | 'email-plugin';
  /**
   * Hand the plugin's work (mails, jobs, scheduled runs) to Vendure's job queue and scheduler (default
   * true): the shop's worker processes then run it (docs/vendure.md, "Where the plugin's work runs").
   * false: nothing is handed over and no ScheduledTask is registered; the work waits in the plugin's
   * tables for whoever runs it (tests: `state.jobs.runDue()`, `state.mail.sendQueued()`).
   */
  runJobs?: boolean;
  /**
   * Send the plugin's `order-confirmation` mail (lines with their payload, e.g. event participants)
   * when Vendure places an order. Off by default: Vendure shops usually confirm orders with their EmailPlugin.
   */
  orderConfirmationMail?: boolean;
  /**
   * The Vendure payment method (code) of orders the plugin places (approval execute, offer accept):
   * one that needs nothing from the customer, e.g. invoice. Default: the first eligible method.
   */
  placedOrderPaymentMethod?: string;
  /**
   * Who creates and updates the plugin's own tables (decision 0064). `'vendure'`: the shop's Vendure
   * migrations — `suiteB2BMigrations` listed in `dbConnectionOptions.migrations`, applied by
   * `runMigrations` — and the plugin refuses to start while its tables are missing or behind.
   * `'on-boot'`: the plugin applies its pending migrations itself when Vendure starts (after Vendure's
   * connection, never while a migration is generated or the Dashboard built). Default: `'on-boot'` when
   * `dbConnectionOptions.synchronize` is true (development, as Vendure's entities), else `'vendure'`.
   */
  migrations?: TablesMigratedBy;
}

/** The adapter's shared state: the plugin's database, the registries behind the contract's extension points, Vendure's services. */
export interface AdapterState {
  options: Required<Omit<AdapterOptions, 'databaseUrl' | 'databaseTimeouts' | 'placedOrderPaymentMethod'>> &
    Pick<AdapterOptions, 'placedOrderPaymentMethod'>;
  db: Db;
  dialect: Dialect;
  log: Logger;
  manifest: PluginManifest;
  ids: IdMapper;
  /** The sales channel of the plugin: Vendure's default channel (one channel per shop, docs/vendure.md). */
  salesChannel(executor?: Executor): Promise<SalesChannel>;
  plugin: HostPlugin;
  registries: PluginRegistries;
  /**
   * Vendure orders checkout.placeOrder is placing (Vendure order id → the plugin's actor): the order
   * process leaves their interceptors to placeOrder (which ran them) and writes this placing actor.
   */
  placing: Map<string, Actor>;
  /** Set in onApplicationBootstrap; contract calls that need Vendure's services run after it. */
  vendure: VendureServices | null;
  /** The assembled contract (set once built). */
  runtime: HostRuntime;
  /** The plugin's mail outbox and job worker (mail.ts, jobs.ts). */
  mail: MailOutbox;
  jobs: JobWorker<HostRuntime>;
  /** Vendure's queue the plugin's work runs on (job-queue.ts); null before Vendure started, or with `runJobs: false`. */
  jobQueue: JobQueue<SuiteQueueJob> | null;
}

export function vendureServices(state: AdapterState): VendureServices {
  if (!state.vendure) throw new Error('the Suite B2B Vendure adapter is used before Vendure has started');
  return state.vendure;
}
