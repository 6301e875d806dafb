import type { HostRuntime } from '../../contract/index.js';
import { ASSIGNMENT_KINDS } from './kinds.js';
import { deleteAssignmentsOfEntities } from './repository.js';
import { partialAssortmentRoutes } from './routes.js';
import { createPartialAssortmentService } from './service.js';
import { createVisibilityFilter } from './visibility.js';

/** Partial assortments: rules decide who sees which categories, landing pages and products. */
export function registerPartialAssortment(host: HostRuntime): void {
  for (const route of partialAssortmentRoutes(host, createPartialAssortmentService(host))) host.adminApi.route(route);
  host.catalog.addVisibilityFilter(createVisibilityFilter(host));
  const kindOf = (entity: string) => ASSIGNMENT_KINDS.find((k) => k.entity === entity)!;
  host.events.on('product.deleted', (trx, { ids }) => deleteAssignmentsOfEntities(trx, kindOf('product'), ids));
  host.events.on('category.deleted', (trx, { ids }) => deleteAssignmentsOfEntities(trx, kindOf('category'), ids));
  host.events.on('landing_page.deleted', (trx, { ids }) =>
    deleteAssignmentsOfEntities(trx, kindOf('landing_page'), ids),
  );
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<PartialAssortmentAdminRoute>()`). */
export type PartialAssortmentAdminRoute = ReturnType<typeof partialAssortmentRoutes>[number];
