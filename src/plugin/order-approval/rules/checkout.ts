import type { HostRuntime, OrderDraft, StoreContext } from '../../../contract/index.js';
import type { Trx } from '../../../lib/db.js';
import { fromMinor } from '../../../lib/money.js';
import { approvalRequiredError } from '../../company/index.js';
import { chooseRule } from './evaluate.js';

/**
 * The checkout interceptor: an employee's order that an approval rule (for orders) matches is
 * refused with the code that sends the client to /order-approval/create. The migrated rules answer
 * as the old triggers did (reason `budget` with the budget and what remains of it, reason `role`);
 * a company's own rules answer reason `rule` with the rule. The company admin's own login and
 * representatives order without rules, as before.
 */
export async function interceptByRules(
  host: HostRuntime,
  ctx: StoreContext,
  draft: OrderDraft,
  trx: Trx,
): Promise<void> {
  if (draft.actor.type !== 'employee' || !draft.actor.id) return;
  const order = {
    customerId: draft.customerId,
    buyer: draft.actor,
    lines: draft.lines,
    currencyIso: draft.currencyIso,
    timeZone: ctx.salesChannel.timeZone,
  };
  const { rule, exceededBudget } = await chooseRule(host, trx, order, false);
  if (!rule) return;
  if (rule.origin === 'budget' && exceededBudget)
    throw approvalRequiredError(
      'budget',
      `The order exceeds the budget "${exceededBudget.budget.name}" and needs approval.`,
      {
        budgetId: exceededBudget.budget.id,
        remaining: fromMinor(exceededBudget.available, ctx.salesChannel.currencyPrecision),
      },
    );
  if (rule.origin === 'role')
    throw approvalRequiredError('role', 'Your orders need approval: request approval for this order instead.');
  throw approvalRequiredError(
    'rule',
    `The approval rule "${rule.name}" asks for approval of this order: request approval for it instead.`,
    { ruleId: rule.id, ruleName: rule.name },
  );
}
