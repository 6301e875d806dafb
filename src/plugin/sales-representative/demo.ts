import { inTransaction } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import type { DemoShop, HostRuntime } from '../../host/contract.js';
import { ASSIGNMENTS, REPRESENTATIVES } from './repository.js';

export const DEMO_REPRESENTATIVE = { email: 'sales@demo-shop.test', password: 'demo-sales-2026' };

/** A representative login looking after the demo customer. Seeding twice is a no-op. */
export async function seedSalesRepresentativeDemo(host: HostRuntime, demo: DemoShop): Promise<string[]> {
  const passwordHash = await host.auth.hashPassword(DEMO_REPRESENTATIVE.password);
  await inTransaction(host.db, async (trx) => {
    if (await trx(REPRESENTATIVES).where({ email: DEMO_REPRESENTATIVE.email }).first('id')) return;
    const id = newId();
    const now = nowDb();
    await trx(REPRESENTATIVES).insert({
      id,
      email: DEMO_REPRESENTATIVE.email,
      password_hash: passwordHash,
      first_name: 'Sam',
      last_name: 'Sales',
      phone: '+49 30 1234567',
      active: true,
      created_at: now,
    });
    if (!(await trx(ASSIGNMENTS).where({ customer_id: demo.customerId }).first('id')))
      await trx(ASSIGNMENTS).insert({
        id: newId(),
        sales_representative_id: id,
        customer_id: demo.customerId,
        created_at: now,
      });
  });
  return [
    `Sales representative (acts for the demo customer): ${DEMO_REPRESENTATIVE.email} / ${DEMO_REPRESENTATIVE.password}`,
  ];
}
