// The smoke shop's server entry (plain node, no tsx), as a Vendure project's own: on an empty
// database Vendure's populate() adds a zone, a tax rate, shipping and payment methods and the
// example shop's four products, then the shop keeps serving.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { bootstrap, DefaultLogger, LanguageCode, LogLevel } from '@vendure/core';
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
const app = fresh
  ? await populate(() => bootstrap(config), initialData, resolve('products.csv'))
  : await bootstrap(config);
process.stdout.write(`smoke shop listening on ${String(config.apiOptions.port)}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
