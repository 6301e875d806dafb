import { inTransaction } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import type { DemoShop, HostRuntime } from '../../contract/index.js';
import { findRepresentativeByEmail, hasAssignment, insertAssignment, insertRepresentative } from './repository.js';

export const DEMO_REPRESENTATIVE = { email: 'sales@demo-shop.test', password: 'demo-sales-2026' };

/** A representative login looking after the demo customer. Seeding twice is a no-op. */
export async function seedSalesRepresentativeDemo(host: HostRuntime, demo: DemoShop): Promise<string[]> {
  const passwordHash = await host.auth.hashPassword(DEMO_REPRESENTATIVE.password);
  await inTransaction(host.db, async (trx) => {
    if (await findRepresentativeByEmail(trx, DEMO_REPRESENTATIVE.email)) return;
    const id = newId();
    const now = nowDb();
    await insertRepresentative(trx, {
      id,
      email: DEMO_REPRESENTATIVE.email,
      password_hash: passwordHash,
      first_name: 'Sam',
      last_name: 'Sales',
      phone: '+49 30 1234567',
      active: true,
      created_at: now,
    });
    if (!(await hasAssignment(trx, demo.customerId)))
      await insertAssignment(trx, {
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
