import type { HostRuntime } from '../../host/contract.js';
import { partialAssortmentRoutes } from './routes.js';
import { createPartialAssortmentService } from './service.js';
import { createVisibilityFilter } from './visibility.js';

/** Partial assortments: rules decide who sees which categories, landing pages and products. */
export async function registerPartialAssortment(host: HostRuntime): Promise<void> {
  for (const route of partialAssortmentRoutes(createPartialAssortmentService(host))) host.adminApi.route(route);
  host.catalog.addVisibilityFilter(createVisibilityFilter(host));
}
