import { defineAdminRoute, type AdminRoute, type HostRuntime } from '../../host/contract.js';
import { selectRows } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import { BUDGETS, toBudgetRow, type BudgetTableRow } from './repository.js';
import { budgetViews } from './routes.js';
import { budgetSchema } from './schemas.js';

const MAX_BUDGETS = 500;

/** The operator's read of a company's budgets (the console's company page); the company's administrators keep them in the storefront. */
export function budgetAdminRoutes(host: HostRuntime): AdminRoute[] {
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/suite-company/{customerId}/budget',
      operationId: 'listCompanyBudgets',
      summary:
        "A customer's budgets with what the current period used, reserved and left (by name, at most 500; amounts in the currency's major unit).",
      tags: ['Companies'],
      auth: 'admin',
      permission: null,
      schemas: {
        params: pathParams('customerId'),
        responses: { 200: objectSchema({ data: { type: 'array', items: budgetSchema } }, ['data']) },
      },
      async handler({ params }) {
        const customer = await host.customers.get(host.db, params.customerId);
        if (!customer) throw Errors.notFound('customer', params.customerId);
        const salesChannel = await host.customers.salesChannel(host.db, customer.salesChannelId);
        if (!salesChannel) throw Errors.notFound('sales channel', customer.salesChannelId);
        const rows = await selectRows<BudgetTableRow>(
          host
            .db(BUDGETS)
            .where({ customer_id: params.customerId })
            .orderBy([{ column: 'name' }, { column: 'id' }])
            .limit(MAX_BUDGETS),
        );
        return { data: (await budgetViews(host.db, rows.map(toBudgetRow), salesChannel)) as never[] };
      },
    }),
  ];
}
