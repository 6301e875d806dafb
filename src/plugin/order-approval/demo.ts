import { inTransaction, selectRow, writeJson } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import type { DemoShop, HostRuntime } from '../../host/contract.js';
import { DEMO_APPROVER, DEMO_PURCHASER } from '../employee/demo.js';
import { EMPLOYEES } from '../employee/repository.js';
import { BUDGETS, BUDGET_EMPLOYEES } from '../budget/repository.js';
import { SETTINGS } from './repository.js';

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
    if (await trx(SETTINGS).where({ customer_id: demo.customerId }).first('customer_id')) return;
    const purchaser = await selectRow<{ id: string }>(
      trx(EMPLOYEES).where({ email: DEMO_PURCHASER.email }).first('id'),
    );
    const approver = await selectRow<{ id: string }>(trx(EMPLOYEES).where({ email: DEMO_APPROVER.email }).first('id'));
    if (!purchaser || !approver) return;
    const now = nowDb();
    await trx(SETTINGS).insert({
      customer_id: demo.customerId,
      mode: 'n-of',
      approver_employee_ids: writeJson([approver.id]),
      n_value: 1,
      updated_at: now,
    });
    const budgetId = newId();
    await trx(BUDGETS).insert({
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
    await trx(BUDGET_EMPLOYEES).insert({ budget_id: budgetId, employee_id: purchaser.id });
  });
  return [
    `Approval: the approver approves the purchaser's orders (n-of, 1); monthly budget 5,000.00 ${currencyIso} for the purchaser`,
  ];
}
