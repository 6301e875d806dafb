/**
 * The example Vendure shop with Suite B2B: `npm run vendure:start` (SQLite, ./var/vendure-shop.sqlite),
 * `DATABASE_URL=mysql://root@127.0.0.1:3306/vendure_shop npm run vendure:start` (MariaDB), PORT to move it.
 * After `npm run build:dashboard` it also serves Vendure's Dashboard with the B2B section at /dashboard.
 * `EMAIL_MAILBOX=1`: mails through Vendure's EmailPlugin in dev mode, shown at /mailbox.
 */
import { cpSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startShop } from './shop.js';
import { vendureEmailTemplates } from './vendure-config.js';

const dashboardDir = resolve('var', 'dashboard');
const dashboard = existsSync(resolve(dashboardDir, 'index.html')) ? { appDir: dashboardDir } : undefined;
// EMAIL_MAILBOX=1: Vendure's EmailPlugin in dev mode sends the plugin's mails (and Vendure's) to its mailbox at
// /mailbox, from the template folder var/email-templates (Vendure's and the plugin's bodies, copied once: edit them there).
const emailTemplates = resolve('var', 'email-templates');
if (process.env.EMAIL_MAILBOX) {
  cpSync(vendureEmailTemplates, emailTemplates, { recursive: true, force: false });
  cpSync(resolve(import.meta.dirname, '..', '..', 'templates', 'vendure-email'), emailTemplates, {
    recursive: true,
    force: false,
  });
}
const shop = await startShop({
  port: Number(process.env.PORT ?? 3000),
  dashboard,
  ...(process.env.EMAIL_MAILBOX
    ? { emailPlugin: { templatePath: emailTemplates, mailbox: { outputPath: resolve('var', 'email-mailbox') } } }
    : {}),
});
process.stdout.write(
  [
    '',
    `Vendure Shop API:        ${shop.url}/shop-api`,
    `Vendure Admin API:       ${shop.url}/admin-api  (superadmin / superadmin)`,
    dashboard
      ? `Vendure Dashboard:       ${shop.url}/dashboard  (with the B2B section)`
      : 'Vendure Dashboard:       npm run build:dashboard, then start again',
    ...(process.env.EMAIL_MAILBOX ? [`EmailPlugin mailbox:     ${shop.url}/mailbox`] : []),
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
