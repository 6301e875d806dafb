import type { HostRuntime } from '../../../contract/index.js';
import { invitationPages } from './invitation.js';
import { loginLinkPages, recoveryPages } from './login-links.js';
import { accountRequestPages, loginHelpPages } from './onboarding.js';

/**
 * The storefront pages behind the links the add-on mails (accept an invitation, log in with a link, reset the
 * password), and the ways in: ask for a business account, ask for a login link or a reset link.
 */
export function registerEmployeeStorefront(host: HostRuntime): void {
  for (const page of [
    ...invitationPages(host),
    ...loginLinkPages(host),
    ...recoveryPages(host),
    ...accountRequestPages(host),
    ...loginHelpPages(host),
  ])
    host.storefront.page(page);
}
