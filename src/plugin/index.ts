import type { DemoShop, HostPlugin, HostRuntime } from '../contract/index.js';
import { seedEmployeeDemo } from './employee/demo.js';
import { seedSalesRepresentativeDemo } from './sales-representative/demo.js';
import { seedApprovalDemo } from './order-approval/demo.js';
import { seedEventDemo } from './event-manager/demo.js';
import { seedOfferDemo } from './offer/demo.js';
import { registerPartialAssortment } from './partial-assortment/index.js';
import { registerEmployees } from './employee/index.js';
import { registerSalesRepresentatives } from './sales-representative/index.js';
import { registerAccountExtras } from './account/index.js';
import { registerCustomerPrices } from './customer-price/index.js';
import { registerImportRuns } from './import-run/index.js';
import { registerFastOrder } from './fast-order/index.js';
import { registerProductLists } from './product-list/index.js';
import { registerCustomerProductNumbers } from './customer-product-number/index.js';
import { registerBudgets } from './budget/index.js';
import { registerOrderApproval } from './order-approval/index.js';
import { registerEventManager } from './event-manager/index.js';
import { registerOffers } from './offer/index.js';
import { registerCostCenters } from './cost-center/index.js';
import { registerQuantityRules } from './quantity-rule/index.js';
import { registerPaymentOnAccount } from './payment-on-account/index.js';
import { registerRecurringOrders } from './recurring-order/index.js';
import { registerConsole } from './console/index.js';
import { registerOrganisationUnits } from './company/units/index.js';
import { colleaguesInUnitSubtrees } from './company/units/directory.js';
import { registerCompanyAddresses } from './company/addresses/index.js';
import { registerCheckoutMethods } from './company/checkout-methods/index.js';
import { registerMailPreview } from './mail-preview/index.js';
import { registerClosedShop } from './closed-shop/index.js';
import { registerOrderAgain } from './order-again/index.js';

/**
 * Suite B2B. Each add-on lives in its own folder and registers its routes, extension points,
 * mail templates and jobs with the host here, in dependency order (employees first: the others
 * read the employee and permissions in the context).
 */
const plugin: HostPlugin = {
  name: 'suite-b2b',
  register(host: HostRuntime) {
    registerEmployees(host, { unitColleagues: colleaguesInUnitSubtrees });
    registerOrganisationUnits(host);
    registerCompanyAddresses(host);
    registerCheckoutMethods(host);
    registerSalesRepresentatives(host);
    registerAccountExtras(host);
    const importRuns = registerImportRuns(host);
    // Customer prices first: the first price provider that answers wins.
    registerCustomerPrices(host, importRuns);
    registerCustomerProductNumbers(host);
    registerFastOrder(host);
    registerProductLists(host);
    registerPartialAssortment(host);
    registerBudgets(host);
    registerOrderApproval(host);
    registerEventManager(host);
    registerOffers(host);
    registerCostCenters(host);
    registerQuantityRules(host);
    registerPaymentOnAccount(host);
    registerClosedShop(host);
    registerRecurringOrders(host);
    registerMailPreview(host);
    registerOrderAgain(host);
    // Last: the console's pages call the Admin API routes the add-ons above declared.
    registerConsole(host);
    return Promise.resolve();
  },
  /** Demo records and logins for the start banner: employees, approval settings and a budget, a sales representative, an event and an offer. */
  async seedDemo(host: HostRuntime, demo: DemoShop) {
    return [
      ...(await seedEmployeeDemo(host, demo)),
      ...(await seedApprovalDemo(host, demo)),
      ...(await seedSalesRepresentativeDemo(host, demo)),
      ...(await seedEventDemo(host, demo)),
      ...(await seedOfferDemo(host, demo)),
    ];
  },
};

export default plugin;
