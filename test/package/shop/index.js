// The smoke shop's server entry (plain node, no tsx), as a Vendure project's own: the migrations first
// (the README's config: synchronize false, the plugin's tables through suiteB2BMigrations), then the
// server. On an empty database Vendure's schema is made as @vendure/create makes it — synchronized once,
// while populate() adds a zone, a tax rate, shipping and payment methods and the example shop's four
// products — and the shop then starts on the config as it stands.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { bootstrap, DefaultLogger, LanguageCode, LogLevel, runMigrations } from '@vendure/core';
import { populate } from '@vendure/core/cli/index.js';
import { config } from './vendure-config.js';

const initialData = {
  defaultLanguage: LanguageCode.en,
  defaultZone: 'Europe',
  taxRates: [{ name: 'Standard Tax', percentage: 19 }],
  shippingMethods: [{ name: 'Standard Shipping', price: 500 }],
  paymentMethods: [
    {
      name: 'Invoice',
      handler: { code: 'dummy-payment-handler', arguments: [{ name: 'automaticSettle', value: 'false' }] },
    },
  ],
  countries: [{ name: 'Germany', code: 'DE', zone: 'Europe' }],
  collections: [],
};

config.logger = new DefaultLogger({ level: LogLevel.Warn });
const fresh = !existsSync(config.dbConnectionOptions.database);
const migrated = await runMigrations(config);
if (!migrated.includes('SuiteB2BTables1796601600000') && fresh)
  throw new Error(`the plugin's migration did not run: ${migrated}`);
if (fresh) {
  const synchronized = { ...config, dbConnectionOptions: { ...config.dbConnectionOptions, synchronize: true } };
  const populated = await populate(() => bootstrap(synchronized), initialData, resolve('products.csv'));
  await populated.close();
}
const app = await bootstrap(config);
process.stdout.write(`smoke shop listening on ${String(config.apiOptions.port)}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
