import type { HostRuntime } from '../../host/contract.js';
import { mailPreviewRoutes } from './routes.js';

/** The mail template preview of the Admin API (the operator's console shows it). */
export function registerMailPreview(host: HostRuntime): void {
  for (const route of mailPreviewRoutes(host)) host.adminApi.route(route);
}
