import type { HostRuntime } from '../../contract/index.js';
import { accountRequestPages } from './account-requests.js';
import { activityTypePages } from './activity-types.js';
import { assortmentPreviewPages } from './assortment-preview.js';
import { companyPages } from './companies.js';
import { customerPriceExportPages } from './customer-price-export.js';
import { customerPricePages } from './customer-prices.js';
import { customerProductNumberPages } from './customer-product-numbers.js';
import { eventPages } from './event.js';
import { eventListPages } from './events.js';
import { failedWorkPages } from './failed-work.js';
import { importRunPages } from './import-runs.js';
import { integrationPages } from './integrations.js';
import { createConsoleKit } from './kit.js';
import { mailTemplatePages } from './mail-templates.js';
import { partialAssortmentPages } from './partial-assortments.js';
import { paymentOnAccountPages } from './payment-on-account.js';
import { quantityRulePages } from './quantity-rules.js';
import { salesRepresentativePages } from './sales-representatives.js';
import { settingsPages } from './settings.js';
import { startPages } from './start.js';

/**
 * The operator's console: pages the host serves behind its administrator login
 * (contract 3.4 `console`). Every page reads and changes through the declared Admin API routes,
 * in-process (`console.call`), so every rule, validation and error code is the API's. A host
 * without a console gets no pages. docs/console.md tells how a page is added.
 */
export function registerConsole(host: HostRuntime): void {
  if (!host.console) return;
  const kit = createConsoleKit(host, host.console);
  for (const page of [
    ...startPages(kit),
    ...companyPages(kit),
    ...paymentOnAccountPages(kit),
    ...accountRequestPages(kit),
    ...customerPricePages(kit),
    ...customerPriceExportPages(kit),
    ...importRunPages(kit),
    ...customerProductNumberPages(kit),
    ...partialAssortmentPages(kit),
    ...assortmentPreviewPages(kit),
    ...quantityRulePages(kit),
    ...salesRepresentativePages(kit),
    ...activityTypePages(kit),
    ...eventListPages(kit),
    ...eventPages(kit),
    ...mailTemplatePages(kit),
    ...integrationPages(kit),
    ...failedWorkPages(kit),
    ...settingsPages(kit),
  ])
    host.console.page(page);
}
