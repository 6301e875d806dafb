import type { HostRuntime } from '../../../contract/index.js';
import { unitCsvRoutes } from './csv.js';
import { deleteCustomersUnits } from './repository.js';
import { unitRuleEnricher } from './rule-scope.js';
import { unitRoutes } from './routes.js';
import { unitStorefrontPages } from './storefront.js';

/**
 * Organisation units: the company's tree (create, rename, move, delete), memberships and managers,
 * CSV import and export. What hangs on a unit (budgets, cost centers, addresses) is declared by the
 * add-on it belongs to and read through directory.ts.
 */
export function registerOrganisationUnits(host: HostRuntime): void {
  for (const route of [...unitRoutes(host), ...unitCsvRoutes(host)]) host.storeApi.route(route);
  for (const page of unitStorefrontPages(host)) host.storefront.page(page);
  host.events.on('customer.deleted', (trx, { ids }) => deleteCustomersUnits(trx, ids));
  // An employee matches the partial-assortment rules attached to their units (decision 0028).
  host.auth.addContextEnricher(unitRuleEnricher);
}
