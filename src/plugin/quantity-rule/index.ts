import type { HostRuntime } from '../../contract/index.js';
import { deleteRulesOf } from './repository.js';
import { quantityRuleAdminRoutes, quantityRuleStoreRoutes } from './routes.js';
import { QUANTITY_RULES_VERSION, QuantityRuleCache } from './rule-cache.js';
import { quantityRuleExtension, quantityRuleProcessor } from './service.js';

export { assertAllowedQuantities, type EnteredQuantity } from './service.js';
export { QUANTITY_NOT_ALLOWED, type QuantityRule } from './rules.js';

/**
 * Quantity rules: per product a minimum, maximum and step quantity and a packaging unit. A
 * line-item processor checks every quantity that enters a cart or an order on both hosts; the
 * offer and approval add-ons check the quantities they keep themselves (assertAllowedQuantities).
 */
export function registerQuantityRules(host: HostRuntime): void {
  for (const route of quantityRuleAdminRoutes(host)) host.adminApi.route(route);
  for (const route of quantityRuleStoreRoutes(host)) host.storeApi.route(route);
  host.auth.addContextVersion(QUANTITY_RULES_VERSION);
  host.cart.addLineItemProcessor(quantityRuleProcessor(new QuantityRuleCache(host)));
  // A host before contract 3.5 has no product extensions: themes there read POST /quantity-rule/list.
  host.catalog.addProductExtension?.(quantityRuleExtension);
  host.events.on('product.deleted', (trx, { ids }) => deleteRulesOf(trx, ids));
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<QuantityRuleAdminRoute>()`). */
export type QuantityRuleAdminRoute = ReturnType<typeof quantityRuleAdminRoutes>[number];

/** For the order-again and approval add-ons: a product's rules, and a quantity brought to what its rule allows. */
export { rulesOf } from './repository.js';
export { isAllowed, nearestAllowed } from './rules.js';
export { storeRules } from './service.js';
