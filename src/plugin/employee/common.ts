import { Errors } from '../../lib/errors.js';
import type { HostRuntime, SalesChannel } from '../../contract/index.js';

export const TAG = 'Employees';

export const emailSchema = { type: 'string', format: 'email', minLength: 3, maxLength: 255 } as const;
export const passwordSchema = { type: 'string', minLength: 8, maxLength: 1024 } as const;
export const nameSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' } as const;
export const optionalText = { anyOf: [{ type: 'string', maxLength: 255 }, { type: 'null' }] } as const;
/** The secret of a mailed link: newSecret() is 43 base64url characters. */
export const hashParam = { type: 'string', minLength: 20, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' } as const;
export const storefrontUrlSchema = { type: 'string', minLength: 1, maxLength: 2048 } as const;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The customer the caller acts for; a login without one (a representative who chose none) may not use customer routes. */
function origin(url: string): string {
  return url.trim().replace(/\/+$/, '').toLowerCase();
}

/**
 * Mail links are built on the sales channel's configured domains, never on the Host header. A
 * client may pick one of those domains (`storefrontUrl`); anything else is a 400. Without one the
 * link is the host's (`storefront.url`: the channel's first domain, on Vendure the first of the
 * plugin's `storefrontUrls`); a host that knows no storefront URL for the channel answers a bare
 * path, and a mail with a link that leads nowhere is refused with a 400 instead of being sent.
 */
export function storefrontLink(
  host: HostRuntime,
  salesChannel: SalesChannel,
  path: string,
  storefrontUrl?: string | null,
): string {
  if (storefrontUrl === undefined || storefrontUrl === null) {
    const link = host.storefront.url(salesChannel, path);
    if (!/^https?:\/\//i.test(link))
      throw Errors.badRequest(
        'SUITE__STOREFRONT_URL_UNKNOWN',
        'No storefront URL is configured for this sales channel (on Vendure: the plugin’s storefrontUrls option), so the mail’s link cannot be built.',
        { pointer: '/storefrontUrl' },
      );
    return link;
  }
  const match = salesChannel.domains.find((domain) => origin(domain) === origin(storefrontUrl));
  if (!match)
    throw Errors.badRequest(
      'SUITE__INVALID_STOREFRONT_URL',
      'storefrontUrl must be one of the sales channel’s configured domains.',
      { pointer: '/storefrontUrl' },
    );
  return `${match.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/** Answers that must not tell known from unknown e-mails take at least this long, whatever work they did. */
export async function answerNoSoonerThan(startedAt: number, milliseconds: number): Promise<void> {
  const wait = startedAt + milliseconds - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

export function fullName(row: { first_name?: string | null; last_name?: string | null }): string {
  return `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim();
}
