import { hashSecret, newId, newSecret } from '../../../lib/ids.js';
import type { Trx } from '../../../lib/db.js';
import { addSeconds, nowDb, toDbTime } from '../../../lib/time.js';
import type { HostRuntime, StoreContext } from '../../../host/contract.js';
import { storefrontLink } from '../common.js';
import { MAIL } from '../mail.js';

export const INVITATIONS = 'b2b_employee_invitations';
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;

export interface InvitationInput {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  department?: string | null;
  roleId?: string | null;
  /** The employee record made already by POST /b2b/employee/add; accepting sets its password. */
  employeeId?: string | null;
  storefrontUrl?: string | null;
}

/** Creates (or renews: the old link stops working) the invitation of one e-mail to the caller's customer and mails the activation link. */
export async function createInvitation(host: HostRuntime, trx: Trx, ctx: StoreContext, customerId: string, input: InvitationInput): Promise<string> {
  const secret = newSecret();
  const link = storefrontLink(host, ctx.salesChannel, `/account/employee-invitation/${secret}`, input.storefrontUrl);
  const now = new Date();
  const expiresAt = addSeconds(now, INVITATION_TTL_SECONDS);
  const id = newId();
  await trx(INVITATIONS).where({ customer_id: customerId, email: input.email }).delete();
  await trx(INVITATIONS).insert({
    id,
    customer_id: customerId,
    sales_channel_id: ctx.salesChannel.id,
    email: input.email,
    first_name: input.firstName ?? null,
    last_name: input.lastName ?? null,
    department: input.department ?? null,
    role_id: input.roleId ?? null,
    employee_id: input.employeeId ?? null,
    token_hash: hashSecret(secret),
    status: 'pending',
    expires_at: toDbTime(expiresAt),
    accepted_at: null,
    created_at: toDbTime(now),
  });
  const customer = ctx.customer ?? (await host.customers.get(trx, customerId));
  await host.mail.enqueue(trx, {
    template: MAIL.invitation,
    to: input.email,
    salesChannelId: ctx.salesChannel.id,
    data: {
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      inviterName: ctx.actor.name || (customer ? `${customer.firstName} ${customer.lastName}` : ''),
      companyName: customer?.company || (customer ? `${customer.firstName} ${customer.lastName}` : ''),
      link,
      expiresAt: expiresAt.toISOString(),
    },
  });
  return id;
}

export function invitationStatus(row: Record<string, any>): 'pending' | 'accepted' | 'expired' {
  if (row.status === 'accepted') return 'accepted';
  return row.expires_at <= nowDb() ? 'expired' : 'pending';
}
