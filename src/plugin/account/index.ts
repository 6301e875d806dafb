import type { HostRuntime } from '../../contract/index.js';
import { checkoutSettingRoutes } from './checkout-settings.js';
import { documentRoutes } from './documents.js';
import { expressCheckoutRoutes } from './express-checkout.js';
import { platformCmsRoutes } from './platform-cms.js';
import { platformMenuRoutes } from './platform-menu.js';
import { deleteCustomersCheckoutSettings } from './repository.js';
import { registerAccountStorefront } from './storefront.js';
import { snippetRoutes } from './snippets.js';

/** Account extras: snippets, the platform menu, platform CMS pages, default address switch, express checkout settings and order, customer documents. */
export function registerAccountExtras(host: HostRuntime): void {
  for (const route of [
    ...snippetRoutes(host),
    ...platformMenuRoutes(host),
    ...platformCmsRoutes(host),
    ...checkoutSettingRoutes(host),
    ...expressCheckoutRoutes(host),
    ...documentRoutes(host),
  ])
    host.storeApi.route(route);
  registerAccountStorefront(host);
  host.events.on('customer.deleted', (trx, { ids }) => deleteCustomersCheckoutSettings(trx, ids));
}

/** For the console's settings page: the platform menu as the storefront shows it. */
export { menuPreview, type MenuPreviewEntry } from './platform-menu.js';
