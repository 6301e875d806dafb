import { inTransaction, writeJson } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import type { DemoShop, HostRuntime } from '../../contract/index.js';
import { insertRoles } from './role/repository.js';
import { findEmployeeByEmail, insertEmployeeLink, insertEmployeeRecord } from './repository.js';

export const DEMO_PURCHASER = { email: 'purchaser@demo-company.test', password: 'demo-purchaser-2026' };
export const DEMO_APPROVER = { email: 'approver@demo-company.test', password: 'demo-approver-2026' };

/** Two roles and two employees of the demo customer: a purchaser whose orders need approval, and an approver. */
export async function seedEmployeeDemo(host: HostRuntime, demo: DemoShop): Promise<string[]> {
  const purchaserHash = await host.auth.hashPassword(DEMO_PURCHASER.password);
  const approverHash = await host.auth.hashPassword(DEMO_APPROVER.password);
  await inTransaction(host.db, async (trx) => {
    if (await findEmployeeByEmail(trx, DEMO_PURCHASER.email)) return;
    const now = nowDb();
    const purchaserRole = newId();
    const approverRole = newId();
    await insertRoles(trx, [
      {
        id: purchaserRole,
        customer_id: demo.customerId,
        name: 'Purchaser',
        description: 'Orders for the company; orders need approval.',
        permissions: writeJson([
          'orders.create',
          'orders.read',
          'budget.read',
          'order-approval.request',
          'offer.request',
          'offer.read',
          'product-list.manage',
          'customer-product-number.manage',
          'event.register',
        ]),
        requires_approval: true,
        created_at: now,
      },
      {
        id: approverRole,
        customer_id: demo.customerId,
        name: 'Approver',
        description: 'Approves orders and sees all of the company’s orders.',
        permissions: writeJson([
          'orders.create',
          'orders.read-all',
          'budget.read',
          'order-approval.approve',
          'offer.read',
          'employee.read',
          'event.register',
        ]),
        requires_approval: false,
        created_at: now,
      },
    ]);
    const people = [
      {
        email: DEMO_PURCHASER.email,
        hash: purchaserHash,
        first: 'Paul',
        last: 'Purchaser',
        role: purchaserRole,
        department: 'Purchasing',
      },
      {
        email: DEMO_APPROVER.email,
        hash: approverHash,
        first: 'Alex',
        last: 'Approver',
        role: approverRole,
        department: 'Management',
      },
    ];
    for (const person of people) {
      const id = newId();
      await insertEmployeeRecord(trx, {
        id,
        email: person.email,
        password_hash: person.hash,
        first_name: person.first,
        last_name: person.last,
        active: true,
        created_at: now,
      });
      await insertEmployeeLink(trx, {
        id: newId(),
        employee_id: id,
        customer_id: demo.customerId,
        role_id: person.role,
        department: person.department,
        active: true,
        created_at: now,
      });
    }
  });
  return [
    `Employee (purchaser, orders need approval): ${DEMO_PURCHASER.email} / ${DEMO_PURCHASER.password}`,
    `Employee (approver):                        ${DEMO_APPROVER.email} / ${DEMO_APPROVER.password}`,
  ];
}
