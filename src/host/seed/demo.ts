import { newId, newSecret } from '../../lib/ids.js';
import { writeJson } from '../../lib/db.js';
import { nowDb } from '../../lib/time.js';
import type { DemoShop, HostRuntime } from '../../contract/index.js';
import type { ShopApp } from '../app.js';
import { hashPassword } from '../../host-kit/passwords.js';
import { insertCustomer } from '../customer/customer-repository.js';
import { ensureAdminIntegration } from './base-data.js';
import { seedDemoCatalog } from '../catalog/demo-catalog.js';
import type { CustomerRow, SalesChannelRow } from '../customer/rows.js';
import { inZone, zonedPluginRuntime } from '../plugins/zones.js';

export const DEMO_CUSTOMER = {
  email: 'buyer@demo-company.test',
  password: 'demo-buyer-2026',
  company: 'Demo Company Ltd',
};
export const DEMO_ADMIN = { username: 'admin', password: 'demo-admin-2026' };

/**
 * First start on the embedded database (or SEED_DEMO=1): a demo shop to click through.
 * Returns lines for the start banner, also when the demo exists already.
 */
export async function seedDemoIfEmpty(
  shop: ShopApp,
  force = process.env.SEED_DEMO === '1',
): Promise<{ lines: string[] }> {
  const { db, config } = shop;
  const isEmbedded = shop.internals.dialect === 'sqlite';
  const alreadySeeded = await db<CustomerRow>('customers').where({ email: DEMO_CUSTOMER.email }).first('id');
  const lines: string[] = [];
  if (!alreadySeeded && (isEmbedded || force)) {
    const salesChannel = await db<SalesChannelRow>('sales_channels').orderBy('created_at').first('id');
    if (!salesChannel) throw new Error('no sales channel to seed the demo into (ensureDefaultSalesChannel runs first)');
    // The seller an invoice names (Admin API: sales-channel sellerAddress, vatId).
    await db('sales_channels').where({ id: salesChannel.id }).update({
      seller_address: 'Suite Demo Trading GmbH\nHarbour Road 1\n20457 Hamburg\nGermany',
      vat_id: 'DE123456789',
    });
    await db('admin_users').insert({
      id: newId(),
      username: DEMO_ADMIN.username,
      email: 'admin@demo-shop.test',
      password_hash: await hashPassword(DEMO_ADMIN.password),
      active: true,
      created_at: nowDb(),
    });
    const integrationId = 'demo-integration';
    const integrationSecret = newSecret(24);
    await ensureAdminIntegration(db, integrationId, integrationSecret, 'Demo integration');
    const groupId = newId();
    await db('customer_groups').insert({ id: groupId, name: 'Business customers', created_at: nowDb() });
    const customer = await insertCustomer(db, {
      salesChannelId: salesChannel.id,
      email: DEMO_CUSTOMER.email,
      passwordHash: await hashPassword(DEMO_CUSTOMER.password),
      firstName: 'Dana',
      lastName: 'Buyer',
      company: DEMO_CUSTOMER.company,
      groupId,
      tags: ['demo'],
    });
    const addressId = newId();
    await db('customer_addresses').insert({
      id: addressId,
      customer_id: customer.id,
      company: DEMO_CUSTOMER.company,
      first_name: 'Dana',
      last_name: 'Buyer',
      street: 'Market Street 1',
      zipcode: '10115',
      city: 'Berlin',
      country_code: 'DE',
      created_at: nowDb(),
    });
    await db('customers')
      .where({ id: customer.id })
      .update({ default_billing_address_id: addressId, default_shipping_address_id: addressId });
    const catalog = await seedDemoCatalog(db);
    const demo: DemoShop = {
      salesChannelId: salesChannel.id,
      customerId: customer.id,
      customerEmail: customer.email,
      ...catalog,
    };
    const pluginLines: string[] = [];
    for (const { plugin } of shop.plugins)
      if (plugin.seedDemo)
        pluginLines.push(
          ...(await inZone('plugin', (host: HostRuntime) => plugin.seedDemo!(host, demo))(
            zonedPluginRuntime(shop.runtime),
          )),
        );
    await db('plugin_configs')
      .insert({
        plugin_name: '__demo',
        config: writeJson({ integrationId, integrationSecret, pluginLines }),
        updated_at: nowDb(),
      })
      .onConflict('plugin_name')
      .merge();
  }
  const demoRow = await db<{ plugin_name: string; config: string }>('plugin_configs')
    .where({ plugin_name: '__demo' })
    .first('config');
  if (demoRow) {
    const demo = JSON.parse(demoRow.config) as {
      integrationId: string;
      integrationSecret: string;
      pluginLines: string[];
    };
    const base = config.publicUrl;
    lines.push(
      '',
      'Demo logins:',
      `  Company admin (customer login): ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`,
      ...demo.pluginLines.map((l) => `  ${l}`),
      `  Admin user:                     ${DEMO_ADMIN.username} / ${DEMO_ADMIN.password} (the operator's console: ${base}/b2b-admin)`,
      '',
      'Try it:',
      `  curl -s -X POST ${base}/store-api/account/login -H 'content-type: application/json' -d '{"email":"${DEMO_CUSTOMER.email}","password":"${DEMO_CUSTOMER.password}"}'`,
      `  curl -s -X POST ${base}/api/oauth/token -H 'content-type: application/json' -d '{"grant_type":"client_credentials","client_id":"${demo.integrationId}","client_secret":"${demo.integrationSecret}"}'`,
    );
  } else if (!isEmbedded) {
    lines.push(
      '',
      'No demo data on this database (set SEED_DEMO=1 to add it). Create an admin integration with: npm run cli -- integration:create',
    );
  }
  return { lines };
}
