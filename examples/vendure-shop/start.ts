/**
 * The example Vendure shop with Suite B2B: `npm run vendure:start` (SQLite, ./var/vendure-shop.sqlite),
 * `DATABASE_URL=mysql://root@127.0.0.1:3306/vendure_shop npm run vendure:start` (MariaDB), PORT to move it.
 * After `npm run build:dashboard` it also serves Vendure's Dashboard with the B2B section at /dashboard.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startShop } from './shop.js';

const dashboardDir = resolve('var', 'dashboard');
const dashboard = existsSync(resolve(dashboardDir, 'index.html')) ? { appDir: dashboardDir } : undefined;
const shop = await startShop({ port: Number(process.env.PORT ?? 3000), dashboard });
process.stdout.write(
  [
    '',
    `Vendure Shop API:        ${shop.url}/shop-api`,
    `Vendure Admin API:       ${shop.url}/admin-api  (superadmin / superadmin)`,
    dashboard
      ? `Vendure Dashboard:       ${shop.url}/dashboard  (with the B2B section)`
      : 'Vendure Dashboard:       npm run build:dashboard, then start again',
    `Suite B2B console:       ${shop.url}/b2b-admin`,
    `Suite B2B Store API:     ${shop.url}/store-api`,
    `Suite B2B Admin API:     ${shop.url}/b2b-admin-api`,
    ...shop.logins,
    '',
  ].join('\n') + '\n',
);
const stop = () => void shop.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
