import { inTransaction } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import type { DemoShop, HostRuntime } from '../../contract/index.js';
import { DEMO_APPROVER, DEMO_PURCHASER, findEmployeeByEmail } from '../employee/index.js';
import { insertBudget, replaceBudgetLinks } from '../budget/index.js';
import { hasSettings, insertSettings } from './repository.js';

/**
 * The demo's spending control: the approver employee approves (n-of, one approval needed), and
 * the purchaser has a monthly budget of 5,000.00 in the sales channel's currency whose excess asks
 * for approval.
 * Runs after the employee demo, which creates both employees.
 */
export async function seedApprovalDemo(host: HostRuntime, demo: DemoShop): Promise<string[]> {
  // The budget counts in the sales channel's currency: a budget in another currency governs no order.
  const currencyIso = (await host.customers.salesChannel(host.db, demo.salesChannelId))?.currencyIso ?? 'EUR';
  await inTransaction(host.db, async (trx) => {
    if (await hasSettings(trx, demo.customerId)) return;
    const purchaser = await findEmployeeByEmail(trx, DEMO_PURCHASER.email);
    const approver = await findEmployeeByEmail(trx, DEMO_APPROVER.email);
    if (!purchaser || !approver) return;
    const now = nowDb();
    await insertSettings(trx, demo.customerId, { mode: 'n-of', approverEmployeeIds: [approver.id], nValue: 1 }, now);
    const budgetId = newId();
    await insertBudget(trx, {
      id: budgetId,
      customer_id: demo.customerId,
      name: 'Purchasing, monthly',
      description: 'Monthly purchasing budget; orders beyond it need approval.',
      amount: 500000,
      currency_iso: currencyIso,
      period_type: 'monthly',
      start_date: now.slice(0, 10),
      active: true,
      notification_percentage: 80,
      allow_approval: true,
      approver_employee_id: approver.id,
      created_at: now,
    });
    await replaceBudgetLinks(trx, budgetId, [purchaser.id], undefined);
  });
  return [
    `Approval: the approver approves the purchaser's orders (n-of, 1); monthly budget 5,000.00 ${currencyIso} for the purchaser`,
  ];
}
