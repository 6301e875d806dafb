import type { AdminRoute, HostRuntime, StoreRoute } from '../contract.js';
import type { HostInternals } from '../internals.js';

export interface CatalogModule extends Pick<HostRuntime, 'catalog' | 'rules' | 'prices'> {
  storeRoutes: StoreRoute[];
  adminRoutes: AdminRoute[];
}

const notYet = (what: string) => () => {
  throw new Error(`${what} is not implemented yet`);
};

/** Catalog, rule engine and prices. (Stub: filled in by the catalog module.) */
export function createCatalogModule(internals: HostInternals): CatalogModule {
  void internals;
  return {
    catalog: {
      addVisibilityFilter: (f) => void internals.registries.visibilityFilters.push(f),
      applyVisibility: notYet('catalog.applyVisibility'),
      visibleProducts: notYet('catalog.visibleProducts'),
      products: notYet('catalog.products'),
      entityVersionId: notYet('catalog.entityVersionId'),
      visibilityChanged: notYet('catalog.visibilityChanged'),
      visibilityVersion: notYet('catalog.visibilityVersion'),
    },
    rules: { matchingRuleIds: async () => [], exists: notYet('rules.exists') },
    prices: { addPriceProvider: (p) => void internals.registries.priceProviders.push(p), calculate: notYet('prices.calculate') },
    storeRoutes: [],
    adminRoutes: [],
  };
}
