import type { Type } from '@nestjs/common';
import type { CachedSession } from '@vendure/core';
import type { Db, Dialect } from '../../lib/db.js';
import type { Actor, HostPlugin, HostRuntime, Logger } from '../../host/contract.js';
import type { PluginManifest } from '../../host-kit/manifest.js';
import type { Executor } from '../../lib/db.js';
import type { SalesChannel } from '../../host/contract.js';
import type { PluginRegistries } from '../../host-kit/registries.js';
import type { IdMapper } from './ids.js';
import type { MailOutbox } from '../../lib/mail-outbox.js';
import type { JobWorker } from '../../lib/job-worker.js';

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
  /** Run the plugin's job worker (scheduled jobs, mail sending) in this Vendure process (default true). */
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
}

/** The adapter's shared state: the plugin's database, the registries behind the contract's extension points, Vendure's services. */
export interface AdapterState {
  options: Required<Omit<AdapterOptions, 'databaseUrl' | 'placedOrderPaymentMethod'>> &
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
}

export function vendureServices(state: AdapterState): VendureServices {
  if (!state.vendure) throw new Error('the Suite B2B Vendure adapter is used before Vendure has started');
  return state.vendure;
}
