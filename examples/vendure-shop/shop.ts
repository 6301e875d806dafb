import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import {
  bootstrap,
  ChannelService,
  CustomerGroupService,
  CustomerService,
  JobQueueService,
  Logger,
  LogLevel,
  DefaultLogger,
  RequestContextService,
  resetConfig,
  TransactionalConnection,
  type VendureConfig,
} from '@vendure/core';
import { populate } from '@vendure/core/cli/index.js';
import knexFactory from 'knex';
import type { DemoShop } from '../../src/contract/index.js';
import { parseDatabaseUrl } from '../../src/lib/db.js';
import type { AdapterState } from '../../src/adapters/vendure/state.js';
import { initialData } from './initial-data.js';
import { shopConfig, type ShopConfigOptions } from './vendure-config.js';

export const DEMO_CUSTOMER = {
  email: 'buyer@demo-company.test',
  password: 'demo-buyer-2026',
  firstName: 'Bea',
  lastName: 'Buyer',
};
export const PARTNER_CUSTOMER = {
  email: 'partner@partner-company.test',
  password: 'demo-partner-2026',
  firstName: 'Pia',
  lastName: 'Partner',
};
export const PARTNER_GROUP = 'Partners';

export interface RunningShop {
  app: INestApplication;
  port: number;
  url: string;
  config: VendureConfig;
  state: AdapterState;
  /** What the seed printed: the logins of the demo. */
  logins: string[];
  close(): Promise<void>;
}

/** MariaDB, PostgreSQL: creates the database named in the URL when missing (SQLite creates its file itself). */
async function ensureDatabase(url: string): Promise<void> {
  const target = parseDatabaseUrl(url);
  if (target.dialect === 'sqlite') {
    if (target.database !== ':memory:') mkdirSync(dirname(resolve(target.database)), { recursive: true });
    return;
  }
  const server = new URL(url.replace(/^mariadb:/, 'mysql:'));
  const postgres = target.dialect === 'postgres';
  const admin = knexFactory({
    client: postgres ? 'pg' : 'mysql2',
    connection: {
      host: server.hostname,
      port: Number(server.port || (postgres ? 5432 : 3306)),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
      // PostgreSQL: a connection needs a database; its maintenance database.
      ...(postgres ? { database: 'postgres' } : {}),
    },
  });
  try {
    if (!postgres)
      await admin.raw('CREATE DATABASE IF NOT EXISTS ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [
        target.database,
      ]);
    else if ((await admin('pg_database').where({ datname: target.database }).first()) === undefined)
      await admin.raw("CREATE DATABASE ?? ENCODING 'UTF8' TEMPLATE template0", [target.database]);
  } finally {
    await admin.destroy();
  }
}

/**
 * Boots the example shop (Vendure + Suite B2B), seeds it on first start (Vendure's initial data,
 * the demo catalog from products.csv, two customers, a customer group, the plugin's demo records)
 * and runs the job queue in the same process (search index, the plugin's work) unless `separateWorkers`.
 */
export async function startShop(options: ShopConfigOptions & { quiet?: boolean } = {}): Promise<RunningShop> {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? 'sqlite:./var/vendure-shop.sqlite';
  await ensureDatabase(databaseUrl);
  process.env.VENDURE_DISABLE_TELEMETRY ??= 'true';
  const config = shopConfig({ ...options, databaseUrl });
  if (options.quiet) config.logger = new DefaultLogger({ level: LogLevel.Error });
  const suite = config.plugins!.find((p) => typeof p === 'function' && 'state' in p) as unknown as {
    state: AdapterState;
  };

  const app = (await populateOnce(config)) as INestApplication;
  // One process: this one runs the job queue too (search index, the plugin's work); else the workers do.
  if (!options.separateWorkers) await app.get(JobQueueService).start();
  const state = suite.state;
  const logins = await seedCustomersAndDemo(app, state);
  const port = config.apiOptions!.port!;
  return {
    app,
    port,
    url: `http://localhost:${port}`,
    config,
    state,
    logins,
    async close() {
      await app.close();
    },
  };
}

/**
 * Vendure's populate() on an empty database (it bootstraps the app and keeps it running); bootstrap()
 * otherwise. Vendure merges each bootstrap's config into one process-wide config, so what a plugin
 * added to it in an earlier boot (interceptors, middleware, strategies bound to a closed app) would
 * stay: every boot here starts from Vendure's defaults (several shops in one test process).
 */
async function populateOnce(config: VendureConfig): Promise<INestApplication> {
  const fresh = () => {
    resetConfig();
    return bootstrap(config);
  };
  const app = await fresh();
  const connection = app.get(TransactionalConnection);
  const [row] = (await connection.rawConnection.query('SELECT COUNT(*) AS count FROM product')) as Array<{
    count: number | string;
  }>;
  if (Number(row?.count ?? 0) > 0) return app;
  await app.close();
  return populate(fresh, initialData, resolve(import.meta.dirname, 'products.csv'));
}

async function seedCustomersAndDemo(app: INestApplication, state: AdapterState): Promise<string[]> {
  const ctx = await app.get(RequestContextService).create({ apiType: 'admin' });
  const customers = app.get(CustomerService);
  const groups = app.get(CustomerGroupService);
  const ids: Record<string, string> = {};
  for (const person of [DEMO_CUSTOMER, PARTNER_CUSTOMER]) {
    const existing = await customers.findAll(ctx, { filter: { emailAddress: { eq: person.email } } });
    const found = existing.items[0];
    if (found) {
      ids[person.email] = String(found.id);
      continue;
    }
    const created = await customers.create(
      ctx,
      { emailAddress: person.email, firstName: person.firstName, lastName: person.lastName },
      person.password,
    );
    if (!('id' in created))
      throw new Error(
        `cannot create demo customer ${person.email}: ${String((created as { message?: string }).message)}`,
      );
    ids[person.email] = String(created.id);
  }
  const allGroups = await groups.findAll(ctx, { filter: { name: { eq: PARTNER_GROUP } } });
  if (allGroups.items.length === 0)
    await groups.create(ctx, { name: PARTNER_GROUP, customerIds: [ids[PARTNER_CUSTOMER.email]!] });

  const runtime = state.runtime;
  const channel = await app.get(ChannelService).getDefaultChannel();
  const variantRows: Array<{ id: unknown }> = await state
    .db('product_variant')
    .whereNull('deletedAt')
    .orderBy('id')
    .select('id');
  const demo: DemoShop = {
    salesChannelId: state.ids.toPlugin(channel.id),
    customerId: state.ids.toPlugin(ids[DEMO_CUSTOMER.email]),
    customerEmail: DEMO_CUSTOMER.email,
    productIds: variantRows.map((r) => state.ids.toPlugin(r.id)),
    categoryIds: [],
  };
  const lines = [
    `Customer (company admin): ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`,
    `Customer (group "${PARTNER_GROUP}"): ${PARTNER_CUSTOMER.email} / ${PARTNER_CUSTOMER.password}`,
  ];
  if (state.plugin.seedDemo) {
    try {
      lines.push(...(await state.plugin.seedDemo(runtime, demo)));
    } catch (error) {
      Logger.warn(`Suite B2B demo records not (all) seeded: ${(error as Error).message}`, 'ExampleShop');
    }
  }
  return lines;
}
