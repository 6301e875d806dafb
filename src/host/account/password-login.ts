import { inTransaction } from '../../lib/db.js';
import type { SalesChannel } from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import { burnPasswordTime, verifyPassword } from '../../host-kit/passwords.js';
import { createSession } from '../auth/sessions.js';
import { findCustomerRowByEmail } from '../customer/customer-repository.js';

/**
 * E-mail + password login shared by the Store API and the storefront: the customer login first,
 * then the plugins' login providers (employees, sales representatives). Null when refused.
 */
export async function passwordLogin(
  internals: HostInternals,
  salesChannel: SalesChannel,
  emailInput: string,
  password: string,
): Promise<{ token: string; sessionId: string } | null> {
  const { config } = internals;
  const email = emailInput.trim().toLowerCase();
  return inTransaction(internals.db, async (trx) => {
    const row = await findCustomerRowByEmail(trx, email);
    if (row && row.password_hash && row.sales_channel_id === salesChannel.id) {
      if ((await verifyPassword(password, row.password_hash)) && row.active) {
        return createSession(trx, config.appSecret, config.contextTokenTtl, {
          salesChannelId: salesChannel.id,
          customerId: row.id,
          actor: { type: 'customer', id: row.id, name: `${row.first_name} ${row.last_name}`, email: row.email },
          attributes: {},
        });
      }
      return null;
    }
    // Exactly one password check per attempt, whoever owns the address (no enumeration by timing).
    let passwordChecked = Boolean(row?.password_hash);
    for (const provider of internals.registries.loginProviders) {
      const identity = await provider(trx, email, password, salesChannel);
      if (identity === 'wrong-password') {
        passwordChecked = true;
        continue;
      }
      if (identity)
        return createSession(trx, config.appSecret, config.contextTokenTtl, {
          ...identity,
          salesChannelId: salesChannel.id,
        });
    }
    if (!passwordChecked) await burnPasswordTime(password);
    return null;
  });
}
