import type { HostRuntime } from '../../contract/index.js';
import { importRunRoutes } from './routes.js';
import { createImportRuns, type ImportRuns } from './service.js';

export const START_QUEUED_JOB = 'import-run.start-queued';
const START_QUEUED_EVERY_SECONDS = 60;

/** Import runs (long imports with progress); answers the runs for the add-ons that register an importer. */
export function registerImportRuns(host: HostRuntime): ImportRuns {
  const runs = createImportRuns(host);
  for (const route of importRunRoutes(runs)) host.adminApi.route(route);
  host.jobs.register(START_QUEUED_JOB, () => runs.startQueued());
  host.jobs.schedule(START_QUEUED_JOB, START_QUEUED_EVERY_SECONDS);
  return runs;
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<ImportRunAdminRoute>()`). */
export type ImportRunAdminRoute = ReturnType<typeof importRunRoutes>[number];

export { importRunResponse } from './routes.js';
export { CHECKED_FILE_TTL_SECONDS, type ImportRuns } from './service.js';
