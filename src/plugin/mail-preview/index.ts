import type { HostRuntime } from '../../contract/index.js';
import { mailPreviewRoutes } from './routes.js';

/** The mail template preview of the Admin API (the operator's console shows it). */
export function registerMailPreview(host: HostRuntime): void {
  for (const route of mailPreviewRoutes(host)) host.adminApi.route(route);
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<MailPreviewAdminRoute>()`). */
export type MailPreviewAdminRoute = ReturnType<typeof mailPreviewRoutes>[number];
