import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import { budgetsOfCustomer } from './repository.js';
import { budgetViews } from './routes.js';
import { budgetSchema } from './schemas.js';

const MAX_BUDGETS = 500;

/** The operator's read of a company's budgets (the console's company page); the company's administrators keep them in the storefront. */
export function budgetAdminRoutes(host: HostRuntime) {
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
        const budgets = await budgetsOfCustomer(host.db, params.customerId, MAX_BUDGETS);
        return { data: (await budgetViews(host.db, budgets, salesChannel)) as never[] };
      },
    }),
  ];
}
