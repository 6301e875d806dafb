import { inTransaction, readBool, type Executor, type Trx } from '../../../lib/db.js';
import { nowDb } from '../../../lib/time.js';
import type { HostRuntime, LoginIdentity, SalesChannel } from '../../../contract/index.js';
import { defaultLink, employeeIdentity, findEmployeeRecord, setActiveEmployeePassword } from '../repository.js';
import { consumeToken, SCANNER_REUSE_SECONDS } from './tokens.js';

/** Who may use a login link: an active employee with an active link in this sales channel, or an active customer login of it. */
export async function loginIdentityFor(
  host: HostRuntime,
  executor: Executor,
  actorType: string,
  actorId: string,
  salesChannel: SalesChannel,
): Promise<LoginIdentity | null> {
  if (actorType === 'employee') {
    const employee = await findEmployeeRecord(executor, actorId);
    if (!employee || !readBool(employee.active)) return null;
    const link = await defaultLink(host, executor, employee.id, salesChannel.id);
    return link ? employeeIdentity(employee, link.customer_id) : null;
  }
  const customer = await host.customers.get(executor, actorId);
  if (!customer || !customer.active || customer.salesChannelId !== salesChannel.id) return null;
  return {
    customerId: customer.id,
    actor: {
      type: 'customer',
      id: customer.id,
      name: `${customer.firstName} ${customer.lastName}`,
      email: customer.email,
    },
    attributes: {},
  };
}

/** Uses the secret of a mailed login link and starts a session; null when the link is not (or no longer) valid. */
export async function loginWithLink(
  host: HostRuntime,
  salesChannel: SalesChannel,
  secret: string,
): Promise<{ token: string; sessionId: string } | null> {
  return inTransaction(host.db, async (trx) => {
    const token = await consumeToken(trx, 'passwordless-login', secret, salesChannel.id, SCANNER_REUSE_SECONDS);
    const identity = token ? await loginIdentityFor(host, trx, token.actorType, token.actorId, salesChannel) : null;
    if (!identity) return null;
    return host.auth.createSession(trx, { ...identity, salesChannelId: salesChannel.id });
  });
}

/** Sets an employee's new password with the secret of a reset link (once) and ends their sessions; the employee's id, or null when the link is not valid. */
export async function resetPasswordWithLink(
  host: HostRuntime,
  trx: Trx,
  salesChannelId: string,
  secret: string,
  passwordHash: string,
): Promise<string | null> {
  const token = await consumeToken(trx, 'password-recovery', secret, salesChannelId, 0);
  if (!token || token.actorType !== 'employee') return null;
  const updated = await setActiveEmployeePassword(trx, token.actorId, passwordHash, nowDb());
  if (updated !== 1) return null;
  await host.auth.revokeActorSessions(trx, 'employee', token.actorId);
  return token.actorId;
}
