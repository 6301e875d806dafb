import type { HostRuntime, StoreContext, StorefrontPage } from '../../../contract/index.js';
import type { SchemaInput } from '../../../lib/routes.js';
import { PERIOD_LABELS, zonedToday } from '../periods.js';
import { budgetRoutes } from '../routes.js';
import type { budgetSchema } from '../schemas.js';
import { now } from '../../../lib/time.js';
import { routeCaller, routesByName } from '../../storefront-kit.js';

/** The Store API's largest page: more budgets than this per company are not expected. */
const LIST_LIMIT = 500;
const READ_PERMISSION = 'budget.read';

/** A budget as the Store API answers it (the response schema's type). */
type BudgetView = SchemaInput<typeof budgetSchema>;

function dateText(date: Date, timeZone: string): string {
  const options = { dateStyle: 'medium', timeZone: timeZone || 'UTC' } as const;
  try {
    return new Intl.DateTimeFormat('en-GB', options).format(date);
  } catch {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(date);
  }
}

/** "1 Mar 2025 – 31 Mar 2025": windows end exclusively at the next period's midnight. */
function periodText(budget: BudgetView, timeZone: string, today: string): string {
  if (budget.startDate > today) return `Starts on ${dateText(new Date(`${budget.startDate}T12:00:00Z`), 'UTC')}`;
  if (budget.periodType === 'per-order') return 'Each order on its own';
  if (!budget.periodStart) return '';
  const start = dateText(new Date(budget.periodStart), timeZone);
  if (!budget.periodEnd) return `Since ${start}`;
  return `${start} – ${dateText(new Date(new Date(budget.periodEnd).getTime() - 1), timeZone)}`;
}

/**
 * The budgets overview: the budgets that govern the logged-in employee, and with `budget.read` all
 * budgets of the company, each with used, reserved and available amounts in its current period.
 * Reads go through the declared Store API routes (their permission, schemas and handlers).
 */
export function budgetStorefrontPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName(budgetRoutes(host));
  const call = routeCaller();

  function display(ctx: StoreContext, budgets: BudgetView[]) {
    const today = zonedToday(now(), ctx.salesChannel.timeZone);
    return budgets.map((budget) => ({
      ...budget,
      periodLabel: PERIOD_LABELS[budget.periodType],
      periodText: periodText(budget, ctx.salesChannel.timeZone, today),
      exceeded: budget.available <= 0 && budget.periodType !== 'per-order',
    }));
  }

  return [
    {
      path: '/account/budgets',
      auth: 'login',
      async handler({ ctx }) {
        const own = ctx.actor.type === 'employee' ? await call(ctx, routes.readEmployeeBudgets) : null;
        const company = ctx.can(READ_PERMISSION)
          ? await call(ctx, routes.listBudgets, { body: { limit: LIST_LIMIT } })
          : null;
        return {
          template: 'budget-overview',
          data: {
            title: 'Budgets',
            showOwn: own !== null,
            own: own ? display(ctx, own.elements) : [],
            showCompany: company !== null,
            company: company ? display(ctx, company.elements) : [],
            companyMore: company ? company.total > company.elements.length : false,
          },
        };
      },
    },
  ];
}

export function registerBudgetStorefront(host: HostRuntime): void {
  for (const page of budgetStorefrontPages(host)) host.storefront.page(page);
}
