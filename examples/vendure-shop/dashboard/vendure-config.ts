/**
 * The Vendure config the Dashboard build reads (scripts/build-dashboard.mjs → vendureDashboardPlugin):
 * the example shop's API paths and token methods, and the Suite B2B plugin's Dashboard declaration.
 */
import { VendurePlugin, type VendureConfig } from '@vendure/core';

@VendurePlugin({ dashboard: '../../../src/adapters/vendure/dashboard/index.tsx' })
class SuiteB2BPlugin {}

export const config: VendureConfig = {
  apiOptions: { port: 3000, adminApiPath: 'admin-api', shopApiPath: 'shop-api' },
  authOptions: { tokenMethod: ['bearer', 'cookie'] },
  dbConnectionOptions: { type: 'better-sqlite3', database: ':memory:', synchronize: false },
  paymentOptions: { paymentMethodHandlers: [] },
  plugins: [SuiteB2BPlugin],
};
