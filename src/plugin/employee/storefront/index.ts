import type { HostRuntime } from '../../../host/contract.js';
import { invitationPages } from './invitation.js';
import { loginLinkPages, recoveryPages } from './login-links.js';

/** The storefront pages behind the links the add-on mails: accept an invitation, log in with a link, reset the password. */
export function registerEmployeeStorefront(host: HostRuntime): void {
  for (const page of [...invitationPages(host), ...loginLinkPages(host), ...recoveryPages(host)])
    host.storefront.page(page);
}
