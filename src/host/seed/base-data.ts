import type { Db } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { writeJson } from '../../lib/db.js';
import { nowDb } from '../../lib/time.js';
import { hashPassword } from '../../host-kit/passwords.js';
import type { SalesChannelRow } from '../customer/rows.js';

/** The shop cannot answer without a sales channel: ensure one exists on every database. */
export async function ensureDefaultSalesChannel(db: Db, publicUrl: string): Promise<string> {
  const existing = await db<SalesChannelRow>('sales_channels').orderBy('created_at').first('id');
  if (existing) return existing.id;
  const id = newId();
  await db('sales_channels').insert({
    id,
    name: 'Storefront',
    access_key: `SWSC${newId().slice(0, 24).toUpperCase()}`,
    currency_iso: 'EUR',
    currency_precision: 2,
    language_code: 'en-GB',
    time_zone: 'Europe/Berlin',
    domains: writeJson([publicUrl]),
    active: true,
    created_at: nowDb(),
  });
  return id;
}

/** ADMIN_CLIENT_ID / ADMIN_CLIENT_SECRET: start-up makes sure this integration exists with this secret. */
export async function ensureAdminIntegration(
  db: Db,
  clientId: string,
  clientSecret: string,
  label = 'Environment integration',
): Promise<void> {
  const secretHash = await hashPassword(clientSecret);
  const existing = await db<{ id: string; client_id: string }>('admin_integrations')
    .where({ client_id: clientId })
    .first('id');
  if (existing)
    await db('admin_integrations').where({ id: existing.id }).update({ secret_hash: secretHash, updated_at: nowDb() });
  else
    await db('admin_integrations').insert({
      id: newId(),
      client_id: clientId,
      secret_hash: secretHash,
      label,
      created_at: nowDb(),
    });
}
